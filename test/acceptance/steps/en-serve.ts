/**
 * Product (English) steps for serve-and-mcp and docs-site.
 *
 * `kdd serve` / `kdd mcp`: when the command is registered in the CLI, the real binary is spawned
 * (`tsx cli/main.ts …`) and spoken to over HTTP / stdio. While it is not, the scenario is marked
 * pending for that reason and the same library entry points the commands wrap
 * (`server/http.ts createServer`, `server/mcp.ts createMcpServer`) are exercised in-process, so
 * the API itself is still checked.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect } from 'vitest';
import { defineStep } from '../runner.js';
import { commandExists } from '../support.js';
import { REPO_ROOT, type World } from '../world.js';
import { kdd } from './en-cli.js';

const TSX = join(REPO_ROOT, 'node_modules/.bin/tsx');
const CLI = join(REPO_ROOT, 'cli/main.ts');

interface Served {
  url: string;
  log: string[];
}

const served = (world: World) => world.vars.served as Served;

async function spawnServe(world: World, args: string[]): Promise<Served> {
  const child: ChildProcess = spawn(TSX, [CLI, ...args], { cwd: world.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  world.onDispose(() => child.kill('SIGTERM'));
  const log: string[] = [];
  child.stderr!.on('data', (d: Buffer) => log.push(d.toString()));
  const url = await new Promise<string>((done, fail) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error(`kdd serve did not report its URL in 20 s; stderr: ${log.join('')}`)), 20_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const match = /listening on (\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        done(match[1]!.replace(/\/$/, ''));
      }
    });
    child.once('exit', (code) => fail(new Error(`kdd serve exited ${code}: ${log.join('')}`)));
  });
  return { url, log };
}

defineStep(/^I started "kdd serve dist\/ --port 0" and noted the port$/, async (world) => {
  if (await commandExists('serve')) {
    world.vars.served = await spawnServe(world, ['serve', 'dist/', '--port', '0']);
    return;
  }
  world.pending('`kdd serve` is not registered in cli/main.ts COMMANDS (cli/commands/serve.ts exists): the HTTP API was tested through server/http.ts createServer');
  const { createServer } = await import('../../../server/http.js');
  const log: string[] = [];
  const server = createServer({ dir: world.path('dist'), log: (line) => void log.push(line), holder: { pollMs: 100, debounceMs: 20 } as never });
  const { url } = await server.listen(0, '127.0.0.1');
  await server.holder.ready;
  world.onDispose(() => server.close());
  world.vars.served = { url: url.replace(/\/$/, ''), log } satisfies Served;
});

async function request(world: World, method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${served(world).url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = { text };
  }
  world.vars.response = { status: response.status, json };
  return { status: response.status, json };
}

const response = (world: World) => world.vars.response as { status: number; json: Record<string, unknown> };

defineStep(/^I request "(GET|POST) ([^"]+)"$/, async (world, method, path) => {
  await request(world, method, path);
});

defineStep(/^I request "(GET|POST) ([^"]+)" with (\{.*\})$/, async (world, method, path, body) => {
  await request(world, method, path, JSON.parse(body));
});

defineStep(/^the status is (\d+)$/, (world, status) => {
  expect(response(world).status, `HTTP status; body ${JSON.stringify(response(world).json).slice(0, 400)}`).toBe(Number(status));
});

defineStep(/^the body has "status" equal to "([^"]+)" and "bundle" equal to the hash named in "dist\/kdd\.json"$/, async (world, status) => {
  const { hash } = await world.readJson<{ hash: string }>('dist/kdd.json');
  expect(response(world).json.status).toBe(status);
  expect(response(world).json.bundle).toBe(hash);
});

defineStep(/^the body has "bundle" equal to the file named in "dist\/kdd\.json" and "([^"]+)" equal to "([^"]+)"$/, async (world, field, value) => {
  const { bundle } = await world.readJson<{ bundle: string }>('dist/kdd.json');
  expect(response(world).json.bundle).toBe(bundle);
  expect(response(world).json[field], field).toBe(value);
});

defineStep(/^the body's error has "code" equal to "([^"]+)" and "message" equal to "([^"]+)"$/, (world, code, message) => {
  const error = response(world).json.error as { code: string; message: string } | undefined;
  expect(error, `body ${JSON.stringify(response(world).json)}`).toMatchObject({ code, message });
});

defineStep(/^the item node ids equal those of "(kdd search [^"]+)"$/, async (world, command) => {
  const http = response(world).json;
  const httpIds = ((http.items ?? http.results ?? []) as { node_id: string }[]).map((i) => i.node_id);
  const saved = world.vars.response;
  await kdd(world, command);
  world.vars.response = saved;
  const cli = world.lastJson();
  expect(httpIds).toEqual(((cli.items ?? cli.results ?? []) as { node_id: string }[]).map((i) => i.node_id));
});

defineStep(/^the body is (\{.*\})$/, (world, body) => {
  expect(response(world).json).toEqual(JSON.parse(body));
});

// ── Hot swap ───────────────────────────────────────────────────────────────────────────────

defineStep(/^a client sends "GET ([^"]+)" continuously from (\d+) connections$/, (world, path, connections) => {
  const statuses: number[] = [];
  let running = true;
  const loops = Array.from({ length: Number(connections) }, async () => {
    while (running) {
      try {
        const res = await fetch(`${served(world).url}${path}`);
        await res.arrayBuffer();
        statuses.push(res.status);
      } catch {
        statuses.push(0);
      }
    }
  });
  world.vars.load = { statuses, stop: async () => ((running = false), await Promise.all(loops)) };
  world.onDispose(() => (world.vars.load as { stop: () => Promise<void> }).stop());
});

defineStep(/^I change the title of "([^"]+)" and run "(kdd build specs\/)"$/, async (world, path, command) => {
  world.vars.previousBundle = (await world.readJson<{ bundle: string }>('dist/kdd.json')).bundle;
  await world.write(path, (await world.read(path)).replace(/^# .*$/m, '# Hints, retitled'));
  const run = await kdd(world, command);
  expect(run.code, run.stderr).toBe(0);
});

/** A functional wait, not a latency assertion: polls up to 10 s and records how long it took. */
defineStep(/^within (\d+) seconds "GET ([^"]+)" reports the new bundle name$/, async (world, seconds, path) => {
  const { bundle } = await world.readJson<{ bundle: string }>('dist/kdd.json');
  const started = performance.now();
  let seen: unknown;
  while (performance.now() - started < 10_000) {
    const answer = await request(world, 'GET', path);
    seen = answer.json.bundle;
    if (seen === bundle || answer.status !== 200) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  world.timings[`swap (limit ${seconds}s)`] = performance.now() - started;
  expect(seen, 'bundle reported after the rebuild').toBe(bundle);
});

