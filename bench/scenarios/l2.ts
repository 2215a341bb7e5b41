/**
 * Level L2 (#4): what 384-d vectors cost in the bundle, at load and in `context`, plus embedding
 * throughput of the real transformers.js pipeline (the offline fixture model) and the recall lost
 * to int8 quantization.
 *
 * No real multilingual model can be downloaded here, so the storage and query figures use a
 * deterministic stand-in embedder of the recommended model's shape (384-d, unit vectors, hashed
 * word projections): it measures bytes and milliseconds, not retrieval quality.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Embedder } from '../../compiler/embed/embedder.js';
import { mulberry32 } from '../generate.js';
import { fixed, int, median, percentile, withTarget, type Scenario, type ScenarioReport } from '../scenario.js';

const DIMENSIONS = 384;
const QUERIES = 200;
const LOAD_RUNS = 5;
const TARGET_CONTEXT_P95_10K_MS = 25;
const TARGET_RECALL = 0.98;
const PHRASES = ['cancelar pedido', 'merge conflict resolution', 'índice incremental', 'layer violations', 'embedding model', 'reglas de negocio', 'impact of a change', 'búsqueda híbrida'];

/** Hashed random projection: the same text always gives the same unit vector. */
function standInEmbedder(): Embedder {
  const wordVector = new Map<string, Float32Array>();
  const vectorOf = (word: string) => {
    let vector = wordVector.get(word);
    if (!vector) {
      let seed = 2166136261;
      for (let i = 0; i < word.length; i++) seed = Math.imul(seed ^ word.charCodeAt(i), 16777619);
      const random = mulberry32(seed >>> 0);
      vector = Float32Array.from({ length: DIMENSIONS }, () => random() * 2 - 1);
      wordVector.set(word, vector);
    }
    return vector;
  };
  const embed = (text: string) => {
    const sum = new Float32Array(DIMENSIONS);
    for (const word of text.toLowerCase().match(/\p{L}+/gu) ?? []) {
      const vector = vectorOf(word);
      for (let d = 0; d < DIMENSIONS; d++) sum[d]! += vector[d]!;
    }
    const norm = Math.hypot(...sum) || 1;
    return sum.map((value) => value / norm);
  };
  return {
    id: 'bench/stand-in-384@fp32',
    dimensions: DIMENSIONS,
    embedDocuments: async (texts) => texts.map(embed),
    embedQuery: async (text) => embed(text),
  };
}

