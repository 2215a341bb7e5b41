import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBundle, encodeBundle } from '../../formats/bundle/bundle.js';
import { BUNDLE_FORMAT_VERSION, type Bundle } from '../../formats/bundle/types.js';
import { cosineTopK, dequantize, exactTopK, recallAtK, toVectorStore } from '../../runtime/vectors.js';
import { quantize, type QuantizedVectors } from '../../formats/bundle/vectors.js';

/** Seeded normal(0,1) generator (mulberry32 + Box-Muller). */
function gaussian(seed: number): () => number {
  let state = seed >>> 0;
  const uniform = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 1) / 4294967297;
  };
  return () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
}

function unitVectors(count: number, dims: number, seed: number): Float32Array[] {
  const next = gaussian(seed);
  return Array.from({ length: count }, () => {
    const v = Float32Array.from({ length: dims }, next);
    let squares = 0;
    for (const x of v) squares += x * x;
    const n = Math.sqrt(squares);
    return v.map((x) => x / n);
  });
}

describe('int8 vectors', () => {
  it('recall@10 of quantized vs float32 search is ≥ 0.98 on random 384-d data', () => {
    const data = unitVectors(3000, 384, 1);
    const queries = unitVectors(60, 384, 2);
    const store = toVectorStore(quantize(data));
    const recalls = queries.map((query) => recallAtK(exactTopK(query, data, 10).map((r) => r.index), cosineTopK(query, store, 10).map((r) => r.index), 10));
    const mean = recalls.reduce((a, b) => a + b, 0) / recalls.length;
    expect(mean).toBeGreaterThanOrEqual(0.98);
    console.info(`recall@10 int8 vs float32 (3000 × 384, 60 queries): ${mean.toFixed(4)}`);
  });

  it('scores approximate the float cosine closely, and a vector finds itself first', () => {
    const data = unitVectors(200, 64, 3);
    const store = toVectorStore(quantize(data));
    for (const index of [0, 17, 199]) {
      const [top] = cosineTopK(data[index]!, store, 1);
      expect(top!.index).toBe(index);
      expect(top!.score).toBeGreaterThan(0.999);
    }
    const exact = exactTopK(data[5]!, data, 20);
    const approx = new Map(cosineTopK(data[5]!, store, 200).map((r) => [r.index, r.score]));
    for (const { index, score } of exact) expect(Math.abs(approx.get(index)! - score)).toBeLessThan(0.01);
  });

  it('packs as Uint8Array views: 1 byte per dimension + 4 per vector, msgpack round trip byte-stable', () => {
    const data = unitVectors(50, 384, 4);
    const quantized = quantize(data);
    expect(quantized.data.byteLength + quantized.scales.byteLength).toBe(50 * (384 + 4));
    const bundle = { format: BUNDLE_FORMAT_VERSION, manifest: {}, nodes: [], edges: [], outgoing: [], incoming: [], layer_violations: [], dangling: [], search: null, vectors: quantized } as unknown as Bundle;
    const bytes = encodeBundle(bundle);
    expect(Buffer.from(encodeBundle(bundle)).equals(Buffer.from(bytes))).toBe(true);
    const decoded = (decodeBundle(bytes) as unknown as { vectors: QuantizedVectors }).vectors;
    expect(Buffer.from(encodeBundle({ ...bundle, vectors: decoded } as unknown as Bundle)).equals(Buffer.from(bytes))).toBe(true);
    // Decoded views may sit at any byteOffset: the store copies into aligned arrays.
    const restored = toVectorStore(decoded);
    const original = toVectorStore(quantized);
    expect(Array.from(restored.data)).toEqual(Array.from(original.data));
    expect(Array.from(restored.scales)).toEqual(Array.from(original.scales));
    expect(cosineTopK(data[9]!, restored, 5)).toEqual(cosineTopK(data[9]!, original, 5));
  });

  it('handles zero vectors, empty stores, k = 0 and rejects mismatched sizes', () => {
    const store = toVectorStore(quantize([new Float32Array(4), Float32Array.of(1, 0, 0, 0)]));
    expect(Array.from(dequantize(store, 0))).toEqual([0, 0, 0, 0]);
    const results = cosineTopK(Float32Array.of(1, 0, 0, 0), store, 5);
    expect(results.map((r) => r.index)).toEqual([1, 0]);
    expect(results[0]!.score).toBeCloseTo(1, 6);
    expect(results[1]!.score).toBe(0);
    expect(cosineTopK(new Float32Array(4), store, 2).map((r) => r.score)).toEqual([0, 0]);
    expect(cosineTopK(Float32Array.of(1, 0, 0, 0), store, 0)).toEqual([]);
    expect(cosineTopK(new Float32Array(3), toVectorStore(quantize([], 3)), 3)).toEqual([]);
    expect(() => cosineTopK(new Float32Array(3), store, 1)).toThrow(RangeError);
    expect(() => toVectorStore({ dims: 4, count: 2, data: new Uint8Array(7), scales: new Uint8Array(8) })).toThrow(RangeError);
  });

  it('recallAtK counts the expected top-k found', () => {
    expect(recallAtK([1, 2, 3, 4], [4, 3, 9, 1], 4)).toBe(0.75);
    expect(recallAtK([], [1], 10)).toBe(1);
  });
});

describe('cosineTopK properties', () => {
  const vector = (dims: number) => fc.array(fc.float({ min: -1, max: 1, noNaN: true, noDefaultInfinity: true }), { minLength: dims, maxLength: dims }).map((values) => Float32Array.from(values));
  const scenario = fc.integer({ min: 1, max: 24 }).chain((dims) =>
    fc.record({
      data: fc.array(vector(dims), { minLength: 0, maxLength: 60 }),
      query: vector(dims),
      k: fc.integer({ min: 0, max: 70 }),
      keep: fc.integer({ min: 1, max: 4 }),
      dims: fc.constant(dims),
    }),
  );

  it('returns min(k, candidates) results sorted by score desc (ties by index), scores in [-1, 1], filter respected', () => {
    fc.assert(
      fc.property(scenario, ({ data, query, k, keep, dims }) => {
        const store = toVectorStore(quantize(data, dims));
        const filter = (index: number) => index % keep === 0;
        const results = cosineTopK(query, store, k, filter);
        const candidates = data.map((_, i) => i).filter(filter);
        expect(results).toHaveLength(Math.min(k, candidates.length));
        for (const [i, r] of results.entries()) {
          expect(r.score).toBeGreaterThanOrEqual(-1);
          expect(r.score).toBeLessThanOrEqual(1);
          expect(filter(r.index)).toBe(true);
          if (i > 0) {
            const previous = results[i - 1]!;
            expect(previous.score > r.score || (previous.score === r.score && previous.index < r.index)).toBe(true);
          }
        }
        // Same answer as scoring every candidate and sorting.
        const all = cosineTopK(query, store, data.length).filter((r) => filter(r.index)).slice(0, k);
        expect(results).toEqual(all);
      }),
      { numRuns: 200 },
    );
  });
});
