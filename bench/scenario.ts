/**
 * The contract every benchmark scenario implements, plus the few measuring helpers they share.
 *
 * Adding a scenario is a one-file job: drop `bench/scenarios/<name>.ts` whose default export is a
 * {@link Scenario}; `bench/run.ts` discovers it (alphabetical order) and `--scenario <name>` selects it.
 */

/** One corpus size, ready on disk. */
export interface Corpus {
  /** Requested document count (54 = the real corpus, unmodified). */
  documents: number;
  /** Specs root to compile. */
  specsDir: string;
  files: number;
  /** Sum of spec file sizes. */
  bytes: number;
  /** `real` or `generated`. */
  origin: 'real' | 'generated';
}

export interface BenchContext {
  /** Progress line on stderr (stdout carries only the tables). */
  log(message: string): void;
  /**
   * Bundle bytes of a corpus with the current compiler, memoised across scenarios: the build
   * scenario stores what it built, later scenarios reuse it instead of compiling again.
   */
  bundle(corpus: Corpus): Promise<Uint8Array>;
  rememberBundle(corpus: Corpus, bytes: Uint8Array): void;
}

/** A markdown table plus the notes printed under it (run counts, what was skipped and why). */
export interface ScenarioReport {
  columns: string[];
  rows: string[][];
  notes: string[];
}

export interface Scenario {
  /** Flag value for `--scenario` (the file name). */
  name: string;
  /** Heading above the table. */
  title: string;
  /** One row per corpus (or more); return `{ skipped }` when a prerequisite is missing. */
  run(corpora: readonly Corpus[], context: BenchContext): Promise<ScenarioReport | { skipped: string }>;
}

// ── measuring ───────────────────────────────────────────────────────────────

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Nearest-rank percentile (p in 0–100) of unsorted samples. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1]!;
}

export interface Repeated<T> {
  /** Milliseconds of each run, in order (`times[0]` is the cold run). */
  times: number[];
  /** Value returned by the last run. */
  last: T;
}

export interface RepeatOptions {
  /** Runs wanted. */
  runs: number;
  /**
   * Stop early when one more run of the same length would push the total past this: a slow 10k
   * build is measured fewer times rather than blowing the bench's time bound. At least one run.
   */
  budgetMs: number;
  /** Keep going past `runs` until this much time was measured (tiny corpora), up to `maxRuns`. */
  minMs?: number;
  maxRuns?: number;
}

/** Runs `fn` repeatedly and times each run; `times.length` says how many runs were made. */
export async function repeat<T>(options: RepeatOptions, fn: (run: number) => Promise<T> | T): Promise<Repeated<T>> {
  const times: number[] = [];
  let last!: T;
  let spent = 0;
  const maxRuns = Math.max(options.runs, options.maxRuns ?? options.runs);
  for (let run = 0; run < maxRuns; run++) {
    const started = performance.now();
    last = await fn(run);
    const took = performance.now() - started;
    times.push(took);
    spent += took;
    const wantMore = run + 1 < options.runs || spent < (options.minMs ?? 0);
    if (!wantMore || spent + took > options.budgetMs) break;
  }
  return { times, last };
}

/** Forces a full GC when the runtime allows it (heap figures are meaningless otherwise). */
export async function collectGarbage(): Promise<boolean> {
  const gc = await exposedGc();
  if (!gc) return false;
  gc();
  gc();
  return true;
}

let gcFunction: (() => void) | null | undefined;
async function exposedGc(): Promise<(() => void) | null> {
  if (gcFunction !== undefined) return gcFunction;
  const existing = (globalThis as { gc?: () => void }).gc;
  if (existing) return (gcFunction = existing);
  try {
    // `--expose-gc` after start-up: the flag is read when a new context is created.
    const v8 = await import('node:v8');
    const vm = await import('node:vm');
    v8.setFlagsFromString('--expose-gc');
    gcFunction = vm.runInNewContext('gc') as () => void;
  } catch {
    gcFunction = null;
  }
  return gcFunction;
}

// ── formatting ──────────────────────────────────────────────────────────────

export const MB = 1024 * 1024;

export function fixed(value: number, digits = 1): string {
  return Number.isFinite(value) ? value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : '—';
}

export function int(value: number): string {
  return Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : '—';
}

/** `12.3 ✓ (≤ 300)`: a number next to its target. */
export function withTarget(text: string, value: number, target: { max?: number; min?: number; label: string }): string {
  const ok = (target.max === undefined || value <= target.max) && (target.min === undefined || value >= target.min);
  return `${text} ${ok ? '✓' : '✗'} (${target.label})`;
}

export function markdownTable(report: ScenarioReport): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  const align = report.columns.map((_, i) => (i === 0 ? '---' : '---:'));
  return [line(report.columns), line(align), ...report.rows.map(line)].join('\n');
}
