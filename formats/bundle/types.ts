/**
 * The bundle's in-memory shape (what every query reads), its format number, and the pointer file
 * `kdd.json` that names the current bundle. ./bundle.ts converts the shape to bytes and back.
 */
import type { DanglingLink, GraphEdge, GraphNode, IndexManifest, LayerViolation } from '../../model/graph.js';
import type { QuantizedVectors } from './vectors.js';

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
  /** Bare ids (Gherkin) that resolve to no node, like `dangling`; only merges read them. Empty in older bundles. */
  unresolved_ids: DanglingLink[];
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
  /** What the artifacts weigh against the specs (`kdd build`; absent after a merge or in older pointers). */
  sizes?: ArtifactSizes;
}

/** Bytes of the specs indexed, of the committed `.kdd-index/` (its `.cache/` excluded) and of the bundle; ratios to the specs, 3 decimals. */
export interface ArtifactSizes {
  spec_bytes: number;
  index_bytes: number;
  index_ratio: number;
  bundle_bytes: number;
  bundle_ratio: number;
}
