/**
 * `npm run eval`: builds each labelled corpus in memory, loads the bundle, runs `context`
 * (limit 10, every other parameter at its default) for each query, and prints nDCG@10, P@5 and
 * MRR per query type and overall, next to a plain-BM25 baseline.
 *
 * Options: `--verbose` prints each query's ranking; `--set <name>` runs one query set;
 * `--param key=value` overrides a context parameter (diagnosis only: the reported numbers use defaults).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compile, packCompiled } from '../../compiler/build.js';
import { loadIndex } from '../../runtime/load.js';
import { context } from '../../runtime/queries/context.js';
import { plainBm25 } from './baseline.js';
import { ndcg, precision, reciprocalRank, type Grades } from './metrics.js';

interface LabelledQuery {
  id: string;
  type: string;
  lang: string;
  query: string;
  relevant: Grades;
}
interface QuerySet {
  corpus: string;
  queries: LabelledQuery[];
}

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../..');
const SETS = ['kdd-engine', 'own-specs'];
const verbose = process.argv.includes('--verbose');
const only = process.argv.includes('--set') ? process.argv[process.argv.indexOf('--set') + 1] : undefined;
// `--param key=value` (repeatable) overrides a context parameter, e.g. `--param expand_graph=false`.
const extra: Record<string, unknown> = {};
process.argv.forEach((arg, i) => {
  if (arg !== '--param') return;
  const [key, value] = (process.argv[i + 1] ?? '').split('=');
  if (key) extra[key] = value;
});

interface Row {
  ndcg: number;
  p5: number;
  mrr: number;
}
const mean = (rows: Row[]): Row => ({
  ndcg: rows.reduce((s, r) => s + r.ndcg, 0) / rows.length,
  p5: rows.reduce((s, r) => s + r.p5, 0) / rows.length,
  mrr: rows.reduce((s, r) => s + r.mrr, 0) / rows.length,
});
const fmt = (r: Row) => `${r.ndcg.toFixed(3).padStart(7)} ${r.p5.toFixed(3).padStart(6)} ${r.mrr.toFixed(3).padStart(6)}`;

async function evaluate(name: string): Promise<void> {
  const file = join(here, `${name}.queries.json`);
  if (!existsSync(file)) return;
  const set = JSON.parse(readFileSync(file, 'utf8')) as QuerySet;
  const specsDir = resolve(repo, set.corpus);
  if (!existsSync(specsDir)) {
    console.log(`${name}: corpus ${set.corpus} not found, skipped`);
    return;
  }
  const compiled = await compile({ specsDir });
  const index = await loadIndex(packCompiled(compiled).bytes);
  const baseline = plainBm25(index.bundle.nodes);
  const ours = new Map<string, Row[]>();
  const base = new Map<string, Row[]>();
  const unknown = new Set<string>();
  for (const q of set.queries) {
    for (const id of Object.keys(q.relevant)) if (!index.nodeIndex.has(id)) unknown.add(`${q.id}:${id}`);
    const ranked = context(index, { query_text: q.query, limit: 10, ...extra }).results.map((r) => r.node_id);
    const plain = baseline(q.query, 10);
    const row = { ndcg: ndcg(ranked, q.relevant), p5: precision(ranked, q.relevant), mrr: reciprocalRank(ranked, q.relevant) };
    const brow = { ndcg: ndcg(plain, q.relevant), p5: precision(plain, q.relevant), mrr: reciprocalRank(plain, q.relevant) };
    for (const key of [q.type, 'ALL']) {
      ours.set(key, [...(ours.get(key) ?? []), row]);
      base.set(key, [...(base.get(key) ?? []), brow]);
    }
    if (verbose) {
      console.log(`${q.id} ${q.type} ${row.ndcg.toFixed(2)} (bm25 ${brow.ndcg.toFixed(2)}) "${q.query}"`);
      console.log(`    ${ranked.map((id) => `${id}${q.relevant[id] ? `(${q.relevant[id]})` : ''}`).join(' ')}`);
    }
  }
  console.log(`\n${name}: ${index.bundle.nodes.length} nodes, ${set.queries.length} queries`);
  if (unknown.size > 0) console.log(`  labels naming unknown nodes: ${[...unknown].join(', ')}`);
  console.log(`  ${'type'.padEnd(15)} ${'n'.padStart(3)} | ${'nDCG@10'.padStart(7)} ${'P@5'.padStart(6)} ${'MRR'.padStart(6)} | plain BM25: nDCG@10 P@5 MRR`);
  const types = [...ours.keys()].filter((t) => t !== 'ALL').sort();
  for (const t of [...types, 'ALL']) {
    console.log(`  ${t.padEnd(15)} ${String(ours.get(t)!.length).padStart(3)} | ${fmt(mean(ours.get(t)!))} | ${fmt(mean(base.get(t)!))}`);
  }
}

for (const name of SETS) if (!only || only === name) await evaluate(name);
