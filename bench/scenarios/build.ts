/**
 * Build scenario: L1 parse+extract throughput and the full `build` (read → extract → link →
 * `.kdd-index/` → pack → `dist/`) per corpus size, with the size of what it writes.
 *
 * Parse+extract is timed directly: `readSpecs` once (untimed), then `extractDocument` per file.
 * Full builds go to fresh temporary folders each run: `.kdd-index/` is written only where a file
 * changed, so a reused folder would measure an incremental build instead. The folders are removed
 * when the whole bench ends (bench/scratch.ts), never between two sizes' timed builds.
 */
import { readFile, readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { build, compile, packCompiled } from '../../compiler/pipeline.js';
import { extractDocument } from '../../compiler/kinds/extract.js';
import { readSpecs } from '../../compiler/read.js';
import { fixed, int, MB, median, repeat, withTarget, type BenchContext, type Corpus, type Scenario, type ScenarioReport } from '../scenario.js';
import { scratchDir } from '../scratch.js';
import { measureBuildProcesses } from '../build-process.js';

const RUNS = 3;
/** Per corpus size and measurement; a 10k corpus gets fewer runs if one run is slow. */
const BUDGET_MS = 100_000;
const TARGET_FILES_PER_S = 1_000;
const TARGET_BUILD_10K_S = 10;
/** `kdd build` full-build process runs; fewer on big trees, where one full build takes tens of seconds. */
const PROCESS_RUNS = (documents: number) => (documents >= 50_000 ? 1 : documents >= 5_000 ? 3 : 5);
/** Runs of the nothing-changed and one-edit processes: a second or less each below 50,000 documents, so more of them. */
const REPEAT_RUNS = (documents: number) => (documents >= 50_000 ? 1 : 7);
/** From this size on only the process rows are measured (`--sizes 54000,100000`): in-process runs would take most of an hour. */
const PROCESS_ONLY_FROM = 50_000;
/** Process targets (#17) by the corpus sizes they are stated for: seconds, and MiB of peak RSS. */
const PROCESS_TARGETS: ReadonlyMap<number, { full?: number; unchanged?: number; edit?: number; peakMb?: number }> = new Map([
  [54, { full: 0.3, unchanged: 0.2, edit: 0.25 }],
  [1_080, { full: 1.5 }],
  [10_800, { full: 10, edit: 1, peakMb: 600 }],
  [54_000, { full: 60, peakMb: 2_500 }],
]);

const scenario: Scenario = {
  name: 'build',
  title: 'Build (L1)',
  async run(corpora, context) {
    const report: ScenarioReport = {
      columns: [
        'docs',
        'files',
        'spec MB',
        'runs (extract / stages / build)',
        'parse+extract files/s (MB/s)',
        '1st-run files/s',
        'full build s',
        'compile / pack / writes s',
        'bundle MB (÷ spec)',
        '.kdd-index MB (÷ spec)',
        'local caches MB',
        'peak RSS MB',
        '`kdd build` process: full / nothing changed / one edit s',
        'process peak RSS MB',
      ],
      rows: [],
      notes: [`Markdown parser measured: ${await markdownParser()}.`],
    };
    for (const corpus of corpora) report.rows.push(await measure(corpus, context, report.notes));
    report.notes.push(
      'Medians over the runs shown. Parse+extract = `extractDocument` over every file already in memory (no I/O, no link pass), repeated until ≥ 2 s were measured so small corpora report warm throughput; `1st-run` is the cold first pass of the process at that size.',
      'Split of a build, timed separately: `compile` (read + extract + link, in memory) and `packCompiled` (text index + msgpack); writes = full build − compile − pack (`.kdd-index/` files + `dist/`).',
      'Full build = `build({specsDir,outDir,indexDir})` into fresh temp folders (read + extract + link + write `.kdd-index/` + pack + write `dist/`).',
      '`.kdd-index` = the committed artifacts (node files in index format 2, each text stored once; edges.jsonl; the build report\'s `sizes`); local caches = its git-ignored `.cache/` (record and pack caches that make the next incremental build fast), written by every build and counted in its time.',
      '`kdd build` process = `node build/cli/main.js build SPECS` spawned and timed from start to exit (Node start-up and module loading included), on a copy of the corpus: full = into empty folders; nothing changed = again over the last full build; one edit = after appending a line to one spec (a different one each run). Medians of 5 full builds (3 from 5,000 documents) and 7 of each other case; 1 of each from 50,000. Process peak RSS = the highest high-water mark of those processes (`bench/peak-rss.mjs` preloaded). From 50,000 documents only these columns are measured.',
      'Peak RSS = the process high-water mark (`process.resourceUsage().maxRSS`) after that size; sizes run in ascending order, so each figure is dominated by its own size (it includes the ~100 MB of Node + tsx).',
    );
    return report;
  },
};
export default scenario;

async function measure(corpus: Corpus, context: BenchContext, notes: string[]): Promise<string[]> {
  if (corpus.documents >= PROCESS_ONLY_FROM) return [int(corpus.documents), int(corpus.files), fixed(corpus.bytes / MB, 2), ...Array<string>(9).fill('—'), ...(await processColumns(corpus, context))];
  context.log(`build: ${corpus.documents} docs — parse+extract`);
  const read = await readSpecs(resolve(corpus.specsDir));
  const textBytes = read.files.reduce((sum, file) => sum + Buffer.byteLength(file.text), 0);
  const extract = await repeat({ runs: RUNS, budgetMs: BUDGET_MS, minMs: 2_000, maxRuns: 30 }, () => {
    let indexed = 0;
    for (const file of read.files) if (extractDocument(file, { indexedAt: null }).status === 'indexed') indexed++;
    return indexed;
  });
  if (extract.last !== read.files.length) notes.push(`${corpus.documents} docs: ${read.files.length - extract.last} files were skipped by extract.`);
  const extractMs = median(extract.times);
  const filesPerS = read.files.length / (extractMs / 1000);
  const coldFilesPerS = read.files.length / (extract.times[0]! / 1000);

  context.log(`build: ${corpus.documents} docs — compile and pack`);
  const compileTimes: number[] = [];
  const stages = await repeat({ runs: RUNS, budgetMs: BUDGET_MS }, async () => {
    const started = performance.now();
    const result = await compile({ specsDir: corpus.specsDir });
    compileTimes.push(performance.now() - started);
    return packCompiled(result).bytes.byteLength;
  });
  const compileS = median(compileTimes) / 1000;
  const packS = median(stages.times.map((total, i) => total - compileTimes[i]!)) / 1000;

  context.log(`build: ${corpus.documents} docs — full build`);
  const root = await scratchDir('kdd-bench-build-');
  const builds = await repeat({ runs: RUNS, budgetMs: BUDGET_MS }, async (run) => {
    const outDir = join(root, `dist-${run}`);
    const indexDir = join(root, `index-${run}`);
    return { report: await build({ specsDir: corpus.specsDir, outDir, indexDir }), outDir, indexDir };
  });
  const { report, outDir, indexDir } = builds.last;
  const bundleBytes = report.bundle.bytes;
  // `.cache/` holds local, git-ignored build caches (record and pack caches): not artifacts.
  const cacheBytes = await folderBytes(join(indexDir, '.cache'));
  const indexBytes = (await folderBytes(indexDir)) - cacheBytes;
  context.rememberBundle(corpus, new Uint8Array(await readFile(join(outDir, report.bundle.bundle))));
  const buildS = median(builds.times) / 1000;
  const rssMb = process.resourceUsage().maxRSS / 1024;
  context.log(`build: ${corpus.documents} docs — ${fixed(buildS, 2)} s per build, ${int(filesPerS)} files/s`);
  return [
    int(corpus.documents),
    int(corpus.files),
    fixed(corpus.bytes / MB, 2),
    `${extract.times.length} / ${stages.times.length} / ${builds.times.length}`,
    withTarget(`${int(filesPerS)} (${fixed(textBytes / MB / (extractMs / 1000), 2)})`, filesPerS, { min: TARGET_FILES_PER_S, label: `≥ ${int(TARGET_FILES_PER_S)}` }),
    int(coldFilesPerS),
    corpus.documents >= 10_000 ? withTarget(fixed(buildS, 2), buildS, { max: TARGET_BUILD_10K_S, label: `≤ ${TARGET_BUILD_10K_S}` }) : fixed(buildS, 2),
    `${fixed(compileS, 2)} / ${fixed(packS, 2)} / ${fixed(Math.max(0, buildS - compileS - packS), 2)}`,
    `${fixed(bundleBytes / MB, 2)} (${fixed(bundleBytes / corpus.bytes, 2)}×)`,
    `${fixed(indexBytes / MB, 2)} (${fixed(indexBytes / corpus.bytes, 2)}×)`,
    fixed(cacheBytes / MB, 2),
    int(rssMb),
    ...(await processColumns(corpus, context)),
  ];
}

async function processColumns(corpus: Corpus, context: BenchContext): Promise<string[]> {
  context.log(`build: ${corpus.documents} docs — kdd build processes`);
  const times = await measureBuildProcesses(corpus.specsDir, PROCESS_RUNS(corpus.documents), REPEAT_RUNS(corpus.documents));
  if (!times) return ['n/a (no build/: run npm run build:ts)', 'n/a'];
  const target = PROCESS_TARGETS.get(corpus.documents) ?? {};
  const seconds = (value: number, max: number | undefined) => (max === undefined ? fixed(value, 2) : withTarget(fixed(value, 2), value, { max, label: `≤ ${max}` }));
  const peak = target.peakMb === undefined ? int(times.peakMb) : withTarget(int(times.peakMb), times.peakMb, { max: target.peakMb, label: `≤ ${int(target.peakMb)}` });
  return [`${seconds(times.fullS, target.full)} / ${seconds(times.unchangedS, target.unchanged)} / ${seconds(times.editS, target.edit)}`, peak];
}

async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => [])) {
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return total;
}

/**
 * Which Markdown parser the compiler uses right now (the remark one is being replaced): follows
 * `compiler/parse/markdown.ts` one level into the local modules it imports for values.
 */
async function markdownParser(): Promise<string> {
  const dir = new URL('../../compiler/parse/', import.meta.url);
  const read = (file: string) => readFile(new URL(file, dir), 'utf8').catch(() => '');
  const entry = await read('markdown.ts');
  const locals = [...entry.matchAll(/^import (?!type )[^;]*from '\.\/([\w-]+)\.js'/gm)].map((match) => `${match[1]}.ts`);
  const sources = [entry, ...(await Promise.all(locals.map(read)))];
  if (sources.some((source) => source.includes("from 'remark-parse'"))) return 'remark (unified + remark-parse + remark-gfm)';
  return locals.length ? `hand-written scanner (compiler/parse/markdown.ts → ${locals.join(', ')})` : 'unknown (compiler/parse/markdown.ts imports no local parser module)';
}