defineStep(/^no request of the client received a status other than 200$/, async (world) => {
  const load = world.vars.load as { statuses: number[]; stop: () => Promise<void> };
  await load.stop();
  expect(load.statuses.length, 'requests sent').toBeGreaterThan(0);
  expect(load.statuses.filter((s) => s !== 200), 'non-200 answers').toEqual([]);
});

defineStep(/^I overwrite "dist\/kdd\.json" so that it names a file that does not exist$/, async (world) => {
  world.vars.previousBundle = (await world.readJson<{ bundle: string }>('dist/kdd.json')).bundle;
  const pointer = await world.readJson('dist/kdd.json');
  await writeFile(world.path('dist/kdd.json'), JSON.stringify({ ...pointer, bundle: 'kdd-000000000000.msgpack' }));
  await new Promise((r) => setTimeout(r, 1500));
});

defineStep(/^"GET ([^"]+)" still reports the previous bundle$/, async (world, path) => {
  expect((await request(world, 'GET', path)).json.bundle).toBe(world.vars.previousBundle);
});

defineStep(/^the server log contains "([^"]+)"$/, (world, text) => {
  expect(served(world).log.join('\n')).toContain(text);
});

// ── MCP ────────────────────────────────────────────────────────────────────────────────────

interface McpClient {
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(args: { name: string; arguments: Record<string, unknown> }): Promise<{ isError?: boolean; content: { type: string; text?: string }[]; structuredContent?: Record<string, unknown> }>;
  close(): Promise<void>;
}

