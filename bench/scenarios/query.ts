/**
 * Load-and-query scenario: `loadIndex(bytes)` time and retained heap, then in-process latency of
 * the retrieval verbs over a few hundred varied queries drawn from the corpus itself (titles, ids,
 * runs of words from section text) plus fixed Spanish and English phrases.
 *
 * The runtime is imported lazily: a verb whose module is not there yet is reported as skipped
 * instead of failing the bench.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mulberry32 } from '../generate.js';
import { collectGarbage, fixed, int, MB, median, percentile, repeat, withTarget, type Corpus, type Scenario, type ScenarioReport } from '../scenario.js';

const LOAD_RUNS = 5;
const QUERIES = 240;
const WARM_UP = 30;
const SEED = 7;
const TARGET_LOAD_10K_MS = 300;
const TARGET_CONTEXT_P95_10K_MS = 10;
const TARGET_CONTEXT_P95_54K_MS = 15;
const TARGET_IMPACT_P95_10K_MS = 5;

/** The target a row of `documents` is held to: the 10k one from 10,000 documents, the 54k one from 54,000. */
function targetAt(documents: number, at10k: number | undefined, at54k?: number): number | undefined {
  if (documents >= 54_000 && at54k !== undefined) return at54k;
  return documents >= 10_000 ? at10k : undefined;
}

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
  /** The library's loader: a bundle file on disk → index (read + decode + restore). */
  loadBundle: ((path: string) => Promise<Index>) | null;
  verbs: Map<string, Verb | null>;
}

interface Index {
  bundle: { nodes: { id: string; doc_id: string; title: string; sections: { text: string }[] }[]; edges: unknown[] };
}

/** What each row measures: verb module, how params come from a query string or a node id. */
const OPERATIONS = [
  { label: 'context', module: 'context', params: (q: Probe) => ({ query_text: q.text }), target: TARGET_CONTEXT_P95_10K_MS, target54k: TARGET_CONTEXT_P95_54K_MS },
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
      columns: ['docs', 'nodes', 'edges', 'bundle MB', 'load from file ms', 'loadIndex(bytes) ms', 'heap after load MB (index)', ...present.map((op) => `${op.label} p50 / p95 ms`), ...(runtime.verbs.get('context') ? ['context pruned / exhaustive, interleaved: p50 · p95 ms'] : [])],
      rows: [],
      notes: [
        `Load from file: median of ${LOAD_RUNS} \`loadBundle(path)\` (library/load-bundle.ts) of the bundle written to a temp file — read + SHA-256 tag + msgpack decode + text-index restore, what a library user waits for. \`loadIndex(bytes)\`: the same without the read. Heap: \`heapUsed\` after a forced GC with the index live (in brackets: growth over the heap before loading).`,
        'Pruned / exhaustive: `context` on the same queries with the text search\'s top-k pruning on and off (`searchTerms({ exhaustive: true })`, same answers), the two runs of each query back to back so that both see the same machine load.',
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
  const fileLoadMs = runtime.loadBundle ? await loadFromFile(bytes, runtime.loadBundle) : null;

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
    const target = targetAt(corpus.documents, op.target, 'target54k' in op ? op.target54k : undefined);
    cells.push(target !== undefined ? withTarget(text, p95, { max: target, label: `p95 ≤ ${target}` }) : text);
  }
  const contextVerb = runtime.verbs.get('context');
  if (contextVerb) {
    context.log(`query: ${corpus.documents} docs — context, pruning on / off`);
    cells.push(comparePruning(contextVerb, loaded, probes));
  }
  context.log(`query: ${corpus.documents} docs — load ${fixed(fileLoadMs ?? loadMs, 1)} ms`);
  // The load target is the 10k one (at 54k the load is measured, not held to it).
  const loadTarget = corpus.documents >= 10_000 && corpus.documents < 54_000 ? TARGET_LOAD_10K_MS : undefined;
  const withLoadTarget = (ms: number) => (loadTarget !== undefined ? withTarget(fixed(ms, 1), ms, { max: loadTarget, label: `≤ ${loadTarget}` }) : fixed(ms, 1));
  return [
    int(corpus.documents),
    int(loaded.bundle.nodes.length),
    int(loaded.bundle.edges.length),
    fixed(bytes.byteLength / MB, 2),
    fileLoadMs === null ? 'n/a' : withLoadTarget(fileLoadMs),
    fixed(loadMs, 1),
    `${fixed(heap / MB, 1)} (+${fixed((heap - before) / MB, 1)})`,
    ...cells,
  ];
}

/**
 * `context` with pruning on and off, each query back to back (order alternating), so a busy
 * machine slows both alike: "p50 on / off · p95 on / off".
 */
function comparePruning(verb: Verb, index: Index, probes: readonly Probe[]): string {
  type Text = { searchTerms: (groups: unknown, options?: Record<string, unknown>) => unknown };
  const text = (index as unknown as { text: Text }).text;
  const exhaustiveText = Object.create(text as object) as Text;
  exhaustiveText.searchTerms = (groups, options) => text.searchTerms(groups, { ...options, exhaustive: true });
  const exhaustive = { ...index, text: exhaustiveText } as Index;
  const on: number[] = [];
  const off: number[] = [];
  const time = (target: Index, params: Record<string, unknown>, into: number[]) => {
    const started = performance.now();
    safeCall(verb, target, params);
    into.push(performance.now() - started);
  };
  for (const probe of probes.slice(0, WARM_UP)) safeCall(verb, exhaustive, { query_text: probe.text });
  probes.forEach((probe, i) => {
    const params = { query_text: probe.text };
    if (i % 2 === 0) time(index, params, on), time(exhaustive, params, off);
    else time(exhaustive, params, off), time(index, params, on);
  });
  return `${fixed(percentile(on, 50), 2)} / ${fixed(percentile(off, 50), 2)} · ${fixed(percentile(on, 95), 2)} / ${fixed(percentile(off, 95), 2)}`;
}

/** Median time of the library's `loadBundle(path)` on the bytes written to a temp file. */
async function loadFromFile(bytes: Uint8Array, loadBundle: (path: string) => Promise<Index>): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'kdd-bench-load-'));
  try {
    const path = join(dir, 'bundle.msgpack');
    await writeFile(path, bytes);
    const runs = await repeat({ runs: LOAD_RUNS, budgetMs: 60_000 }, async () => {
      await loadBundle(path);
    });
    return median(runs.times);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
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
  const library = (await import('../../library/load-bundle.js').catch(() => null)) as Record<string, unknown> | null;
  const loadBundle = typeof library?.loadBundle === 'function' ? (library.loadBundle as Runtime['loadBundle']) : null;
  return { loadIndex: load.loadIndex as unknown as Runtime['loadIndex'], loadBundle, verbs };
}
