/**
 * `kdd build` as a new process, the way a pre-commit hook or CI runs it: Node start-up, module
 * loading and a cold JIT included. Three cases on a private copy of a corpus: a full build into
 * empty folders, a build where nothing changed, and a build after one appended line. Each process's
 * peak RSS comes from `bench/peak-rss.mjs`, preloaded into it.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, cp } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { listSpecPaths } from '../compiler/read.js';
import { median } from './scenario.js';
import { scratchDir } from './scratch.js';

export const CLI = fileURLToPath(new URL('../build/cli/main.js', import.meta.url));
const PEAK_RSS = fileURLToPath(new URL('./peak-rss.mjs', import.meta.url));
/** A file changed in the last 2 s is re-read by every build (racily clean, compiler/read.ts): a fresh copy waits it out. */
const RACY_WAIT_MS = 2_100;

export interface ProcessTimes {
  /** Medians, seconds. */
  fullS: number;
  unchangedS: number;
  editS: number;
  /** Highest peak RSS of any of the processes, MiB (the full builds set it). */
  peakMb: number;
  /** Full builds, and builds of each other case. */
  runs: number;
  repeatRuns: number;
}

/**
 * `runs` full builds (each into new folders), then `repeatRuns` builds of each other case (cheap
 * next to a full build, so more of them steady the median), medians of wall time.
 */
export async function measureBuildProcesses(specsDir: string, runs: number, repeatRuns = runs): Promise<ProcessTimes | null> {
  if (!existsSync(CLI)) return null;
  // Removed when the bench ends (bench/scratch.ts): a clean-up here would slow the next size's file creation.
  const root = await scratchDir('kdd-bench-process-');
  const specs = join(root, 'specs');
  await cp(specsDir, specs, { recursive: true });
  await sleep(RACY_WAIT_MS);
  const paths = await listSpecPaths(specs);
  let peakKb = 0;
  const kdd = async (out: string) => {
    const started = performance.now();
    const { stderr } = await run([...['--import', PEAK_RSS], CLI, 'build', specs, '--out', join(root, out, 'dist'), '--index-dir', join(root, out, '.kdd-index')]);
    const seconds = (performance.now() - started) / 1000;
    peakKb = Math.max(peakKb, Number(/kdd-bench-peak-rss-kb (\d+)/.exec(stderr)?.[1] ?? 0));
    return seconds;
  };
  const full: number[] = [];
  for (let i = 0; i < runs; i++) full.push(await kdd(`full-${i}`));
  // The last full build's folders are the previous build of the other two cases.
  const last = `full-${runs - 1}`;
  const unchanged: number[] = [];
  for (let i = 0; i < repeatRuns; i++) unchanged.push(await kdd(last));
  const edit: number[] = [];
  for (let i = 0; i < repeatRuns; i++) {
    const path = paths[(i * 7919) % paths.length]!;
    // A Gherkin comment keeps a feature file valid; a paragraph for Markdown.
    await appendFile(join(specs, path), path.endsWith('.feature') ? `\n# Edit ${i}.\n` : `\nEdit ${i}.\n`);
    edit.push(await kdd(last));
  }
  return { fullS: median(full), unchangedS: median(unchanged), editS: median(edit), peakMb: peakKb / 1024, runs, repeatRuns };
}

function run(args: string[]): Promise<{ stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { maxBuffer: 64 * 1024 * 1024 }, (error, _stdout, stderr) => (error ? reject(new Error(`kdd build failed: ${stderr || error.message}`)) : resolve({ stderr })));
  });
}
