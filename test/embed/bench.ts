/**
 * L2 building-block measurements (not a test): `npx tsx test/embed/bench.ts`.
 *  - embedding throughput of the REAL transformers.js path on the tiny model (chunks/s), on the
 *    kdd-engine corpus chunks;
 *  - cosineTopK latency over 10k × 384 int8 vectors (p50/p95), bytes per vector, recall@10.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compile } from '../../compiler/build.js';
import { chunkNode } from '../../compiler/embed/chunk.js';
import { loadTransformersEmbedder } from '../../compiler/embed/transformers.js';
import { BUNDLE_FORMAT_VERSION, encodeBundle, type Bundle } from '../../runtime/bundle-format.js';
import { cosineTopK, exactTopK, quantize, recallAtK, toVectorStore } from '../../runtime/vectors.js';
import { KDD_ENGINE_SPECS } from '../helpers/temp-tree.js';
import { makeTinyModel } from '../helpers/tiny-model/make-tiny-model.js';

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;

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
function unit(v: Float32Array): Float32Array {
  let s = 0;
  for (const x of v) s += x * x;
  return v.map((x) => x / Math.sqrt(s));
}

// ── 1. Embedding throughput (tiny model, real pipeline) ──────────────────────────────────────────
const store = await mkdtemp(join(tmpdir(), 'kdd-bench-models-'));
const folder = await makeTinyModel(store);
const { graph } = await compile({ specsDir: KDD_ENGINE_SPECS });
const corpus = graph.nodes.flatMap(chunkNode).map((chunk) => chunk.context_text);
const texts = Array.from({ length: 20 }, (_, round) => corpus.map((text) => `${text} ${round}`)).flat();
for (const batchSize of [8, 16, 32]) {
  const embedder = await loadTransformersEmbedder({ model: folder, dtype: 'fp32', batchSize });
  await embedder.embedDocuments(texts.slice(0, 32));
  const started = performance.now();
  await embedder.embedDocuments(texts);
  const seconds = (performance.now() - started) / 1000;
  console.log(`tiny model, batch ${batchSize}: ${texts.length} chunks (avg ${Math.round(texts.reduce((s, t) => s + t.length, 0) / texts.length)} chars) in ${seconds.toFixed(2)} s → ${Math.round(texts.length / seconds)} chunks/s`);
  await embedder.dispose?.();
}
await rm(store, { recursive: true, force: true });

// ── 2. cosineTopK over 10k × 384 int8 ────────────────────────────────────────────────────────────
const count = 10_000;
const dims = 384;
const next = gaussian(7);
const data = Array.from({ length: count }, () => unit(Float32Array.from({ length: dims }, next)));
let started = performance.now();
const quantized = quantize(data);
console.log(`quantize ${count} × ${dims}: ${(performance.now() - started).toFixed(0)} ms`);
const vectorStore = toVectorStore(quantized);
const bundleBytes = encodeBundle({ format: BUNDLE_FORMAT_VERSION, manifest: {}, nodes: [], edges: [], outgoing: [], incoming: [], layer_violations: [], dangling: [], search: null, vectors: quantized } as unknown as Bundle).length;
console.log(`bytes per vector: ${(quantized.data.length + quantized.scales.length) / count} raw, ${(bundleBytes / count).toFixed(2)} in msgpack (float32 would be ${dims * 4})`);
const randomQueries = Array.from({ length: 200 }, () => unit(Float32Array.from({ length: dims }, next)));
for (let i = 0; i < 20; i++) cosineTopK(randomQueries[i]!, vectorStore, 10);
const times: number[] = [];
for (const query of randomQueries) {
  started = performance.now();
  cosineTopK(query, vectorStore, 10);
  times.push(performance.now() - started);
}
console.log(`cosineTopK k=10 over ${count} × ${dims} int8: p50 ${percentile(times, 50).toFixed(2)} ms, p95 ${percentile(times, 95).toFixed(2)} ms`);
const filtered: number[] = [];
for (const query of randomQueries.slice(0, 100)) {
  started = performance.now();
  cosineTopK(query, vectorStore, 10, (index) => index % 3 === 0);
  filtered.push(performance.now() - started);
}
console.log(`  with a 1-in-3 filter: p50 ${percentile(filtered, 50).toFixed(2)} ms, p95 ${percentile(filtered, 95).toFixed(2)} ms`);

// ── 3. recall@10 int8 vs float32 ────────────────────────────────────────────────────────────────
const recall = (queries: Float32Array[]) => queries.reduce((sum, q) => sum + recallAtK(exactTopK(q, data, 10).map((r) => r.index), cosineTopK(q, vectorStore, 10).map((r) => r.index), 10), 0) / queries.length;
console.log(`recall@10 (random queries, isotropic data — worst case): ${recall(randomQueries.slice(0, 100)).toFixed(4)}`);
// Queries near a document (the realistic case: a query paraphrases some chunk).
const near = Array.from({ length: 100 }, (_, i) => unit(data[i * 97]!.map((x) => x + 0.05 * next())));
console.log(`recall@10 (queries near a document): ${recall(near).toFixed(4)}`);
