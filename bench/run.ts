/**
 * `npm run bench [-- --sizes 54,1000,10000] [--scenario build,query]`
 *
 * Prepares one corpus per size (54 = the real kdd-engine corpus; larger sizes are generated once by
 * bench/generate.ts and cached under the OS temp dir, keyed by the generator's source and the
 * source corpus), then runs every scenario in bench/scenarios/ in turn. Tables go to stdout as
 * Markdown (they paste into bench/RESULTS.md); progress goes to stderr.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { compile, packCompiled } from '../compiler/pipeline.js';
import { listSpecPaths } from '../compiler/read.js';
import { DEFAULT_SEED, DEFAULT_SOURCE, generateCorpus } from './generate.js';
import { markdownTable, type BenchContext, type Corpus, type Scenario } from './scenario.js';
import { removeScratch } from './scratch.js';

const DEFAULT_SIZES = [54, 1_000, 10_000];
const SCENARIO_DIR = fileURLToPath(new URL('./scenarios/', import.meta.url));

interface Flags {
  sizes: number[];
  scenarios: string[] | null;
}

async function main(argv: string[]): Promise<void> {
  const flags = parseFlags(argv);
  if (!existsSync(DEFAULT_SOURCE)) {
    console.log(`bench: the real corpus (${DEFAULT_SOURCE}) is absent; nothing to measure.`);
    return;
  }
  const started = performance.now();
  const scenarios = await discoverScenarios(flags.scenarios);
  const corpora: Corpus[] = [];
  for (const size of flags.sizes) corpora.push(await prepareCorpus(size));
  const context = createContext();

  console.log(machineHeader(argv));
  try {
    await runScenarios(scenarios, corpora, context);
  } finally {
    // Only now: removing the scenarios' trees earlier would slow the file creation of later timed builds (bench/scratch.ts).
    await removeScratch();
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`\n- Bench wall time ${seconds} s; load average at end (1/5/15 min): ${loadAverage()}.`);
  log(`done in ${seconds} s`);
}

async function runScenarios(scenarios: readonly Scenario[], corpora: Corpus[], context: BenchContext): Promise<void> {
  for (const scenario of scenarios) {
    log(`scenario ${scenario.name}`);
    const result = await scenario.run(corpora, context);
    console.log(`\n## ${scenario.title}\n`);
    if ('skipped' in result) {
      console.log(`Skipped: ${result.skipped}.`);
      log(`scenario ${scenario.name} skipped: ${result.skipped}`);
      continue;
    }
    console.log(markdownTable(result));
    if (result.notes.length) console.log(`\n${result.notes.map((note) => `- ${note}`).join('\n')}`);
  }
}

function parseFlags(argv: readonly string[]): Flags {
  const value = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    const inline = argv.find((arg) => arg.startsWith(`--${name}=`));
    return inline ? inline.slice(name.length + 3) : i >= 0 ? argv[i + 1] : undefined;
  };
  const sizes = value('sizes')?.split(',').map((size) => Number(size.replace(/_/g, ''))) ?? DEFAULT_SIZES;
  if (sizes.some((size) => !Number.isInteger(size) || size < 1)) throw new Error(`bench: --sizes takes positive integers, e.g. --sizes 54,1000`);
  return { sizes: [...new Set(sizes)].sort((a, b) => a - b), scenarios: value('scenario')?.split(',') ?? null };
}

/** Every `bench/scenarios/*.ts` (not `_`-prefixed) whose default export is a Scenario, by file name. */
async function discoverScenarios(selected: string[] | null): Promise<Scenario[]> {
  const files = (await readdir(SCENARIO_DIR)).filter((file) => file.endsWith('.ts') && !file.startsWith('_')).sort();
  const names = files.map((file) => basename(file, '.ts'));
  const unknown = (selected ?? []).filter((name) => !names.includes(name));
  if (unknown.length) throw new Error(`bench: unknown scenario ${unknown.join(', ')} (have ${names.join(', ')})`);
  const scenarios: Scenario[] = [];
  for (const file of files) {
    if (selected && !selected.includes(basename(file, '.ts'))) continue;
    const module = (await import(pathToFileURL(join(SCENARIO_DIR, file)).href)) as { default?: Scenario };
    if (!module.default?.run) throw new Error(`bench: scenarios/${file} has no default-exported Scenario`);
    scenarios.push(module.default);
  }
  return scenarios;
}