defineStep(/^an MCP client launches "kdd mcp dist\/" over stdio and sends "initialize" then "tools\/list"$/, async (world) => {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const client = new Client({ name: 'acceptance', version: '0.0.0' });
  if (await commandExists('mcp')) {
    const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
    const transport = new StdioClientTransport({ command: TSX, args: [CLI, 'mcp', 'dist/'], cwd: world.cwd, stderr: 'pipe' });
    await client.connect(transport);
    world.vars.stdio = true;
  } else {
    world.pending('`kdd mcp` is not a command (no cli/commands/mcp.ts in cli/main.ts COMMANDS): the tools were tested through server/mcp.ts createMcpServer over an in-memory transport');
    const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js');
    const { createMcpServer } = await import('../../../server/mcp.js');
    const mcp = await createMcpServer({ dir: world.path('dist'), specsRoot: world.path('specs'), log: () => undefined });
    await mcp.holder.ready;
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcp.server.connect(serverSide);
    await client.connect(clientSide);
    world.onDispose(() => mcp.close());
  }
  world.onDispose(() => client.close());
  world.vars.mcp = client as unknown as McpClient;
  world.vars.tools = (await (client as unknown as McpClient).listTools()).tools.map((t) => t.name).sort();
});

defineStep(/^the tool names are (.+)$/, (world, list) => {
  const expected = [...list.matchAll(/"([^"]+)"/g)].map((m) => m[1]!).sort();
  expect(world.vars.tools, 'MCP tool names').toEqual(expected);
});

defineStep(/^the client calls "([^"]+)" with (.+)$/, async (world, tool, argText) => {
  const args: Record<string, unknown> = {};
  for (const m of argText.matchAll(/(\w+) (?:"([^"]+)"|(\d+))/g)) args[m[1]!] = m[2] ?? Number(m[3]);
  world.vars.toolResult = await (world.vars.mcp as McpClient).callTool({ name: tool, arguments: args });
});

/** An answer is the tool's structuredContent (its text block is Markdown for the model); an error is the JSON of its text. */
const toolJson = (world: World) => {
  const result = world.vars.toolResult as { isError?: boolean; content: { text?: string }[]; structuredContent?: Record<string, unknown> };
  const json = result.isError ? (JSON.parse(result.content[0]?.text ?? '{}') as Record<string, unknown>) : (result.structuredContent ?? {});
  return { isError: Boolean(result.isError), json };
};

defineStep(/^the result is not an error and its items include "([^"]+)"$/, (world, id) => {
  const { isError, json } = toolJson(world);
  expect(isError, JSON.stringify(json).slice(0, 300)).toBe(false);
  expect(JSON.stringify(json.items ?? json.results)).toContain(`"${id}"`);
});

defineStep(/^the result is an error with code "([^"]+)"$/, (world, code) => {
  const { isError, json } = toolJson(world);
  expect(isError).toBe(true);
  expect((json.error as { code?: string } | undefined)?.code, `error payload ${JSON.stringify(json)}`).toBe(code);
});

defineStep(/^nothing but JSON-RPC messages was written to stdout$/, (world) => {
  // The SDK's stdio client rejects any non-JSON-RPC line on stdout; reaching here over stdio proves it.
  if (!world.vars.stdio) world.pending('stdout purity can only be checked over stdio (`kdd mcp` missing)');
});

// ── Docs site ──────────────────────────────────────────────────────────────────────────────

