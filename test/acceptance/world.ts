/**
 * The per-scenario world: a temp folder the scenario builds its fixture tree in, the real CLI run
 * in-process (`runCli`), git, environment overrides and a network guard, all undone by
 * {@link World.dispose}.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { runCli } from '../../cli/main.js';
import type { GherkinStep } from '../../compiler/parse/types.js';
import { loadBundle } from '../../library/load-bundle.js';
import type { KddIndex } from '../../runtime/kdd-index.js';

const exec = promisify(execFile);

/** Thrown by {@link World.stop}; the runner ends the scenario as pending. */
export class StopScenario extends Error {}

export const REPO_ROOT = resolve(new URL('../..', import.meta.url).pathname);

export interface CliRun {
  argv: string[];
  cwd: string;
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

export interface NetworkAttempt {
  host: string;
  port: number | string;
}

const LOOPBACK = /^(127\.|::1$|localhost$|::ffff:127\.)/;

export class World {
  readonly feature: string;
  readonly scenario: string;
  readonly file: string;
  /** Temp folder of this scenario; removed on dispose. */
  root = '';
  /** Where CLI commands run unless told otherwise. */
  cwd = '';
  step: GherkinStep | null = null;
  last: CliRun | null = null;
  readonly runs: CliRun[] = [];
  /** Free-form state shared between the steps of one scenario. */
  readonly vars: Record<string, unknown> = {};
  /** Timings the scenario names (`< 2 s`…): recorded, never asserted (benchmarks do that). */
  readonly timings: Record<string, number> = {};
  readonly pendingReasons: string[] = [];
  readonly network: NetworkAttempt[] = [];
  private readonly cleanups: (() => unknown)[] = [];
  private readonly envBackup = new Map<string, string | undefined>();

  constructor(info: { feature: string; scenario: string; file: string }) {
    this.feature = info.feature;
    this.scenario = info.scenario;
    this.file = info.file;
  }

  async init(): Promise<void> {
    if (this.root) return;
    this.root = await mkdtemp(join(tmpdir(), 'kdd-acceptance-'));
    this.cwd = this.root;
    // Hermetic by default: no model from the developer's cache turns an L1 scenario into L2.
    await mkdir(join(this.root, '.no-models'));
    this.setEnv('KDD_MODELS_DIR', join(this.root, '.no-models'));
  }

  /** Marks the scenario pending (product feature missing); later steps still run. */
  pending(reason: string): void {
    if (!this.pendingReasons.includes(reason)) this.pendingReasons.push(reason);
  }

  /** Marks the scenario pending and stops it: nothing after this step can be checked meaningfully. */
  stop(reason: string): never {
    this.pending(reason);
    throw new StopScenario(reason);
  }

  path(...parts: string[]): string {
    return resolve(this.cwd, ...parts);
  }

  async write(relative: string, content: string | Uint8Array, base = this.cwd): Promise<string> {
    const full = resolve(base, relative);
    await mkdir(dirname(full), { recursive: true });
    await writeFile(full, content);
    return full;
  }

  async read(relative: string, base = this.cwd): Promise<string> {
    return readFile(resolve(base, relative), 'utf8');
  }

  exists(relative: string, base = this.cwd): boolean {
    return existsSync(resolve(base, relative));
  }

  async readJson<T = Record<string, unknown>>(relative: string, base = this.cwd): Promise<T> {
    return JSON.parse(await this.read(relative, base)) as T;
  }

  /** Copies this repository's `specs/` tree to `<cwd>/<target>`. */
  async copyRepoSpecs(target = 'specs', base = this.cwd): Promise<void> {
    await cp(join(REPO_ROOT, 'specs'), resolve(base, target), { recursive: true });
  }

  /** Runs `kdd …` in-process. `kdd` as first word is optional. */
  async kdd(argv: string[] | string, options: { cwd?: string } = {}): Promise<CliRun> {
    let args = typeof argv === 'string' ? splitArgs(argv) : [...argv];
    if (args[0] === 'kdd') args = args.slice(1);
    const out: string[] = [];
    const err: string[] = [];
    const cwd = options.cwd ?? this.cwd;
    const started = performance.now();
    const code = await runCli(args, { stdout: (s) => void out.push(s), stderr: (s) => void err.push(s), isTTY: false, cwd });
    const run: CliRun = { argv: args, cwd, code, stdout: out.join(''), stderr: err.join(''), ms: performance.now() - started };
    this.last = run;
    this.runs.push(run);
    return run;
  }

