/**
 * The bundle: one msgpack document between the compiler and every runtime (library, server, browser).
 * Same input ⇒ same bytes: the packer sorts every array and object key before encoding.
 *
 * `Bundle` (./types.ts) is the in-memory shape queries use; the bytes hold a compact encoding of it
 * (docs/bundle-format.md), one module per part: nodes (./nodes.ts: light maps plus per-node body
 * blobs decoded on first access, no duplicated text), edges (./edges.ts: columns, `outgoing` /
 * `incoming` derived at load), chunks (./chunks.ts: columns hydrated on first access).
 * `encodeBundle`/`decodeBundle` convert between the two.
 *
 * Pure data in, pure data out; isomorphic (no Node-only types). Equal input ⇒ equal bytes.
 */
import { createError, isKddError } from '../../model/errors.js';
import { defineLazy } from '../lazy.js';
import { newPackr } from '../msgpack.js';
import { decodeChunks, encodeChunks, type EncodedChunks } from './chunks.js';
import { decodeEdges, encodeEdges, type EncodedEdges } from './edges.js';
import { decodeNodes, encodeNodes, type EncodedNodes, type NodesToWrite } from './nodes.js';
import { msgpackPieces, writeMsgpack } from './write.js';
import { BUNDLE_FORMAT_VERSION, type Bundle, type BundleChunk } from './types.js';

/** The encoded form of a {@link Bundle}: what is actually msgpack-packed. */
export interface EncodedBundle {
  format: number;
  manifest: unknown;
  nodes: EncodedNodes;
  edges: EncodedEdges;
  layer_violations: unknown;
  dangling: unknown;
  unresolved_ids?: unknown;
  search: unknown;
  chunk_search?: unknown; // chunk_search: issue #10
  chunks: EncodedChunks;
  vectors: unknown;
}

/** What is encoded: `outgoing` / `incoming` are derived from the edges at load, never stored. */
export type BundleContent = Omit<Bundle, 'outgoing' | 'incoming'>;

export interface EncodeOptions {
  /** Node i's body blob already encoded ({@link encodeNodeBody} of node i), to skip re-encoding it. */
  bodies?: readonly Uint8Array[];
  /** The edges already encoded ({@link encodeEdges} of the bundle's edges and nodes). */
  edges?: EncodedEdges;
  /** The chunks already encoded (./chunks.ts `ChunkColumns`); the bundle's `chunks` are then not read. */
  chunks?: EncodedChunks;
}

/** What {@link encodeBundle} writes: an {@link EncodedBundle} whose node bodies are still in pieces. */
type BundleToWrite = Omit<EncodedBundle, 'nodes'> & { nodes: NodesToWrite };

function toEncoded(bundle: BundleContent, options: EncodeOptions = {}): BundleToWrite {
  const nodes = bundle.nodes ?? [];
  const packr = newPackr();
  return {
    format: bundle.format,
    manifest: bundle.manifest ?? null,
    nodes: encodeNodes(nodes, packr, options.bodies),
    edges: options.edges ?? encodeEdges(bundle.edges ?? [], nodes),
    layer_violations: bundle.layer_violations ?? [],
    dangling: bundle.dangling ?? [],
    unresolved_ids: bundle.unresolved_ids ?? [],
    search: bundle.search ?? null,
    // Absent stays absent (older in-memory bundles), so decode(encode(b)) deep-equals b.
    ...(bundle.chunk_search !== undefined ? { chunk_search: bundle.chunk_search } : {}), // chunk_search: issue #10
    chunks: options.chunks ?? encodeChunks(bundle.chunks ?? [], nodes),
    vectors: bundle.vectors ?? null,
  };
}

export interface HydrateOptions {
  /** Decode every node body now instead of on first access (default: lazy). */
  lazy?: boolean;
}

export function fromEncoded(encoded: EncodedBundle, options: HydrateOptions = {}): Bundle {
  const lazy = options.lazy ?? true;
  const nodes = decodeNodes(encoded.nodes, lazy);
  const { edges, outgoing, incoming } = decodeEdges(encoded.edges, nodes);
  const chunks = decodeChunks(encoded.chunks, nodes);
  const bundle: Bundle = {
    format: encoded.format,
    manifest: encoded.manifest as Bundle['manifest'],
    nodes,
    edges,
    outgoing,
    incoming,
    layer_violations: encoded.layer_violations as Bundle['layer_violations'],
    dangling: encoded.dangling as Bundle['dangling'],
    // Bundles packed before it existed: no bare ids to resolve (a merge then keeps their edges only).
    unresolved_ids: (encoded.unresolved_ids ?? []) as Bundle['unresolved_ids'],
    search: encoded.search,
    ...('chunk_search' in encoded ? { chunk_search: encoded.chunk_search } : {}), // chunk_search: issue #10
    chunks: null as unknown as BundleChunk[],
    vectors: encoded.vectors as Bundle['vectors'],
  };
  defineLazy(bundle, 'chunks', chunks);
  if (!lazy) void bundle.chunks;
  return bundle;
}

/**
 * In-memory bundle → bytes (format 2). Expects the packer's canonical input (sorted keys and arrays).
 * The bytes are msgpack of the {@link EncodedBundle}, written into one buffer of their exact size,
 * from `allocate` when given (formats/bundle/write.ts).
 */
export function encodeBundle(bundle: BundleContent, options: EncodeOptions & { allocate?: (bytes: number) => Uint8Array } = {}): Uint8Array {
  // Depth 2: the bundle's map and its parts' maps (nodes, edges, search, chunks…), whose values
  // are the big binary columns.
  return writeMsgpack(toEncoded(bundle, options), newPackr(), 2, options.allocate ?? ((size) => new Uint8Array(size)));
}

/**
 * The bytes of {@link encodeBundle} as consecutive pieces, never joined (formats/bundle/write.ts):
 * the packer hashes and writes them as they are, so the bundle is not held a second time in one
 * buffer while everything it was made from is still alive.
 */
export function encodeBundleParts(bundle: BundleContent, options: EncodeOptions = {}): Uint8Array[] {
  return msgpackPieces(toEncoded(bundle, options), newPackr(), 2);
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
