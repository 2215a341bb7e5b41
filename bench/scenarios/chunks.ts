/**
 * Chunk retrieval (issue #10) at L1: `chunks(index, { query_text }, { now })` + `JSON.stringify` of
 * the answer (what `kdd serve` / `kdd chunks --json` send), p50 / p95 over a few hundred seeded
 * queries drawn from the corpus (titles, ids, runs of section words) and fixed es/en phrases.
 * Target: p95 ≤ 10 ms at 10k documents.
 */
import { mulberry32 } from '../generate.js';
import { fixed, int, percentile, withTarget, type Scenario, type ScenarioReport } from '../scenario.js';

const QUERIES = 240;
const WARM_UP = 30;
const SEED = 11;
const TARGET_P95_10K_MS = 10;
const PHRASES = [
  'cancelar pedido',
  'cómo se indexa un documento',
  'validación de capas',
  'fusionar índices de varios desarrolladores',
  'eventos emitidos al indexar',
  'reglas de negocio del documento',
  'how do I index a single document',
  'merge conflict resolution rules',
  'embedding model dimensions',
  'semantic search over sections',
];

interface Node {
  id: string;
  doc_id: string;
  title: string;
  sections: { text: string }[];
}

const scenario: Scenario = {
  name: 'chunks',
  title: 'Chunk retrieval (issue #10, L1 lexical, in-process, JSON included)',
  async run(corpora, context) {
    const { loadIndex } = await import('../../runtime/load.js');
    const { chunks } = await import('../../runtime/queries/chunks.js');
    const report: ScenarioReport = {
      columns: ['docs', 'nodes', 'chunks', 'top_k', 'p50 / p95 ms'],
      rows: [],
      notes: [
        `${QUERIES} queries per row after ${WARM_UP} warm-up calls, one at a time, in-process; each timing covers \`chunks()\` and \`JSON.stringify\` of its answer. Queries: titles, ids, 2–4-word runs of section text and ${PHRASES.length} fixed phrases (seeded).`,
        'Lexical scoring through the pack-time chunk term index (`bundle.chunk_search`, runtime/search/chunk-index.ts): every chunk holding a query concept is scored; no tokenising at query time.',
      ],
    };
    for (const corpus of corpora) {
      const index = await loadIndex(await context.bundle(corpus));
      const probes = makeProbes(index.bundle.nodes as Node[]);
      for (const topK of [5, 20]) {
        context.log(`chunks: ${corpus.documents} docs — top_k ${topK}`);
        const call = (text: string) => JSON.stringify(chunks(index, { query_text: text, top_k: topK }, { now: 0 }));
        for (const text of probes.slice(0, WARM_UP)) call(text);
        const times: number[] = [];
        for (const text of probes) {
          const started = performance.now();
          call(text);
          times.push(performance.now() - started);
        }
        const p95 = percentile(times, 95);
        const cell = `${fixed(percentile(times, 50), 2)} / ${fixed(p95, 2)}`;
        report.rows.push([
          int(corpus.documents),
          int(index.bundle.nodes.length),
          int(index.bundle.chunks.length),
          String(topK),
          corpus.documents >= 10_000 ? withTarget(cell, p95, { max: TARGET_P95_10K_MS, label: `p95 ≤ ${TARGET_P95_10K_MS}` }) : cell,
        ]);
      }
    }
    return report;
  },
};
export default scenario;

function makeProbes(nodes: readonly Node[]): string[] {
  const random = mulberry32(SEED);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const texts = [...PHRASES];
  while (texts.length < QUERIES) {
    const node = pick(nodes);
    const roll = random();
    if (roll < 0.25) texts.push(node.title);
    else if (roll < 0.4) texts.push(node.doc_id);
    else {
      const sections = node.sections.filter((section) => section.text.length > 40);
      const words = sections.length ? pick(sections).text.split(/[^\p{L}\p{N}_-]+/u).filter((word) => word.length >= 4) : [];
      const length = 2 + Math.floor(random() * 3);
      const start = Math.floor(random() * Math.max(1, words.length - length));
      texts.push(words.slice(start, start + length).join(' ') || node.title);
    }
  }
  return texts.map((text) => ({ text, key: random() })).sort((a, b) => a.key - b.key).map(({ text }) => text);
}