  /** The last command's stdout as JSON. */
  lastJson<T = Record<string, unknown>>(): T {
    if (!this.last) throw new Error('No command has run yet');
    try {
      return JSON.parse(this.last.stdout) as T;
    } catch {
      throw new Error(`stdout of "kdd ${this.last.argv.join(' ')}" is not JSON (exit ${this.last.code}):\n${this.last.stdout.slice(0, 2000)}\nstderr:\n${this.last.stderr.slice(0, 2000)}`);
    }
  }

  async git(args: string[], options: { cwd?: string; date?: string } = {}): Promise<string> {
    const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: this.root, GIT_AUTHOR_NAME: 'Acceptance', GIT_AUTHOR_EMAIL: 'acceptance@example.com', GIT_COMMITTER_NAME: 'Acceptance', GIT_COMMITTER_EMAIL: 'acceptance@example.com' };
    if (options.date) Object.assign(env, { GIT_AUTHOR_DATE: options.date, GIT_COMMITTER_DATE: options.date });
    const { stdout } = await exec('git', args, { cwd: options.cwd ?? this.cwd, env, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  }

  async gitInit(cwd = this.cwd): Promise<void> {
    await this.git(['init', '-q', '-b', 'main'], { cwd });
    await this.git(['config', 'commit.gpgsign', 'false'], { cwd });
  }

  /** `git add -A && git commit`; returns the new HEAD. */
  async commitAll(message: string, options: { cwd?: string; date?: string } = {}): Promise<string> {
    await this.git(['add', '-A'], options);
    await this.git(['commit', '-q', '--allow-empty', '-m', message], options);
    return (await this.git(['rev-parse', 'HEAD'], options)).trim();
  }

  /** Loads the bundle `dist/kdd.json` (or `dir`) names, with the product's loader. */
  async index(dir = 'dist'): Promise<KddIndex> {
    return loadBundle(resolve(this.cwd, dir));
  }

  setEnv(name: string, value: string | undefined): void {
    if (!this.envBackup.has(name)) this.envBackup.set(name, process.env[name]);
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }

  /**
   * Makes every non-loopback TCP connection (http, https, fetch/undici all go through
   * `net.Socket.prototype.connect`) and every non-loopback `fetch` fail, and records it.
   */
  blockNetwork(): void {
    if (this.vars.networkBlocked) return;
    this.vars.networkBlocked = true;
    const attempts = this.network;
    const originalConnect = net.Socket.prototype.connect;
    const originalFetch = globalThis.fetch;
    const refuse = (host: string, port: number | string) => {
      attempts.push({ host, port });
      return new Error(`acceptance: network is off (connection to ${host}:${port} refused)`);
    };
    net.Socket.prototype.connect = function patched(this: net.Socket, ...args: unknown[]) {
      const first = args[0] as { host?: string; port?: number; path?: string } | number | string;
      const options = typeof first === 'object' && first !== null ? first : { port: first as number, host: typeof args[1] === 'string' ? (args[1] as string) : 'localhost' };
      const host = options.host ?? 'localhost';
      if (!('path' in options && options.path) && !LOOPBACK.test(host)) {
        const error = refuse(host, options.port ?? '?');
        process.nextTick(() => this.destroy(error));
        return this;
      }
      return (originalConnect as (...a: unknown[]) => net.Socket).apply(this, args);
    } as typeof net.Socket.prototype.connect;
    globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
      if (!LOOPBACK.test(url.hostname)) throw refuse(url.hostname, url.port || url.protocol);
      return originalFetch(input, init);
    }) as typeof fetch;
    this.onDispose(() => {
      net.Socket.prototype.connect = originalConnect;
      globalThis.fetch = originalFetch;
    });
  }

  onDispose(fn: () => unknown): void {
    this.cleanups.push(fn);
  }

  async dispose(): Promise<void> {
    for (const fn of this.cleanups.reverse()) {
      try {
        await fn();
      } catch {
        // best effort
      }
    }
    for (const [name, value] of this.envBackup) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    if (this.root) await rm(this.root, { recursive: true, force: true });
  }
}

/** Shell-like split: whitespace-separated, with '…' and "…" quoting. */
export function splitArgs(command: string): string[] {
  const args: string[] = [];
  const pattern = /'([^']*)'|"([^"]*)"|(\S+)/g;
  for (const match of command.matchAll(pattern)) args.push(match[1] ?? match[2] ?? match[3]!);
  return args;
}
