/**
 * The bundle's int8 vector encoding (msgpack-safe: only Uint8Array and numbers):
 *   - `data`: count × dims signed int8 values, row-major (`q = round(127 · v / max|v|)`);
 *   - `scales`: count float32 values, little-endian, with `scale = 1 / ‖q‖`, so `q · scale` is a
 *     unit vector. runtime/vectors.ts searches them.
 */
export interface QuantizedVectors {
  dims: number;
  count: number;
  /** Int8 values as bytes (two's complement), count × dims. */
  data: Uint8Array;
  /** Float32 little-endian per-vector scales, count × 4 bytes. */
  scales: Uint8Array;
}

/** Quantizes vectors (any norm; they are compared by direction). An all-zero vector gets scale 0. */
export function quantize(vectors: readonly Float32Array[], dims = vectors[0]?.length ?? 0): QuantizedVectors {
  const count = vectors.length;
  const data = new Int8Array(count * dims);
  const scales = new Uint8Array(count * 4);
  const scaleView = new DataView(scales.buffer);
  vectors.forEach((vector, row) => {
    if (vector.length !== dims) throw new RangeError(`vector ${row} has ${vector.length} dimensions, expected ${dims}`);
    let max = 0;
    for (let d = 0; d < dims; d++) max = Math.max(max, Math.abs(vector[d]!));
    let squares = 0;
    if (max > 0 && Number.isFinite(max)) {
      const factor = 127 / max;
      for (let d = 0; d < dims; d++) {
        const q = Math.max(-127, Math.min(127, Math.round(vector[d]! * factor)));
        data[row * dims + d] = q;
        squares += q * q;
      }
    }
    scaleView.setFloat32(row * 4, squares > 0 ? 1 / Math.sqrt(squares) : 0, true);
  });
  return { dims, count, data: new Uint8Array(data.buffer), scales };
}
