/**
 * Load-and-query scenario: `loadIndex(bytes)` time and retained heap, then in-process latency of
 * the retrieval verbs over a few hundred varied queries drawn from the corpus itself (titles, ids,
 * runs of words from section text) plus fixed Spanish and English phrases.
 *
 * The runtime is imported lazily: a verb whose module is not there yet is reported as skipped
 * instead of failing the bench.
 */
import { mulberry32 } from '../generate.js';
import { collectGarbage, fixed, int, MB, median, percentile, repeat, withTarget, type Corpus, type Scenario, type ScenarioReport } from '../scenario.js';

const LOAD_RUNS = 5;
const QUERIES = 240;
const WARM_UP = 30;
const SEED = 7;
const TARGET_LOAD_10K_MS = 300;
const TARGET_CONTEXT_P95_10K_MS = 10;
const TARGET_IMPACT_P95_10K_MS = 5;

/** Phrases an agent would type, in both languages the corpus is written in. */
const PHRASES = [
  'cómo se indexa un documento',
  'validación de capas',
  'qué pasa si cambio una entidad',
  'búsqueda híbrida con grafo',
  'fusionar índices de varios desarrolladores',
  'detección del kind de un fichero',
  'eventos emitidos al indexar',
  'estrategia de embeddings por sección',
  'nivel de indexación L1 L2',
  'indexación incremental por hash',
  'conflicto al hacer merge',
  'requisitos de rendimiento',
  'privacidad de los datos',
  'reglas de negocio del documento',
  'análisis de impacto de un cambio',
  'how do I index a single document',
  'layer violation between domain and behavior',
  'impact of renaming an entity',
  'retrieve context for an agent',
  'offline first retrieval without network',
  'merge conflict resolution rules',
  'embedding model dimensions',
  'incremental index after git diff',
  'which scenarios must be rerun',
  'graph traversal depth',
  'semantic search over sections',
  'manifest stats and version',
  'query failed event payload',
  'coverage of use cases by tests',
  'portability across operating systems',
];

type Verb = (index: unknown, params: Record<string, unknown>) => unknown;

interface Runtime {
  loadIndex: (bytes: Uint8Array) => Promise<Index>;
  verbs: Map<string, Verb | null>;
}

interface Index {
  bundle: { nodes: { id: string; doc_id: string; title: string; sections: { text: string }[] }[]; edges: unknown[] };
}

/** What each row measures: verb module, how params come from a query string or a node id. */
const OPERATIONS = [
  { label: 'context', module: 'context', params: (q: Probe) => ({ query_text: q.text }), target: TARGET_CONTEXT_P95_10K_MS },
  { label: 'search', module: 'search', params: (q: Probe) => ({ query_text: q.text }), target: undefined },
  { label: 'impact d3', module: 'impact', params: (q: Probe) => ({ node_id: q.node, depth: 3 }), target: TARGET_IMPACT_P95_10K_MS },
  { label: 'graph d2', module: 'graph', params: (q: Probe) => ({ root_node: q.node, depth: 2 }), target: undefined },
] as const;

interface Probe {
  text: string;
  node: string;
}

const scenario: Scenario = {
  name: 'query',
  title: 'Load and query (in-process)',
  async run(corpora, context) {
    const runtime = await importRuntime();
    if (typeof runtime === 'string') return { skipped: runtime };
    const present = OPERATIONS.filter((op) => runtime.verbs.get(op.module));
    const missing = OPERATIONS.filter((op) => !runtime.verbs.get(op.module));
    const report: ScenarioReport = {
      columns: ['docs', 'nodes', 'edges', 'bundle MB', 'load ms', 'heap after load MB (index)', ...present.map((op) => `${op.label} p50 / p95 ms`)],
      rows: [],
      notes: [
        `Load: median of ${LOAD_RUNS} \`loadIndex(bytes)\` (SHA-256 tag + msgpack decode + text-index restore). Heap: \`heapUsed\` after a forced GC with the index live (in brackets: growth over the heap before loading).`,
        `Latency: ${QUERIES} queries per verb after ${WARM_UP} warm-up calls, one at a time, in-process; query texts are titles, ids, 2–4-word runs from section text and ${PHRASES.length} fixed Spanish/English phrases (seeded); impact/graph roots are seeded random nodes.`,
      ],
    };
    for (const op of missing) report.notes.push(`Skipped \`${op.label}\`: runtime/queries/${op.module}.ts does not export \`${op.module}\` yet.`);
    for (const corpus of corpora) report.rows.push(await measure(corpus, runtime, present, report.notes, context));
    return report;
  },
};
export default scenario;

