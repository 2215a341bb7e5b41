import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../cli/main.js';
import { LOG_EVERY_MS, progressDisplay, TTY_REDRAW_MS } from '../../cli/progress.js';
import type { BuildProgress } from '../../compiler/progress.js';
import { capture } from '../helpers/cli-io.js';
import { tempTree, removedAfter } from '../helpers/temp-tree.js';

const roots = removedAfter('each');

const entity = (name: string, link: string) => `---\nkind: entity\n---\n# ${name}\n\n## Descripción\n\nUn ${name} de un [[${link}]].\n`;
const tree = () => tempTree(Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`specs/01-domain/entities/E${i}.md`, entity(`E${i}`, `E${(i + 1) % 12}`)])));
const PHASES = ['read', 'extract', 'link', 'emit', 'pack', 'write'];
const CLI = new URL('../../build/cli/main.js', import.meta.url).pathname;

/** The CLI as a child process with pipes (not a terminal): what a CI log gets. */
function run(cwd: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((done) => child.on('close', (code) => done({ code, stdout, stderr })));
}

describe('kdd build progress', () => {
  it('off a terminal: one line per phase on stderr, with counts and elapsed time; stdout holds only the report', async () => {
    const root = await tree();
    roots.push(root);
    const { code, stdout, stderr } = await run(root, ['build', 'specs', '--level', 'L1', '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).nodes).toBe(12); // --json: nothing but the report on stdout
    const lines = stderr.trimEnd().split('\n');
    expect(lines.map((line) => line.split(' ')[2])).toEqual(PHASES);
    expect(lines[0]).toMatch(/^kdd build: read 12\/12 files done · \d+ (ms|s)$/);
    expect(lines[1]).toMatch(/^kdd build: extract 12\/12 files done · \d/);
    expect(stderr).not.toMatch(/\r|\x1b/);
  });

  it('--quiet prints no progress, and still the summary', async () => {
    const root = await tree();
    roots.push(root);
    const { code, stdout, stderr } = await run(root, ['build', 'specs', '--level', 'L1', '--quiet']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toMatch(/12 files → 12 nodes, 12 edges/);
  });

  it('in process, an incremental build that keeps the bundle reports the phases it ran (no pack)', async () => {
    const root = await tree();
    roots.push(root);
    expect(await runCli(['build', 'specs', '--level', 'L1', '--quiet'], capture(root).io)).toBe(0);
    const { io, err } = capture(root);
    expect(await runCli(['build', 'specs', '--level', 'L1'], io)).toBe(0);
    expect(err.map((line) => line.split(' ')[2])).toEqual(['read', 'extract', 'link', 'emit', 'write']);
  });
});

describe('progress display', () => {
  const event = (state: BuildProgress['state'], done: number, elapsed_ms = 0): BuildProgress => ({ phase: 'extract', done, total: 10_000, elapsed_ms, state });

  it('off a terminal: within a phase, at most one line every few seconds, then one when it ends', () => {
    const lines: string[] = [];
    let clock = 0;
    const display = progressDisplay((text) => lines.push(text), false, () => clock);
    display.listener(event('start', 0));
    for (let done = 1; done <= 10_000; done++) {
      clock = done * 2; // 20 s in all: 2 ms a file
      display.listener(event('step', done, clock));
    }
    display.listener(event('end', 10_000, clock));
    display.finish();
    // One line per LOG_EVERY_MS of the phase (20 s / 5 s = 4, the last at 20 s itself), then the end.
    expect(lines).toHaveLength(Math.floor(20_000 / LOG_EVERY_MS) + 1);
    expect(lines[0]).toBe('kdd build: extract 2500/10000 files · 5.0 s\n');
    expect(lines.at(-1)).toBe('kdd build: extract 10000/10000 files done · 20.0 s\n');
  });

  it('on a terminal: one line redrawn in place at most every 100 ms, cleared at the end', () => {
    const out: string[] = [];
    let clock = 0;
    const display = progressDisplay((text) => out.push(text), true, () => clock);
    display.listener(event('start', 0));
    for (let done = 1; done <= 1_000; done++) {
      clock = done; // 1 s in all
      display.listener(event('step', done, clock));
    }
    display.listener(event('end', 1_000, clock));
    display.finish();
    expect(out.every((text) => text.startsWith('\r\x1b[K') && !text.includes('\n'))).toBe(true);
    expect(out.length).toBeLessThanOrEqual(2 + 1_000 / TTY_REDRAW_MS + 1);
    expect(out.at(-1)).toBe('\r\x1b[K');
  });
});
