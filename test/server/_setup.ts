/**
 * Shared setup for the server tests: a real bundle built from `test/fixtures/kinds` into a temp
 * folder, a server on a free loopback port, and a raw HTTP client (exact paths, bounded time).
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from '../../compiler/pipeline.js';
import { createServer, type KddServer, type ServeOptions } from '../../server/http.js';

export const FIXTURE_SPECS = new URL('../fixtures/kinds/', import.meta.url).pathname;

export interface FixtureDist {
  /** Temp root holding `specs/`, `dist/`, `.kdd-index/`. */
  root: string;
  specs: string;
  dist: string;
  hash: string;
  nodes: number;
  /** Rebuilds the (possibly edited) specs into the same dist; returns the new hash. */
  rebuild(): Promise<{ hash: string; nodes: number }>;
  remove(): Promise<void>;
}

/** Copies the fixture specs to a temp folder (so tests may edit them) and builds them. */
export async function buildFixtureDist(): Promise<FixtureDist> {
  const root = await mkdtemp(join(tmpdir(), 'kdd-serve-'));
  const specs = join(root, 'specs');
  const dist = join(root, 'dist');
  await cp(FIXTURE_SPECS, specs, { recursive: true });
  const rebuild = async () => {
    const report = await build({ specsDir: specs, outDir: dist, indexDir: join(root, '.kdd-index') });
    return { hash: report.bundle.hash, nodes: report.nodes };
  };
  const first = await rebuild();
  return { root, specs, dist, ...first, rebuild, remove: () => rm(root, { recursive: true, force: true }) };
}

export interface Running {
  server: KddServer;
  url: string;
  port: number;
  logs: string[];
  close(): Promise<void>;
}

/** A server on 127.0.0.1:0 with a fast watcher; log lines are captured instead of printed. */
export async function startServer(options: Partial<ServeOptions> & { dir: string }): Promise<Running> {
  const logs: string[] = [];
  const server = createServer({ log: (line) => logs.push(line), holder: { pollMs: 100, debounceMs: 20 }, ...options });
  const { url, port } = await server.listen(0, '127.0.0.1');
  await server.holder.ready;
  return { server, url, port, logs, close: () => server.close() };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json(): any;
}

const agent = new Agent({ keepAlive: true, maxSockets: 32 });

/**
 * One request with the path sent exactly as given (no normalisation, unlike fetch) and a hard
 * time limit: a hang fails the test instead of stalling it.
 */
export function raw(
  port: number,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer; timeoutMs?: number },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method: options.method ?? 'GET', path: options.path, headers: options.headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          clearTimeout(timer);
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) });
        });
        res.on('error', reject);
      },
    );
    const timer = setTimeout(() => req.destroy(new Error(`request timed out: ${options.method ?? 'GET'} ${options.path}`)), options.timeoutMs ?? 5000);
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.end(options.body);
  });
}

export const postJson = (port: number, path: string, body: unknown) =>
  raw(port, { method: 'POST', path, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
