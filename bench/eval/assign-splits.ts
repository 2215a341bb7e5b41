/**
 * Gives every labelled query of a set a `split` (`dev` or `test`), so that ranking work is tuned on
 * `dev` and reported on `test`. Queries that already carry a split keep it: adding queries later never
 * moves an old query between splits (a `test` query seen during tuning would no longer be held out).
 *
 * The new queries of each type are shuffled with a fixed seed and alternately sent to `dev` and
 * `test`, so both halves have the same mix of question types (dev gets the odd one out).
 *
 *   npx tsx bench/eval/assign-splits.ts bench/eval/vet-clinic.queries.json      # seeded, stratified
 *   npx tsx bench/eval/assign-splits.ts bench/eval/kdd-engine.queries.json --all dev
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { mulberry32 } from '../generate.js';

type Split = 'dev' | 'test';
interface Query {
  id: string;
  type: string;
  split?: Split;
  [field: string]: unknown;
}
interface QuerySet {
  queries: Query[];
  [field: string]: unknown;
}

const SEED = 20;

function assign(queries: Query[], all: Split | undefined): void {
  if (all) {
    for (const q of queries) q.split ??= all;
    return;
  }
  const random = mulberry32(SEED);
  const types = [...new Set(queries.map((q) => q.type))].sort();
  for (const type of types) {
    const pending = queries.filter((q) => q.type === type && !q.split);
    // Fisher–Yates with the seeded generator: the same file always gets the same split.
    for (let i = pending.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [pending[i], pending[j]] = [pending[j]!, pending[i]!];
    }
    pending.forEach((q, i) => (q.split = i % 2 === 0 ? 'dev' : 'test'));
  }
}

/** A value on one line with a space after each `:` and `,`, like the hand-written sets. */
function inline(value: unknown): string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return JSON.stringify(value);
  const fields = Object.entries(value).filter(([, v]) => v !== undefined);
  return `{ ${fields.map(([k, v]) => `${JSON.stringify(k)}: ${inline(v)}`).join(', ')} }`;
}

/** One query per line, so diffs stay readable. */
function format(set: QuerySet): string {
  const { queries, ...head } = set;
  const headLines = Object.entries(head).map(([key, value]) => `  ${JSON.stringify(key)}: ${JSON.stringify(value)},`);
  const queryLines = queries.map(({ id, type, split, ...rest }) => `    ${inline({ id, type, split, ...rest })}`);
  return `{\n${headLines.join('\n')}\n  "queries": [\n${queryLines.join(',\n')}\n  ]\n}\n`;
}

const file = process.argv[2];
if (!file) throw new Error('usage: assign-splits.ts <queries.json> [--all dev|test]');
const allIndex = process.argv.indexOf('--all');
const all = allIndex > 0 ? (process.argv[allIndex + 1] as Split) : undefined;
if (all && all !== 'dev' && all !== 'test') throw new Error(`--all takes dev or test, not ${all}`);
const set = JSON.parse(readFileSync(file, 'utf8')) as QuerySet;
assign(set.queries, all);
writeFileSync(file, format(set));
const count = (split: Split) => set.queries.filter((q) => q.split === split).length;
console.log(`${file}: ${count('dev')} dev, ${count('test')} test`);