/** The real corpus as is for its own size, else a cached generated tree. */
async function prepareCorpus(documents: number): Promise<Corpus> {
  const real = await listSpecPaths(DEFAULT_SOURCE);
  if (documents === real.length) return { documents, specsDir: DEFAULT_SOURCE, origin: 'real', ...(await measureTree(DEFAULT_SOURCE)) };
  const cache = join(tmpdir(), `kdd-bench-${documents}-${await generatorHash()}`);
  const specsDir = join(cache, 'specs');
  if (!existsSync(join(cache, 'corpus.json'))) {
    log(`generating ${documents} documents into ${cache}`);
    const staging = `${cache}.tmp-${process.pid}`;
    await rm(staging, { recursive: true, force: true });
    const generated = await generateCorpus(join(staging, 'specs'), documents, { seed: DEFAULT_SEED });
    await writeFile(join(staging, 'corpus.json'), `${JSON.stringify({ ...generated, dir: undefined }, null, 2)}\n`);
    await rm(cache, { recursive: true, force: true });
    await rename(staging, cache);
  } else log(`reusing ${cache}`);
  return { documents, specsDir, origin: 'generated', ...(await measureTree(specsDir)) };
}

async function measureTree(dir: string): Promise<{ files: number; bytes: number }> {
  const paths = await listSpecPaths(dir);
  let bytes = 0;
  for (const path of paths) bytes += (await readFile(join(dir, path))).byteLength;
  return { files: paths.length, bytes };
}

/** Cache key: a change to the generator or to the corpus it copies makes new trees. */
async function generatorHash(): Promise<string> {
  const hash = createHash('sha256');
  hash.update(await readFile(new URL('./generate.ts', import.meta.url)));
  hash.update(String(DEFAULT_SEED));
  for (const path of await listSpecPaths(DEFAULT_SOURCE)) hash.update(path).update(await readFile(join(DEFAULT_SOURCE, path)));
  return hash.digest('hex').slice(0, 12);
}

function createContext(): BenchContext {
  const bundles = new Map<number, Uint8Array>();
  return {
    log,
    rememberBundle: (corpus, bytes) => bundles.set(corpus.documents, bytes),
    async bundle(corpus) {
      const known = bundles.get(corpus.documents);
      if (known) return known;
      log(`compiling ${corpus.documents} docs for their bundle`);
      const bytes = packCompiled(await compile({ specsDir: corpus.specsDir })).bytes;
      bundles.set(corpus.documents, bytes);
      return bytes;
    },
  };
}

function machineHeader(argv: readonly string[]): string {
  const cpu = cpuModel();
  const command = ['npm run bench', ...(argv.length ? ['--', ...argv] : [])].join(' ');
  return [
    '# kdd-index benchmarks',
    '',
    `- Machine: ${cpus().length} cores (${cpu}), ${Math.round(totalmem() / 1024 ** 3)} GiB, ${process.platform} ${process.arch}`,
    `- Node ${process.version}`,
    `- Command: \`${command}\``,
    `- Date: ${new Date().toISOString()}`,
    `- Load average at start (1/5/15 min): ${loadAverage()} — other processes on these ${cpus().length} cores skew the numbers`,
  ].join('\n');
}

/** `model name` from /proc/cpuinfo (Linux), else what Node reports. */
function cpuModel(): string {
  try {
    const info = readFileSync('/proc/cpuinfo', 'utf8');
    const model = /^model name\s*:\s*(.+)$/m.exec(info)?.[1];
    if (model) return model.trim();
  } catch {
    // Not Linux: fall through.
  }
  return cpus()[0]?.model.trim() ?? 'unknown CPU';
}

function loadAverage(): string {
  return loadavg().map((value) => value.toFixed(2)).join(' / ');
}


function log(message: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

await main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
});