async function vectorFigures(corpora: Parameters<Scenario['run']>[0], context: Parameters<Scenario['run']>[1], report: ScenarioReport) {
  const { build } = await import('../../compiler/pipeline.js');
  const { loadIndex } = await import('../../runtime/load.js');
  const { context: contextQuery } = await import('../../runtime/queries/context.js');
  const embedder = standInEmbedder();
  for (const corpus of corpora) {
    const dir = await mkdtemp(join(tmpdir(), 'kdd-bench-l2-'));
    try {
      context.log(`l2: ${corpus.documents} docs — building at L2 with the stand-in embedder`);
      const started = performance.now();
      const built = await build({ specsDir: corpus.specsDir, outDir: join(dir, 'dist'), indexDir: join(dir, 'idx'), level: 'L2', embedderInstance: embedder });
      const buildMs = performance.now() - started;
      const l2 = new Uint8Array(await readFile(join(dir, 'dist', built.bundle.bundle)));
      const l1 = await context.bundle(corpus);
      const loads: number[] = [];
      let index = await loadIndex(l2);
      for (let run = 0; run < LOAD_RUNS; run++) {
        const t = performance.now();
        index = await loadIndex(l2);
        loads.push(performance.now() - t);
      }
      const random = mulberry32(17);
      const titles = index.bundle.nodes.map((node) => node.title);
      const queries = Array.from({ length: QUERIES }, (_, i) => (i % 3 === 0 ? PHRASES[i % PHRASES.length]! : titles[Math.floor(random() * titles.length)]!));
      const vectors = await Promise.all(queries.map((text) => embedder.embedQuery(text)));
      for (let i = 0; i < 20; i++) contextQuery(index, { query_text: queries[i]!, query_vector: vectors[i]! });
      const times: number[] = [];
      queries.forEach((text, i) => {
        const t = performance.now();
        contextQuery(index, { query_text: text, query_vector: vectors[i]! });
        times.push(performance.now() - t);
      });
      const rows = index.bundle.vectors?.rows.length ?? 0;
      const p95 = percentile(times, 95);
      report.rows.push([
        int(corpus.documents),
        int(rows),
        fixed((l2.byteLength - l1.byteLength) / corpus.documents / 1024, 2),
        fixed(l2.byteLength / 1024 / 1024, 1),
        fixed(median(loads), 0),
        `${fixed(percentile(times, 50), 2)} / ${corpus.documents >= 10_000 ? withTarget(fixed(p95, 2), p95, { max: TARGET_CONTEXT_P95_10K_MS, label: `≤ ${TARGET_CONTEXT_P95_10K_MS}` }) : fixed(p95, 2)}`,
        fixed(buildMs / 1000, 1),
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}

/** The real transformers.js pipeline on the fixture model written by the tests' generator. */
async function fixtureThroughput(context: Parameters<Scenario['run']>[1]): Promise<string> {
  const { makeTinyModel } = await import('../../test/helpers/tiny-model/make-tiny-model.js');
  const { loadTransformersEmbedder } = await import('../../compiler/embed/transformers.js').catch(() => ({ loadTransformersEmbedder: null }));
  if (!loadTransformersEmbedder) return 'Fixture-model throughput skipped: @huggingface/transformers is not installed (optional dependency).';
  const dir = await mkdtemp(join(tmpdir(), 'kdd-bench-tiny-'));
  try {
    const folder = await makeTinyModel(join(dir, 'models', 'tiny'));
    const embedder = await loadTransformersEmbedder({ model: folder, dtype: 'fp32' });
    const texts = Array.from({ length: 2000 }, (_, i) => `[use-case: UC-${i}] > [Flujo Principal] el pedido se confirma y la regla de fusión del índice se aplica ${i}`);
    await embedder.embedDocuments(texts.slice(0, 64));
    context.log('l2: fixture-model throughput');
    const started = performance.now();
    await embedder.embedDocuments(texts);
    const seconds = (performance.now() - started) / 1000;
    await embedder.dispose?.();
    return `Fixture model (real transformers.js pipeline, ${embedder.dimensions}-d, ~110-character chunks): ${int(texts.length / seconds)} chunks/s.`;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** recall@10 of int8 vectors against float32 on random unit vectors (the worst case for int8). */
async function quantizationRecall(): Promise<string> {
  const { cosineTopK, exactTopK, recallAtK, toVectorStore } = await import('../../runtime/vectors.js');
  const { quantize } = await import('../../formats/bundle/vectors.js');
  const random = mulberry32(23);
  const unit = () => {
    const v = Float32Array.from({ length: DIMENSIONS }, () => random() * 2 - 1);
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  };
  const vectors = Array.from({ length: 10_000 }, unit);
  const store = toVectorStore(quantize(vectors));
  const recalls: number[] = [];
  for (let q = 0; q < 50; q++) {
    const query = unit();
    recalls.push(recallAtK(exactTopK(query, vectors, 10).map((hit) => hit.index), cosineTopK(query, store, 10).map((hit) => hit.index), 10));
  }
  const mean = recalls.reduce((a, b) => a + b, 0) / recalls.length;
  return `Quantization: int8 + per-vector scale = ${DIMENSIONS + 4} bytes per ${DIMENSIONS}-d vector (float32: ${DIMENSIONS * 4}); recall@10 against float32 on 10k random unit vectors, 50 queries: ${withTarget(fixed(mean, 3), mean, { min: TARGET_RECALL, label: `≥ ${TARGET_RECALL}` })}.`;
}

const scenario: Scenario = {
  name: 'l2',
  title: 'Level L2: vectors in the bundle, load and hybrid context with query vectors',
  async run(corpora, context) {
    const report: ScenarioReport = {
      columns: ['docs', 'vectors', 'extra KB per doc (L2 − L1)', 'bundle MB', 'load ms (median)', 'context p50 / p95 ms', 'L2 build s'],
      rows: [],
      notes: [
        'Stand-in embedder of the recommended model\'s shape (384-d unit vectors from hashed word projections): storage, load and query cost, not retrieval quality. Query vectors are computed before timing (the library embeds once per query with the local model).',
        `${QUERIES} context calls per row after 20 warm-up calls; load = median of ${LOAD_RUNS} \`loadIndex\` calls.`,
      ],
    };
    await vectorFigures(corpora, context, report);
    report.notes.push(await fixtureThroughput(context), await quantizationRecall());
    return report;
  },
};

export default scenario;
