/**
 * The semantic half of retrieval (QRY-002, QRY-003, issue #10 chunks at L2): cosine over the
 * bundle's int8 chunk vectors, with a query vector computed OUTSIDE the runtime (the library
 * facade embeds `query_text` with the bundle's model). The runtime never loads a model, so every
 * query stays pure, synchronous and isomorphic; without a vector it falls back to lexical.
 */
import { createError } from '../../model/errors.js';
import type { KddIndex } from '../kdd-index.js';
import { paramsObject, type RawParams } from '../validate.js';
import { cosineTopK } from '../vectors.js';

/** A chunk row scored by cosine. */
export interface ScoredChunk {
  /** Position in `bundle.chunks`. */
  chunk: number;
  /** Node position in `bundle.nodes`. */
  node: number;
  /** Cosine in [-1, 1]. */
  cosine: number;
}

/**
 * Reads the optional `query_vector` param: a Float32Array (or a plain array of finite numbers, as
 * JSON bodies carry it). Returns null when absent or when the index has no vectors (the caller then
 * answers lexically with NO_EMBEDDINGS). A vector of the wrong length is INVALID_PARAMS.
 */
export function queryVectorParam(index: KddIndex, params: RawParams): Float32Array | null {
  const raw = paramsObject(params).query_vector;
  if (raw === undefined || raw === null) return null;
  let vector: Float32Array;
  if (raw instanceof Float32Array) vector = raw;
  else if (Array.isArray(raw) && raw.every((value) => typeof value === 'number' && Number.isFinite(value))) vector = Float32Array.from(raw as number[]);
  else throw invalid('must be a Float32Array or an array of finite numbers');
  if (!index.vectors) return null;
  if (vector.length !== index.vectors.dims) throw invalid(`has ${vector.length} dimensions, the index's vectors have ${index.vectors.dims}`);
  if (vector.some((value) => !Number.isFinite(value))) throw invalid('must hold finite numbers only');
  return vector;
}

function invalid(reason: string) {
  return createError('INVALID_PARAMS', { field: 'query_vector', reason });
}

/** Vector row → chunk position (`bundle.vectors.rows`). */
function rowsOf(index: KddIndex): readonly number[] {
  return index.bundle.vectors?.rows ?? [];
}

/** The `k` best chunk rows by cosine (best first, ties by chunk order); `keepNode` filters by node. */
export function topChunks(index: KddIndex, vector: Float32Array, k: number, keepNode?: (node: number) => boolean): ScoredChunk[] {
  const store = index.vectors;
  if (!store) return [];
  const rows = rowsOf(index);
  const chunks = index.bundle.chunks;
  const filter = keepNode ? (row: number) => keepNode(chunks[rows[row]!]!.node) : undefined;
  return cosineTopK(vector, store, k, filter).map(({ index: row, score }) => {
    const chunk = rows[row]!;
    return { chunk, node: chunks[chunk]!.node, cosine: score };
  });
}

/**
 * The best chunk of each of the `nodes` most similar nodes (node score = its best chunk's cosine),
 * best first. Widens the scan until enough distinct nodes are found or every row was scored.
 */
export function topNodes(index: KddIndex, vector: Float32Array, nodes: number, keepNode?: (node: number) => boolean): ScoredChunk[] {
  const count = index.vectors?.count ?? 0;
  if (count === 0 || nodes <= 0) return [];
  for (let k = Math.min(count, nodes * 4); ; k = Math.min(count, k * 4)) {
    const best = new Map<number, ScoredChunk>();
    for (const hit of topChunks(index, vector, k, keepNode)) if (!best.has(hit.node)) best.set(hit.node, hit);
    if (best.size >= nodes || k >= count) return [...best.values()].slice(0, nodes);
  }
}
