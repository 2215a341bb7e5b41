/**
 * Merge of three developers' indexes (REQ-001 CA-4, CMD-005, #6): three `.kdd-index/` folders of
 * the same size whose neighbours share a third of their documents, merged by `mergeAndWrite`
 * (read the three folders, pick winners, re-link, pack, write the bundle).
 *
 * Two cases, for folder inputs and for the same indexes committed on three git branches:
 * - cold: inputs without their `.cache/` (node files read back, no record cache) and no merge cache;
 * - warm: what a shared server re-merging after each push sees: one document of one input edited
 *   and that input rebuilt with `buildIndex` (which refreshes its record cache; committed on its
 *   branch for git), then a merge into the `dist/` whose `.cache/` the previous merge left (pack
 *   memo, git blob cache).
 *
 * Each index holds min(3,600, largest requested size) documents, so `--sizes 54` stays quick and
 * `--sizes 3600` (or the default sizes) measures the stated case (3 × 3.6k, target ≤ 2 s warm).
 */
import { execFile } from 'node:child_process';
import { appendFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from '../../compiler/pipeline.js';
import { CACHE_DIR } from '../../compiler/cache/record-cache.js';
import { buildIndex } from '../../compiler/pipeline.js';
import { mergeAndWrite, type MergeStages, type MergeWriteReport } from '../../compiler/team/merge-write.js';
import { listSpecPaths } from '../../compiler/read.js';
import { replicateCorpus } from '../../test/helpers/replicate-corpus.js';
import { DEFAULT_SOURCE } from '../generate.js';
import { collectGarbage, fixed, int, median, withTarget, type Scenario } from '../scenario.js';

const run = promisify(execFile);
const PER_INDEX = 3_600;
const DEVELOPERS = 3;
const COLD_RUNS = 3;
const WARM_RUNS = 5;
/** Stop repeating a case once its runs took this long (at least one run each). */
const BUDGET_MS = 60_000;
const TARGET_S = 2;
/** Documents per copy of the kdd-engine corpus (replicateCorpus copies it whole). */
const CORPUS_DOCUMENTS = 54;

interface Timed {
  ms: number;
  report: MergeWriteReport;
}

const scenario: Scenario = {
  name: 'merge',
  title: `Merge of ${DEVELOPERS} indexes`,
  async run(corpora, context) {
    const documents = Math.min(PER_INDEX, Math.max(...corpora.map((corpus) => corpus.documents)));
    const root = await mkdtemp(join(tmpdir(), 'kdd-bench-merge-'));
    try {
      const copies = Math.ceil(documents / CORPUS_DOCUMENTS);
      const devs = Array.from({ length: DEVELOPERS }, (_, dev) => {
        const dir = join(root, `dev${dev}`);
        return { dir, specsDir: join(dir, 'specs'), outDir: join(dir, 'dist'), indexDir: join(dir, '.kdd-index') };
      });
      for (const [dev, dirs] of devs.entries()) {
        context.log(`merge: building index ${dev + 1} of ${DEVELOPERS} (${int(documents)} docs)`);
        // Developer d holds copies [d·2c/3, d·2c/3 + c): neighbours share a third of their documents.
        await replicateCorpus(dirs.specsDir, documents, { corpus: DEFAULT_SOURCE, firstCopy: Math.floor((dev * 2 * copies) / 3) });
        await build(dirs);
      }
      const indexDirs = devs.map((dirs) => dirs.indexDir);
      // Markdown documents only: a sentence appended to a .feature file would not be Gherkin.
      const specPaths = await Promise.all(devs.map(async (dirs) => (await listSpecPaths(dirs.specsDir)).filter((path) => path.endsWith('.md'))));
      let edits = 0;
      /** A push: one sentence appended to one spec of developer `dev`, whose index is rebuilt. */
      const edit = async (dev: number) => {
        const n = edits++;
        await appendFile(join(devs[dev]!.specsDir, specPaths[dev]![(n * 7919) % specPaths[dev]!.length]!), `\nBench edit ${n}: one more sentence of prose.\n`);
        await buildIndex(devs[dev]!);
      };
      /** The caches never change the bytes: a bundle against a merge of the same indexes with no cache at all. */
      const check = async (outDir: string, report: MergeWriteReport) => {
        await Promise.all(indexDirs.map((dir) => rm(join(dir, CACHE_DIR), { recursive: true, force: true })));
        const plain = await mergeAndWrite({ paths: indexDirs, outDir: join(root, `check-${edits}`), cacheDir: false });
        const [a, b] = await Promise.all([readFile(join(outDir, report.bundle.bundle)), readFile(join(root, `check-${edits}`, plain.bundle.bundle))]);
        if (!a.equals(b)) throw new Error('bench merge: a cached merge differs from the uncached one');
        for (const dirs of devs) await buildIndex(dirs); // the record caches back
      };

      // ── folders ──
      // Cold: no input record cache, a fresh output folder (no memo) each run.
      context.log('merge: folders, cold (no caches)');
      await Promise.all(indexDirs.map((dir) => rm(join(dir, CACHE_DIR), { recursive: true, force: true })));
      const cold = await runs(COLD_RUNS, (run) => mergeAndWrite({ paths: indexDirs, outDir: join(root, `cold-${run}`) }));
      if (cold.some((t) => t.report.cache.record_caches.length > 0 || t.report.cache.memo_hits > 0)) throw new Error('bench merge: the cold merge used a cache');
      // Warm: caches back (an incremental build of an unchanged tree rewrites the record cache), one
      // merge to leave the memo, then per run: edit one document of one input, rebuild it, merge.
      context.log('merge: folders, warm (record caches + merge memo, one document edited before each run)');
      for (const dirs of devs) await buildIndex(dirs);
      const warmOut = join(root, 'warm');
      await mergeAndWrite({ paths: indexDirs, outDir: warmOut });
      const warm = await runs(WARM_RUNS, () => mergeAndWrite({ paths: indexDirs, outDir: warmOut }), (run) => edit(run % DEVELOPERS));
      const last = warm.at(-1)!.report;
      if (last.cache.record_caches.length !== DEVELOPERS || last.cache.memo_misses > warm.length) throw new Error(`bench merge: the warm merge missed its caches (${JSON.stringify(last.cache)})`);
      context.log('merge: checking the warm bundle against an uncached merge');
      await check(warmOut, last);

      // ── git refs ── each developer's .kdd-index/ committed on a branch dev<d> of one repository.
      context.log('merge: git refs, committing the indexes');
      const repo = join(root, 'repo');
      await mkdir(repo);
      await git(repo, ['init', '-q', '-b', 'main']);
      const branches = devs.map((_, dev) => `dev${dev}`);
      for (const dev of devs.keys()) await commitIndex(repo, devs[dev]!.dir, branches[dev]!);
      const gitMerge = (outDir: string) => mergeAndWrite({ paths: [], refs: branches, repo, outDir });
      context.log('merge: git refs, cold (no merge cache)');
      const gitCold = await runs(COLD_RUNS, (run) => gitMerge(join(root, `git-cold-${run}`)));
      context.log('merge: git refs, warm (blob cache + merge memo, one document edited and committed before each run)');
      const gitOut = join(root, 'git-warm');
      await gitMerge(gitOut);
      const gitWarm = await runs(
        WARM_RUNS,
        () => gitMerge(gitOut),
        async (run) => {
          await edit(run % DEVELOPERS);
          await commitIndex(repo, devs[run % DEVELOPERS]!.dir, branches[run % DEVELOPERS]!);
        },
      );
      const lastGit = gitWarm.at(-1)!.report;
      if (lastGit.cache.git_blob_misses > gitWarm.length || lastGit.cache.memo_misses > gitWarm.length) throw new Error(`bench merge: the warm git merge missed its caches (${JSON.stringify(lastGit.cache)})`);
      await check(gitOut, lastGit);

      const row = (inputs: string, coldRuns: Timed[], warmRuns: Timed[]) => {
        const coldS = median(coldRuns.map((t) => t.ms)) / 1000;
        const warmS = median(warmRuns.map((t) => t.ms)) / 1000;
        return [
          inputs,
          int(documents),
          int(warmRuns.at(-1)!.report.nodes),
          int(warmRuns.at(-1)!.report.edges),
          `${coldRuns.length} / ${warmRuns.length}`,
          fixed(coldS, 2),
          split(coldRuns),
          documents >= PER_INDEX ? withTarget(fixed(warmS, 2), warmS, { max: TARGET_S, label: `≤ ${TARGET_S}` }) : fixed(warmS, 2),
          split(warmRuns),
        ];
      };
      return {
        columns: ['inputs', 'docs per index', 'merged nodes', 'merged edges', 'runs cold / warm', 'cold s (median)', 'cold: read / merge / pack / write ms', 'warm s (median)', 'warm: read / merge / pack / write ms'],
        rows: [row('3 × .kdd-index/', cold, warm), row('3 git refs', gitCold, gitWarm)],
        notes: [
          `Merge = \`mergeAndWrite({ paths: [3 × .kdd-index/], outDir })\` (or \`refs: [dev0, dev1, dev2], repo\`): read the inputs, pick winners (last write wins), re-link, pack, write \`dist/\`. Medians of the runs shown, each after a forced GC; the split is the median of each stage (\`stages_ms\` of the report; write = merge caches + bundle + \`kdd.json\`).`,
          `Indexes: ${DEVELOPERS} trees of ${int(documents)} documents (whole copies of the kdd-engine corpus, \`test/helpers/replicate-corpus.ts\`), neighbours sharing a third; built with \`build\` first (untimed). Git: each \`.kdd-index/\` committed on its own branch of one repository.`,
          'Cold: folders without their `.kdd-index/.cache/` (every node file read and parsed), and for both rows a new output folder per run (no merge cache: every node tokenised and chunked; every node file read from git).',
          'Warm, what a server re-merging after each push sees: before each run one sentence is appended to one spec of one input (a different input each run), that input is rebuilt with `buildIndex` (and, for git, its `.kdd-index/` committed on its branch), all untimed. The merge then reads folders from their record caches (`.kdd-index/.cache/records`) or, for git, takes every unchanged node file from the blob cache (`<outDir>/.cache/git-blobs`), and packs with the memo the previous merge left (`<outDir>/.cache/merge-pack`). A cache file is rewritten only when more than 16 of its entries changed (`worthRewriting` in compiler/cache/rewrite-policy.ts), so run k reads k node files from git and tokenises k nodes again, and writes no cache.',
          'Checked: the last warm bundle of each row is byte-identical to a merge of the same indexes with no cache at all.',
        ],
      };
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  },
};
export default scenario;

async function git(repo: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  const identity = { GIT_AUTHOR_NAME: 'bench', GIT_AUTHOR_EMAIL: 'bench@example.com', GIT_COMMITTER_NAME: 'bench', GIT_COMMITTER_EMAIL: 'bench@example.com' };
  return (await run('git', args, { cwd: repo, env: { ...process.env, ...identity, ...env }, maxBuffer: 64 * 1024 * 1024 })).stdout.trim();
}

/** Commits `<dir>/.kdd-index` (its `.cache/` is git-ignored) as the whole tree of `branch`, on top of its last commit. */
async function commitIndex(repo: string, dir: string, branch: string): Promise<void> {
  const env = { GIT_INDEX_FILE: join(repo, '.git', `index-${branch}`) };
  await git(dir, ['--git-dir', join(repo, '.git'), '--work-tree', dir, 'add', '-A', '--', '.kdd-index'], env);
  const tree = await git(repo, ['write-tree'], env);
  const parent = await git(repo, ['rev-parse', '--verify', '-q', `refs/heads/${branch}`]).catch(() => '');
  const commit = await git(repo, ['commit-tree', tree, '-m', `index of ${branch}`, ...(parent ? ['-p', parent] : [])]);
  await git(repo, ['update-ref', `refs/heads/${branch}`, commit]);
}

/** Up to `count` runs of `merge`, each after an untimed `prepare`; fewer when they exceed the budget. */
async function runs(count: number, merge: (run: number) => Promise<MergeWriteReport>, prepare?: (run: number) => Promise<void>): Promise<Timed[]> {
  const out: Timed[] = [];
  let spent = 0;
  for (let run = 0; run < count && (run === 0 || spent + spent / run <= BUDGET_MS); run++) {
    await prepare?.(run);
    // The untimed preparation (a rebuild) leaves garbage the merge should not pay for.
    await collectGarbage();
    const started = performance.now();
    const report = await merge(run);
    const ms = performance.now() - started;
    spent += ms;
    out.push({ ms, report });
  }
  return out;
}

/** Median of each stage: read / merge (with the L2 step) / pack / write. */
function split(timed: readonly Timed[]): string {
  const stage = (pick: (stages: MergeStages) => number) => int(median(timed.map((t) => pick(t.report.stages_ms))));
  return `${stage((s) => s.read)} / ${stage((s) => s.merge + s.vectors)} / ${stage((s) => s.pack)} / ${stage((s) => s.write)}`;
}
