/**
 * Crash safety: a `kdd build` process dies at a point chosen by fast-check (fixed seed) among every
 * pass through a fault point of every stage — read, extract, link, pack, each atomic write (before
 * its temp file and before its rename), each removal — or at a random moment (SIGKILL from outside),
 * then a plain `kdd build` runs. Every time, the bundle and `kdd.json` must be the bytes of a clean
 * full build of the same specs, and `.kdd-index/` the bytes an uninterrupted build leaves.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, KDD_ENGINE_SPECS } from '../helpers/temp-tree.js';

const CLI = new URL('../../build/cli/main.js', import.meta.url).pathname;
const SOURCE = existsSync(KDD_ENGINE_SPECS) ? KDD_ENGINE_SPECS : join(FIXTURES, 'shop');
const STAGES = ['read', 'extract', 'link', 'pack', 'write', 'remove'] as const;
/** fast-check runs per prior state: with and without a previous index. */
const FAULT_RUNS = 36;
const DELAY_RUNS = 8;

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

function kdd(cwd: string, args: string[], env: Record<string, string> = {}, killAfterMs?: number): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, KDD_FAULT_AT: '', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = killAfterMs === undefined ? null : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('error', fail);
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      done({ code, signal, stderr });
    });
  });
}

const build = (cwd: string, env: Record<string, string> = {}, killAfterMs?: number) => kdd(cwd, ['build', 'specs', '--level', 'L1'], env, killAfterMs);

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/')).sort();
}

/** `.kdd-index/` without its local caches, as path → bytes. */
async function indexFiles(dir: string): Promise<Map<string, string>> {
  const files = (await listFiles(join(dir, '.kdd-index'))).filter((path) => !path.startsWith('.cache/'));
  return new Map(await Promise.all(files.map(async (path) => [path, await readFile(join(dir, '.kdd-index', path), 'utf8')] as const)));
}

/** The pointer and the bundle it names; and no leftover temp file in dist/. */
async function distState(dir: string): Promise<{ pointer: string; bundle: Buffer; temps: string[] }> {
  const pointer = await readFile(join(dir, 'dist', 'kdd.json'), 'utf8');
  const bundle = await readFile(join(dir, 'dist', (JSON.parse(pointer) as { bundle: string }).bundle));
  const temps = (await readdir(join(dir, 'dist'))).filter((name) => name.endsWith('.tmp'));
  return { pointer, bundle, temps };
}

/** The edit the killed build indexes: one spec changed, one added, one deleted, one link added. */
async function editSpecs(specs: string): Promise<void> {
  const files = (await listFiles(specs)).filter((path) => path.endsWith('.md'));
  const [changed, deleted, linked] = [files[files.length - 1]!, files[1]!, files[2]!];
  await writeFile(join(specs, changed), `${await readFile(join(specs, changed), 'utf8')}\nA sentence with zzqxfaultword.\n`);
  await unlink(join(specs, deleted));
  await writeFile(join(specs, linked), `${await readFile(join(specs, linked), 'utf8')}\nSee [[${files[3]!.replace(/^.*\//, '').replace(/\.md$/, '')}]].\n`);
  await writeFile(join(specs, 'zz-added.md'), '---\nkind: business-rule\nid: BR-FAULT-001\n---\n# BR-FAULT-001\n\n## Declaración\n\nAdded during the faults suite.\n');
}

let root: string;
/** Prior states: a copy of the specs before the edit with the index it built, and nothing built. */
let built: string;
let empty: string;
let reference: { index: Map<string, string>; pointer: string; bundle: Buffer; indexFromNothing: Map<string, string>; pointerFromNothing: string };
let tried = 0;

async function scenario(prior: string): Promise<string> {
  const dir = await mkdtemp(join(root, 'run-'));
  await cp(prior, dir, { recursive: true });
  return dir;
}

