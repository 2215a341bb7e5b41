/**
 * `npm run eval`: builds each labelled corpus in memory, loads the bundle, runs `context` for each
 * query and prints, per corpus, split (`dev` / `test`) and query type: nDCG@10, P@5 and MRR (limit
 * 10, every other parameter at its default) next to a plain-BM25 baseline, and the agent view: the
 * share of each query's grade ≥ 2 documents that `context` with a token budget of 2000 / 4000 / 8000
 * (limit at its default) puts in its answer.
 *
 * Query sets: every `bench/eval/<name>.queries.json` (`{ corpus, queries }`, the corpus path relative
 * to the repository); a query's split is its `split` field (`dev` when absent).
 *
 * Honesty: tune on `dev`. `--verbose` prints the ranking of `dev` queries only; `test` queries are
 * scored and reported in aggregate, never printed.
 * Options: `--set <name>` runs one set; `--split dev|test` one split; `--param key=value` overrides
 * a context parameter (diagnosis only: the reported numbers use defaults); `--no-agent` skips the
 * agent view; `--packing` adds, per split, what the budget was spent on: the mean tokens of the
 * answer and the share of them that went to grade ≥ 2 documents and to unlabelled ones (grade 0).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compile, packCompiled } from '../../compiler/pipeline.js';
import { loadIndex } from '../../runtime/load.js';
import { context } from '../../runtime/queries/context.js';
import { plainBm25 } from './baseline.js';
import { gradeShare, ndcg, precision, reciprocalRank, type Grades } from './metrics.js';

type Split = 'dev' | 'test';
interface LabelledQuery {
  id: string;
  type: string;
  lang: string;
  query: string;
  relevant: Grades;
  split?: Split;
}
interface QuerySet {
  name: string;
  specsDir: string;
  queries: (LabelledQuery & { split: Split })[];
}

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../..');
// The two sets written with the ranking first, then the held-out set on the same kdd-engine corpus.
const FIRST = ['kdd-engine', 'own-specs', 'kdd-engine-heldout'];
const BUDGETS = [2000, 4000, 8000] as const;
const argAfter = (flag: string) => (process.argv.includes(flag) ? process.argv[process.argv.indexOf(flag) + 1] : undefined);
const verbose = process.argv.includes('--verbose');
const agentView = !process.argv.includes('--no-agent');
const packing = process.argv.includes('--packing');
const only = argAfter('--set');
const onlySplit = argAfter('--split');
// `--param key=value` (repeatable) overrides a context parameter, e.g. `--param expand_graph=false`.
const extra: Record<string, unknown> = {};
process.argv.forEach((arg, i) => {
  if (arg !== '--param') return;
  const [key, value] = (process.argv[i + 1] ?? '').split('=');
  if (key) extra[key] = value;
});

/** Every `bench/eval/<name>.queries.json`: the sets in FIRST in that order, then the others by name. */
function querySets(): QuerySet[] {
  const names = readdirSync(here).filter((f) => f.endsWith('.queries.json')).map((f) => f.slice(0, -'.queries.json'.length));
  names.sort((a, b) => (FIRST.indexOf(a) + 1 || 99) - (FIRST.indexOf(b) + 1 || 99) || (a < b ? -1 : 1));
  return names.map((name) => {
    const data = JSON.parse(readFileSync(join(here, `${name}.queries.json`), 'utf8')) as { corpus: string; queries: LabelledQuery[] };
    return { name, specsDir: resolve(repo, data.corpus), queries: data.queries.map((q) => ({ ...q, split: q.split ?? 'dev' })) };
  });
}

interface Row {
  ndcg: number;
  p5: number;
  mrr: number;
}
const mean = (values: number[]) => (values.length === 0 ? NaN : values.reduce((s, v) => s + v, 0) / values.length);
const meanRow = (rows: Row[]): Row => ({ ndcg: mean(rows.map((r) => r.ndcg)), p5: mean(rows.map((r) => r.p5)), mrr: mean(rows.map((r) => r.mrr)) });
const num = (v: number, w = 6) => (Number.isNaN(v) ? '-' : v.toFixed(3)).padStart(w);
const fmt = (r: Row) => `${num(r.ndcg, 7)} ${num(r.p5)} ${num(r.mrr)}`;
const scoreRow = (ranked: readonly string[], grades: Grades): Row => ({ ndcg: ndcg(ranked, grades), p5: precision(ranked, grades), mrr: reciprocalRank(ranked, grades) });

/** Tokens of an answer: in all, on grade ≥ 2 documents, on unlabelled (grade 0) ones. */
function tokensByGrade(results: readonly { node_id: string; tokens: number }[], grades: Grades): number[] {
  const on = (keep: (grade: number) => boolean) => results.filter((r) => keep(grades[r.node_id] ?? 0)).reduce((s, r) => s + r.tokens, 0);
  return [on(() => true), on((g) => g >= 2), on((g) => g === 0)];
}

