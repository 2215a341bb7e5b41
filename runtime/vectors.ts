/**
 * Quantized vectors for the bundle and brute-force cosine search over them (QRY-002, the semantic
 * half of QRY-003). Isomorphic: no `node:` imports, runs in the browser.
 *
 * Format ({@link QuantizedVectors}, msgpack-safe: only Uint8Array and numbers):
 *   - `data`: count × dims signed int8 values, row-major (`q = round(127 · v / max|v|)`);
 *   - `scales`: count float32 values, little-endian, with `scale = 1 / ‖q‖`, so `q · scale` is a
 *     unit vector and `cos(query, i) = (query/‖query‖) · q_i · scale_i` needs no further division.
 * 1 byte per dimension + 4 bytes per vector (388 bytes for 384-d vs 1,536 as float32).
 */
import type { QuantizedVectors } from '../formats/bundle/vectors.js';
import { BestK, type ScoredIndex } from './best-k.js';

/** Aligned, ready-to-scan form of {@link QuantizedVectors}. */
export interface VectorStore {
  dims: number;
  count: number;
  data: Int8Array;
  scales: Float32Array;
}

/** A row index in the store (= position in the array given to {@link quantize}) and its cosine in [-1, 1]. */
export type { ScoredIndex };

/**
 * Copies a decoded {@link QuantizedVectors} into aligned typed arrays. Always copies: msgpack
 * decoders return views whose byteOffset may not be 4-aligned, and the bundle buffer must not be
 * kept alive by a view into it.
 */
export function toVectorStore(packed: QuantizedVectors): VectorStore {
  const { dims, count } = packed;
  if (!Number.isInteger(dims) || !Number.isInteger(count) || dims < 0 || count < 0) throw new RangeError('invalid vector block header');
  if (packed.data.byteLength !== dims * count || packed.scales.byteLength !== count * 4) {
    throw new RangeError(`vector block sizes do not match ${count} × ${dims}`);
  }
  const data = new Int8Array(dims * count);
  data.set(new Int8Array(packed.data.buffer, packed.data.byteOffset, packed.data.byteLength));
  const scales = new Float32Array(count);
  const view = new DataView(packed.scales.buffer, packed.scales.byteOffset, packed.scales.byteLength);
  for (let row = 0; row < count; row++) scales[row] = view.getFloat32(row * 4, true);
  return { dims, count, data, scales };
}

/** Row `index` as a unit float vector (or zeros). */
export function dequantize(store: VectorStore, index: number): Float32Array {
  const out = new Float32Array(store.dims);
  const scale = store.scales[index]!;
  for (let d = 0; d < store.dims; d++) out[d] = store.data[index * store.dims + d]! * scale;
  return out;
}

/**
 * The `k` rows most similar to `query` by cosine, best first (ties: lower index first). `filter`
 * (row index → keep?) restricts the candidates (kind/layer filters). Brute force: O(count × dims).
 */
export function cosineTopK(query: Float32Array, store: VectorStore, k: number, filter?: (index: number) => boolean): ScoredIndex[] {
  const { dims, count, data, scales } = store;
  if (query.length !== dims) throw new RangeError(`query has ${query.length} dimensions, the store ${dims}`);
  const limit = Math.max(0, Math.min(Math.floor(k), count));
  if (limit === 0) return [];
  let norm = 0;
  for (let d = 0; d < dims; d++) norm += query[d]! * query[d]!;
  const unit = new Float32Array(dims);
  if (norm > 0) for (let d = 0; d < dims; d++) unit[d] = query[d]! / Math.sqrt(norm);
  const best = new BestK(limit);
  const tail = dims - (dims % 4);
  for (let row = 0; row < count; row++) {
    if (filter && !filter(row)) continue;
    const base = row * dims;
    let dot0 = 0;
    let dot1 = 0;
    let dot2 = 0;
    let dot3 = 0;
    let d = 0;
    for (; d < tail; d += 4) {
      dot0 += unit[d]! * data[base + d]!;
      dot1 += unit[d + 1]! * data[base + d + 1]!;
      dot2 += unit[d + 2]! * data[base + d + 2]!;
      dot3 += unit[d + 3]! * data[base + d + 3]!;
    }
    for (; d < dims; d++) dot0 += unit[d]! * data[base + d]!;
    const score = Math.max(-1, Math.min(1, (dot0 + dot1 + dot2 + dot3) * scales[row]!));
    best.offer(row, score);
  }
  return best.sorted();
}

/** Exact float cosine top-k over unquantized vectors (reference for {@link recallAtK}, small sets). */
export function exactTopK(query: Float32Array, vectors: readonly Float32Array[], k: number): ScoredIndex[] {
  let queryNorm = 0;
  for (let d = 0; d < query.length; d++) queryNorm += query[d]! * query[d]!;
  const scored = vectors.map((vector, index) => {
    let dot = 0;
    let norm = 0;
    for (let d = 0; d < vector.length; d++) {
      dot += query[d]! * vector[d]!;
      norm += vector[d]! * vector[d]!;
    }
    const denominator = Math.sqrt(queryNorm * norm);
    return { index, score: denominator > 0 ? Math.max(-1, Math.min(1, dot / denominator)) : 0 };
  });
  return scored.sort((a, b) => b.score - a.score || a.index - b.index).slice(0, Math.max(0, k));
}

/** |top-k(expected) ∩ top-k(actual)| / min(k, |expected|): 1 when the approximate list found them all. */
export function recallAtK(expected: readonly number[], actual: readonly number[], k: number): number {
  const truth = expected.slice(0, k);
  if (truth.length === 0) return 1;
  const found = new Set(actual.slice(0, k));
  return truth.filter((index) => found.has(index)).length / truth.length;
}