async function expectClean(dir: string, fromNothing: boolean, label: string): Promise<void> {
  const recovery = await build(dir);
  expect(recovery.code, `${label}: ${recovery.stderr}`).toBe(0);
  const dist = await distState(dir);
  expect(dist.temps, label).toEqual([]);
  expect(dist.pointer, label).toBe(fromNothing ? reference.pointerFromNothing : reference.pointer);
  expect(dist.bundle.equals(reference.bundle), `${label}: bundle bytes`).toBe(true);
  expect(await indexFiles(dir), label).toEqual(fromNothing ? reference.indexFromNothing : reference.index);
  await rm(dir, { recursive: true, force: true });
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'kdd-faults-'));
  built = join(root, 'built');
  await cp(SOURCE, join(built, 'specs'), { recursive: true });
  expect((await build(built)).code).toBe(0);
  await editSpecs(join(built, 'specs'));
  empty = join(root, 'empty');
  await cp(join(built, 'specs'), join(empty, 'specs'), { recursive: true });
  // References: a clean full build of the edited specs, and the index an uninterrupted build leaves.
  const clean = await scenario(empty);
  expect((await build(clean)).code).toBe(0);
  const uninterrupted = await scenario(built);
  expect((await build(uninterrupted)).code).toBe(0);
  // The pointer's `sizes` count the committed index, whose tombstones differ with and without a previous index.
  const cleanDist = await distState(clean);
  const uninterruptedDist = await distState(uninterrupted);
  reference = { index: await indexFiles(uninterrupted), pointer: uninterruptedDist.pointer, bundle: cleanDist.bundle, indexFromNothing: await indexFiles(clean), pointerFromNothing: cleanDist.pointer };
  expect(uninterruptedDist.bundle.equals(reference.bundle)).toBe(true);
  expect(JSON.parse(uninterruptedDist.pointer).bundle).toBe(JSON.parse(cleanDist.pointer).bundle);
});

afterAll(async () => {
  console.log(`faults suite: ${tried} interrupted builds, each followed by a recovery build equal to a clean build`);
  await rm(root, { recursive: true, force: true });
});

describe.each([
  ['a previous index', () => built, false],
  ['no previous index', () => empty, true],
] as const)('a build killed with %s', (_, prior, fromNothing) => {
  it('ends in clean-build bytes after the next build, wherever it was killed', async () => {
    const counting = await scenario(prior());
    const counted = await build(counting, { KDD_FAULT_AT: 'count' });
    expect(counted.code).toBe(0);
    const counts = JSON.parse(/KDD_FAULT_COUNTS (.*)/.exec(counted.stderr)![1]!) as Record<string, number>;
    await rm(counting, { recursive: true, force: true });
    const stages = STAGES.filter((stage) => (counts[stage] ?? 0) > 0);
    expect(stages).toEqual(expect.arrayContaining(['read', 'extract', 'link', 'pack', 'write']));
    const point = fc.record({ stage: fc.constantFrom(...stages), at: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), mode: fc.constantFrom('kill', 'kill', 'throw') });
    await fc.assert(
      fc.asyncProperty(point, async ({ stage, at, mode }) => {
        const n = 1 + Math.floor(at * counts[stage]!);
        const dir = await scenario(prior());
        const killed = await build(dir, { KDD_FAULT_AT: `${stage}:${n}`, ...(mode === 'throw' ? { KDD_FAULT_MODE: 'throw' } : {}) });
        // A thrown fault inside a cache write is swallowed by design (caches are optional): the build may succeed.
        if (mode === 'kill') expect(killed.signal, `${stage}:${n} should have killed the build`).toBe('SIGKILL');
        tried++;
        await expectClean(dir, fromNothing, `${mode} at ${stage}:${n} of ${counts[stage]}`);
      }),
      { numRuns: FAULT_RUNS },
    );
  });

  // Every write and removal, not a sample: the order of the writes is what keeps a deletion's
  // tombstone from being lost when the manifest has already moved on.
  it('ends in clean-build bytes after a kill at each write and removal', async () => {
    const counting = await scenario(prior());
    const counts = JSON.parse(/KDD_FAULT_COUNTS (.*)/.exec((await build(counting, { KDD_FAULT_AT: 'count' })).stderr)![1]!) as Record<string, number>;
    await rm(counting, { recursive: true, force: true });
    for (const stage of ['write', 'remove'] as const) {
      for (let n = 1; n <= (counts[stage] ?? 0); n++) {
        const dir = await scenario(prior());
        const killed = await build(dir, { KDD_FAULT_AT: `${stage}:${n}` });
        expect(killed.signal, `${stage}:${n} should have killed the build`).toBe('SIGKILL');
        tried++;
        await expectClean(dir, fromNothing, `kill at ${stage}:${n} of ${counts[stage]}`);
      }
    }
  });

  it('ends in clean-build bytes after a SIGKILL at a random moment', async () => {
    const timing = await scenario(prior());
    const started = performance.now();
    await build(timing);
    const duration = performance.now() - started;
    await rm(timing, { recursive: true, force: true });
    await fc.assert(
      fc.asyncProperty(fc.double({ min: 0.3, max: 1, noNaN: true }), async (share) => {
        const dir = await scenario(prior());
        await build(dir, {}, Math.round(share * duration));
        tried++;
        await expectClean(dir, fromNothing, `SIGKILL after ${Math.round(share * duration)} ms`);
      }),
      { numRuns: DELAY_RUNS },
    );
  });
});