defineStep(/^I ran "(kdd site)"$/, async (world, command) => {
  const run = await kdd(world, command);
  expect(run.code, run.stderr).toBe(0);
});

defineStep(/^a static file server serves "dist\/" on a local port$/, async (world) => {
  const { createServer } = await import('node:http');
  const sirv = (await import('sirv')).default;
  const handler = sirv(world.path('dist'), { dev: true });
  const server = createServer((req, res) => handler(req, res, () => {
    res.statusCode = 404;
    res.end();
  }));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  world.onDispose(() => new Promise((done) => server.close(done)));
  const address = server.address() as { port: number };
  world.vars.siteUrl = `http://127.0.0.1:${address.port}`;
});

defineStep(/^I list the files under "dist\/"$/, async (world) => {
  world.vars.siteFiles = (await readdir(world.path('dist'), { recursive: true })).map(String);
});

defineStep(/^"dist\/" contains (.+) and the bundle file named in "dist\/kdd\.json"$/, async (world, list) => {
  const { bundle } = await world.readJson<{ bundle: string }>('dist/kdd.json');
  const names = [...list.matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
  expect(world.vars.siteFiles).toEqual(expect.arrayContaining([...names, bundle]));
});

defineStep(/^the JavaScript a first view loads from "dist\/([^"]+)\/" totals at most (\d+) KB gzipped$/, async (world, folder, kb) => {
  const files = await firstViewScripts(world.path('dist'), folder);
  expect(files.length, `JavaScript files the first view of dist/index.html loads from ${folder}`).toBeGreaterThan(1);
  let total = 0;
  for (const f of files) total += gzipSync(await readFile(world.path('dist', folder, f))).length;
  expect(total / 1024).toBeLessThanOrEqual(Number(kb));
});

defineStep(/^the diagram renderer under "dist\/([^"]+)\/" is not among them$/, async (world, folder) => {
  const first = await firstViewScripts(world.path('dist'), folder);
  const all = (await readdir(world.path('dist', folder))).map(String);
  expect(all.some((f) => /^mermaid/.test(f)), 'a mermaid chunk is built').toBe(true);
  expect(first.filter((f) => /^mermaid/.test(f))).toEqual([]);
});

/**
 * The scripts of `folder` that opening `index.html` loads before any page-specific import: the entry
 * module, its static imports (transitively), and the worker it starts with theirs. Dynamic `import()`
 * chunks (the graph layout, the diagram renderer, pages) load only where they are used.
 */
async function firstViewScripts(dist: string, folder: string): Promise<string[]> {
  const html = await readFile(join(dist, 'index.html'), 'utf8');
  const pending = [...html.matchAll(/<script[^>]+src="\.?\/?([^"]+\.js)"/g)].map((m) => m[1]!.replace(`${folder}/`, ''));
  const seen = new Set<string>();
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = await readFile(join(dist, folder, file), 'utf8');
    // Static imports (`import … from "./x.js"`, `import "./x.js"`) and the worker entry; not `import("./x.js")`.
    for (const m of code.matchAll(/(?:\bfrom|\bimport)\s*["']\.\/([\w.-]+\.js)["']/g)) pending.push(m[1]!);
    for (const m of code.matchAll(/["'`(/]((?:worker)-[\w-]+\.js)["'`)]/g)) pending.push(m[1]!);
  }
  return [...seen].sort();
}

defineStep(/^"dist\/kdd-site\.json" names the bundle of "dist\/kdd\.json" as its source$/, async (world) => {
  const { bundle } = await world.readJson<{ bundle: string }>('dist/kdd.json');
  expect((await world.readJson<{ source: string }>('dist/kdd-site.json')).source).toBe(bundle);
});

defineStep(/^the static file server answers "\/" with the site's "index\.html"$/, async (world) => {
  const response = await fetch(`${String(world.vars.siteUrl)}/`);
  expect(response.status).toBe(200);
  expect(await response.text()).toBe(await world.read('dist/index.html'));
});