async function evaluate(set: QuerySet): Promise<void> {
  if (!existsSync(set.specsDir)) {
    console.log(`${set.name}: corpus ${set.specsDir} not found, skipped`);
    return;
  }
  const compiled = await compile({ specsDir: set.specsDir });
  const index = await loadIndex(packCompiled(compiled).bytes);
  const baseline = plainBm25(index.bundle.nodes);
  // key = `${split}\u0000${type}`; type 'ALL' aggregates.
  const ours = new Map<string, Row[]>();
  const base = new Map<string, Row[]>();
  const agent = new Map<string, number[][]>();
  // key = split; per query and budget: [total tokens, tokens on grade ≥ 2, tokens on grade 0].
  const spent = new Map<string, number[][][]>();
  const push = <T>(map: Map<string, T[]>, key: string, value: T) => map.set(key, [...(map.get(key) ?? []), value]);
  const unknown = new Set<string>();
  const queries = set.queries.filter((q) => !onlySplit || q.split === onlySplit);
  for (const q of queries) {
    for (const id of Object.keys(q.relevant)) if (!index.nodeIndex.has(id)) unknown.add(`${q.split === 'test' ? '(test query)' : q.id}:${id}`);
    const ranked = context(index, { query_text: q.query, limit: 10, ...extra }).results.map((r) => r.node_id);
    const plain = baseline(q.query, 10);
    const row = scoreRow(ranked, q.relevant);
    const brow = scoreRow(plain, q.relevant);
    const answers = agentView || packing ? BUDGETS.map((max_tokens) => context(index, { query_text: q.query, max_tokens, ...extra })) : [];
    const shares = agentView ? answers.map((a) => gradeShare(a.results.map((r) => r.node_id), q.relevant)) : [];
    if (packing) push(spent, q.split, answers.map((a) => tokensByGrade(a.results, q.relevant)));
    for (const type of [q.type, 'ALL']) {
      const key = `${q.split}\u0000${type}`;
      push(ours, key, row);
      push(base, key, brow);
      if (agentView && !shares.some(Number.isNaN)) push(agent, key, shares);
    }
    if (verbose && q.split === 'dev') {
      console.log(`${q.id} ${q.type} ${row.ndcg.toFixed(2)} (bm25 ${brow.ndcg.toFixed(2)}) "${q.query}"`);
      console.log(`    ${ranked.map((id) => `${id}${q.relevant[id] ? `(${q.relevant[id]})` : ''}`).join(' ')}`);
    }
  }
  const count = (split: Split) => queries.filter((q) => q.split === split).length;
  console.log(`\n${set.name}: ${index.bundle.nodes.length} nodes, ${count('dev')} dev + ${count('test')} test queries`);
  if (unknown.size > 0) console.log(`  labels naming unknown nodes: ${[...unknown].join(', ')}`);
  for (const split of ['dev', 'test'] as const) {
    if (count(split) === 0) continue;
    console.log(`  [${split}] ${'type'.padEnd(14)} ${'n'.padStart(3)} | ${'nDCG@10'.padStart(7)} ${'P@5'.padStart(6)} ${'MRR'.padStart(6)} | BM25: nDCG P@5 MRR${agentView ? '    | grade≥2 share @2k   4k     8k' : ''}`);
    const types = [...new Set(queries.filter((q) => q.split === split).map((q) => q.type))].sort();
    for (const type of [...types, 'ALL']) {
      const key = `${split}\u0000${type}`;
      const rows = ours.get(key)!;
      const shares = agent.get(key) ?? [];
      const agentCols = agentView ? ` | ${BUDGETS.map((_, i) => num(mean(shares.map((s) => s[i]!)))).join(' ')}` : '';
      console.log(`  [${split}] ${type.padEnd(14)} ${String(rows.length).padStart(3)} | ${fmt(meanRow(rows))} | ${fmt(meanRow(base.get(key)!))}${agentCols}`);
    }
    const used = spent.get(split);
    if (used) {
      const at = (b: number, k: number) => mean(used.map((q) => q[b]![k]!));
      const cols = BUDGETS.map((budget, b) => `@${budget / 1000}k ${at(b, 0).toFixed(0).padStart(4)} tok, ${num(at(b, 1) / at(b, 0), 5)} on grade≥2, ${num(at(b, 2) / at(b, 0), 5)} on grade 0`);
      console.log(`  [${split}] packing: ${cols.join(' | ')}`);
    }
  }
}

for (const set of querySets()) if (!only || only === set.name) await evaluate(set);
