/**
 * The way teams get kdd-index: `npm pack`, the tarball installed into an empty project that holds a
 * copy of a specs tree, and there `npx kdd build`, `npx kdd context …` and the README's library
 * example. Catches what the in-repository suites cannot: a file missing from `files`, a source
 * import that the build does not emit, a dev dependency needed at run time, a broken `bin`.
 *
 * Slow (packs, installs ~150 packages): its own script, `npm run test:package`, run by `.ci/run`.
 * Tarballs come from the npm cache `npm ci` filled; `--prefer-offline` still asks the registry for
 * the package metadata it has not cached (a project's lockfile pins tarballs, not metadata).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO = new URL('../..', import.meta.url).pathname;
const README = readFileSync(join(REPO, 'README.md'), 'utf8');
// onnxruntime-node (an optional dependency's dependency) would otherwise download CUDA binaries on Linux x64.
const ENV = { ...process.env, ONNXRUNTIME_NODE_INSTALL_CUDA: 'skip', npm_config_fund: 'false', npm_config_audit: 'false' };

let work: string;
let project: string;

function run(command: string, args: string[], cwd = project) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: ENV, timeout: 240_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The README's first `kdd context "…"` example, as the words a shell would pass. */
function readmeContextQuery(): string {
  const match = /^kdd context "([^"]+)"/m.exec(README);
  if (!match) throw new Error('README has no kdd context example');
  return match[1]!;
}

/** The README's library example (the ts block under "### Library"). */
function readmeLibraryExample(): string {
  const match = /### Library\s+```ts\n([\s\S]*?)```/.exec(README);
  if (!match) throw new Error('README has no library example');
  return match[1]!;
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'kdd-package-'));
  // `npm pack` runs `prepare` (compiles build/ and the site), as publishing would.
  execFileSync('npm', ['pack', '--pack-destination', work], { cwd: REPO, env: ENV, stdio: 'pipe' });
  const tarball = join(work, readdirSync(work).find((file) => file.endsWith('.tgz'))!);
  project = join(work, 'project');
  cpSync(join(REPO, 'specs'), join(project, 'specs'), { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'team-specs', version: '1.0.0', private: true, type: 'module' }));
  const install = run('npm', ['install', tarball, '--prefer-offline']);
  expect(install.code, install.stderr).toBe(0);
}, 300_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the packed tarball in an empty project', () => {
  it('ships the compiled CLI, library and site, and no sources or tests', () => {
    const installed = join(project, 'node_modules/kdd-index');
    const top = readdirSync(installed).sort();
    expect(top).toEqual(['LICENSE', 'README.md', 'build', 'package.json'].filter((name) => top.includes(name)));
    expect(readdirSync(join(installed, 'build'))).toEqual(expect.arrayContaining(['cli', 'index.js', 'runtime', 'site-app']));
  });

  it('npx kdd build indexes the specs tree', () => {
    const build = run('npx', ['--no-install', 'kdd', 'build']);
    expect(build.code, build.stderr).toBe(0);
    expect(build.stdout).toMatch(/^kdd build: \d+ files → [1-9]\d* nodes, [1-9]\d* edges/);
  }, 120_000);

  it("npx kdd context answers the README's query", () => {
    const context = run('npx', ['--no-install', 'kdd', 'context', readmeContextQuery(), '--json']);
    expect(context.code, context.stderr).toBe(0);
    expect((JSON.parse(context.stdout) as { results: unknown[] }).results.length).toBeGreaterThan(0);
  }, 60_000);

  it("the README's library example runs against the installed package", () => {
    const example = `${readmeLibraryExample()}\nconsole.log(JSON.stringify({ context: answer.results.length, impact: impact.directly_affected.length, chunks: passages.results.length }));\n`;
    writeFileSync(join(project, 'example.mjs'), example);
    const result = run(process.execPath, ['example.mjs']);
    expect(result.code, result.stderr).toBe(0);
    const counts = JSON.parse(result.stdout.trim().split('\n').at(-1)!) as Record<string, number>;
    for (const [answer, count] of Object.entries(counts)) expect(count, answer).toBeGreaterThan(0);
  }, 60_000);
});