async function measure(
  corpus: Corpus,
  runtime: Runtime,
  operations: readonly (typeof OPERATIONS)[number][],
  notes: string[],
  context: Parameters<Scenario['run']>[1],
): Promise<string[]> {
  const bytes = await context.bundle(corpus);
  context.log(`query: ${corpus.documents} docs — load`);
  const gc = await collectGarbage();
  const before = process.memoryUsage().heapUsed;
  let index: Index | null = null;
  const loads = await repeat({ runs: LOAD_RUNS, budgetMs: 60_000 }, async () => {
    index = null;
    index = await runtime.loadIndex(bytes);
  });
  await collectGarbage();
  const heap = process.memoryUsage().heapUsed;
  const noGc = 'Heap figures were taken without a forced GC (gc unavailable): read them as upper bounds.';
  if (!gc && !notes.includes(noGc)) notes.push(noGc);
  const loaded = index as unknown as Index;
  const loadMs = median(loads.times);

  const probes = makeProbes(loaded);
  const cells: string[] = [];
  for (const op of operations) {
    context.log(`query: ${corpus.documents} docs — ${op.label}`);
    const verb = runtime.verbs.get(op.module)!;
    for (const probe of probes.slice(0, WARM_UP)) safeCall(verb, loaded, op.params(probe));
    const times: number[] = [];
    let failures = 0;
    for (const probe of probes) {
      const params = op.params(probe);
      const started = performance.now();
      const ok = safeCall(verb, loaded, params);
      times.push(performance.now() - started);
      if (!ok) failures++;
    }
    if (failures) notes.push(`${corpus.documents} docs: \`${op.label}\` threw on ${failures} of ${probes.length} queries (timed anyway).`);
    const p50 = percentile(times, 50);
    const p95 = percentile(times, 95);
    const text = `${fixed(p50, 2)} / ${fixed(p95, 2)}`;
    cells.push(op.target !== undefined && corpus.documents >= 10_000 ? withTarget(text, p95, { max: op.target, label: `p95 ≤ ${op.target}` }) : text);
  }
  context.log(`query: ${corpus.documents} docs — load ${fixed(loadMs, 1)} ms`);
  return [
    int(corpus.documents),
    int(loaded.bundle.nodes.length),
    int(loaded.bundle.edges.length),
    fixed(bytes.byteLength / MB, 2),
    corpus.documents >= 10_000 ? withTarget(fixed(loadMs, 1), loadMs, { max: TARGET_LOAD_10K_MS, label: `≤ ${TARGET_LOAD_10K_MS}` }) : fixed(loadMs, 1),
    `${fixed(heap / MB, 1)} (+${fixed((heap - before) / MB, 1)})`,
    ...cells,
  ];
}

function safeCall(verb: Verb, index: Index, params: Record<string, unknown>): boolean {
  try {
    verb(index, params);
    return true;
  } catch {
    return false;
  }
}

/** Seeded, so every run and every size draws the same kinds of queries. */
function makeProbes(index: Index): Probe[] {
  const random = mulberry32(SEED);
  const nodes = index.bundle.nodes;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const texts: string[] = [...PHRASES];
  while (texts.length < QUERIES) {
    const node = pick(nodes);
    const roll = random();
    if (roll < 0.3) texts.push(node.title);
    else if (roll < 0.5) texts.push(node.doc_id);
    else texts.push(wordsFrom(node, random) ?? node.title);
  }
  const order = texts.map((text) => ({ text, key: random() })).sort((a, b) => a.key - b.key);
  return order.map(({ text }) => ({ text: text.length >= 3 ? text : `${text} spec`, node: pick(nodes).id }));
}

/** 2–4 consecutive words (4+ letters) from one section of the node. */
function wordsFrom(node: Index['bundle']['nodes'][number], random: () => number): string | null {
  const sections = node.sections.filter((section) => section.text.length > 40);
  if (sections.length === 0) return null;
  const words = sections[Math.floor(random() * sections.length)]!.text.split(/[^\p{L}\p{N}_-]+/u).filter((word) => word.length >= 4);
  if (words.length < 2) return null;
  const length = 2 + Math.floor(random() * 3);
  const start = Math.floor(random() * Math.max(1, words.length - length));
  return words.slice(start, start + length).join(' ');
}

/** The runtime's entry points, or why they cannot be used (a message). */
async function importRuntime(): Promise<Runtime | string> {
  let load: Record<string, unknown>;
  try {
    load = await import('../../runtime/load.js');
  } catch (error) {
    return `runtime/load.ts cannot be imported (${(error as Error).message.split('\n')[0]})`;
  }
  if (typeof load.loadIndex !== 'function') return 'runtime/load.ts does not export loadIndex yet';
  const verbs = new Map<string, Verb | null>();
  for (const op of OPERATIONS) {
    // A variable specifier: TypeScript must not require modules that are still being written.
    const specifier = `../../runtime/queries/${op.module}.js`;
    const module = (await import(specifier).catch((error: Error) => {
      process.stderr.write(`[bench] runtime/queries/${op.module}.ts: ${error.message.split('\n')[0]}\n`);
      return null;
    })) as Record<string, unknown> | null;
    const verb = module?.[op.module];
    verbs.set(op.module, typeof verb === 'function' ? (verb as Verb) : null);
  }
  return { loadIndex: load.loadIndex as unknown as Runtime['loadIndex'], verbs };
}
