/**
 * The bundle: one msgpack document between the compiler and every runtime (library, server, browser).
 * Same input ⇒ same bytes: the packer sorts every array and object key before encoding.
 *
 * `Bundle` is the in-memory shape queries use; the bytes hold a compact encoding of it
 * (formats/bundle/codec.ts, docs/bundle-format.md): columnar edges, per-node body blobs decoded on
 * first access, no duplicated text. `encodeBundle`/`decodeBundle` convert between the two.
 */
import { fromEncoded, newPackr, toEncoded, type BundleContent, type EncodeOptions, type EncodedBundle, type HydrateOptions } from './codec.js';
import { createError, isKddError } from '../../model/errors.js';
import type { DanglingLink, GraphEdge, GraphNode, IndexManifest, LayerViolation } from '../../model/graph.js';
import type { QuantizedVectors } from '../../runtime/vectors.js';

/** Bumped on any incompatible change; `decodeBundle` refuses other versions. */
export const BUNDLE_FORMAT_VERSION = 2;

export interface Bundle {
  /** Always BUNDLE_FORMAT_VERSION for bundles this code writes. */
  format: number;
  /** IndexManifest of the index the bundle was packed from (`sources` included). */
  manifest: IndexManifest;
  /** Every node, sorted by id. Node index = position in this array. */
  nodes: GraphNode[];
  /** Every edge, sorted by (from_node, to_node, edge_type). Edge index = position. */
  edges: GraphEdge[];
  /** `outgoing[i]` = indices of edges whose `from_node` is node i (ascending). */
  outgoing: number[][];
  /** `incoming[i]` = indices of edges whose `to_node` is node i (ascending). */
  incoming: number[][];
  /** Precomputed QRY-006 answer (BR-LAYER-001), sorted like edges. */
  layer_violations: LayerViolation[];
  /** Unresolved wiki-links, sorted by (from_node, target). */
  dangling: DanglingLink[];
  /** Serialized full-text index (runtime/search), restored without re-tokenising. */
  search: unknown;
  // chunk_search: issue #10
  /** Chunk-level term index for lexical chunk retrieval (runtime/search/chunk-index.ts); absent in older bundles. */
  chunk_search?: unknown;
  /** Paragraph-level chunks of every node (BR-EMBEDDING-001 chunking), sorted by (node, position). */
  chunks: BundleChunk[];
  /** L2 only: one int8 vector per embeddable chunk; null at L1. */
  vectors: BundleVectors | null;
}

/**
 * A chunk points into its node's section text instead of copying it:
 * `nodes[node].sections[section].text.slice(start, end)` is the chunk's text, exactly as stored.
 */
export interface BundleChunk {
  /** Stable id: `${node_id}#${section_path}:${index in section}`, equal across rebuilds of the same content. */
  id: string;
  node: number;
  /** Zero-based order of the chunk in its document. */
  position: number;
  section: number;
  start: number;
  end: number;
  /** Whether BR-EMBEDDING-001 embeds it (only those have vectors). */
  embeddable: boolean;
}

export interface BundleVectors {
  /** Embedder id (model + dtype) the vectors come from; queries must embed with the same one. */
  model: string;
  dimensions: number;
  /** Row i of `quantized` is the vector of `chunks[rows[i]]` (ascending). */
  rows: number[];
  quantized: QuantizedVectors;
}

/** In-memory bundle → bytes (format 2). Expects the packer's canonical input (sorted keys and arrays). */
export function encodeBundle(bundle: BundleContent, options: EncodeOptions & { allocate?: (bytes: number) => Uint8Array } = {}): Uint8Array {
  const encoded = toEncoded(bundle, options);
  const packr = newPackr();
  // A 10k-node bundle is ~60 MB, mostly binary columns: start from a buffer that fits them, so the
  // packer does not double its way up from 8 KB copying everything each time. The buffer must be
  // of the kind msgpackr allocates on the platform (a Node Buffer on Node): the caller's `allocate`.
  const binary = binaryBytes(encoded, 3);
  if (options.allocate && binary > 1 << 20) packr.useBuffer(options.allocate(Math.ceil(binary * 1.25) + ((bundle.nodes?.length ?? 0) << 9)));
  return packr.pack(encoded);
}

/** Bytes of the Uint8Arrays in `value`, down to `depth` levels of objects and arrays. */
function binaryBytes(value: unknown, depth: number): number {
  if (value instanceof Uint8Array) return value.byteLength;
  if (depth === 0 || value === null || typeof value !== 'object' || Array.isArray(value)) return 0;
  let total = 0;
  for (const item of Object.values(value)) total += binaryBytes(item, depth - 1);
  return total;
}

export type DecodeOptions = HydrateOptions;

/**
 * Bytes → in-memory bundle. Node bodies (`sections`, `indexed_fields`) and `chunks` are decoded on
 * first access unless `{ lazy: false }`; everything else is checked and hydrated now.
 * @throws KddError `INDEX_UNAVAILABLE` for bytes that are not a format-2 bundle.
 */
export function decodeBundle(bytes: Uint8Array, options: DecodeOptions = {}): Bundle {
  let value: unknown;
  try {
    // Through a fresh plain Uint8Array view: given a Node Buffer, msgpackr returns `bin` values as
    // Buffer views (whose `.slice()` does not copy) and caches a `dataView` on the object it reads.
    value = newPackr().unpack(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch (error) {
    throw createError('INDEX_UNAVAILABLE', { reason: `bundle is not valid msgpack (${(error as Error).message})` });
  }
  const encoded = value as Partial<EncodedBundle> | null;
  if (!encoded || typeof encoded !== 'object' || encoded.format !== BUNDLE_FORMAT_VERSION) {
    throw createError('INDEX_UNAVAILABLE', {
      reason: `unsupported bundle format ${String(encoded?.format)} (this runtime reads format ${BUNDLE_FORMAT_VERSION})`,
    });
  }
  try {
    return fromEncoded(encoded as EncodedBundle, options);
  } catch (error) {
    if (isKddError(error)) throw error;
    throw createError('INDEX_UNAVAILABLE', { reason: `bundle is corrupt (${(error as Error).message})` }, { cause: error });
  }
}

/** Name of the pointer file next to the bundles. */
export const POINTER_FILE = 'kdd.json';

/** `kdd.json`: where the current bundle is and what it holds. Readers follow it; writers write it last. */
export interface BundlePointer {
  format: number;
  /** File name of the bundle, relative to the pointer: `kdd-<sha256:12>.msgpack`. */
  bundle: string;
  hash: string;
  bytes: number;
  index_level: IndexManifest['index_level'];
  structure: IndexManifest['structure'];
  stats: IndexManifest['stats'];
  /** Digest of the index the bundle was packed from (`kdd build`): a build whose index differs packs again. */
  index_digest?: string;
}
