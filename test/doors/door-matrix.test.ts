/**
 * The door matrix: the same queries through the library, the CLI, HTTP (`kdd serve`) and MCP
 * (`kdd mcp`, spawned over stdio and driven by the SDK's client), on three set-ups of the same
 * specs — an L1 bundle, an L2 bundle built with the tiny test model and the model in the store,
 * and that L2 bundle with an empty model store (the lexical fallback) — asserting that every door
 * gives the same answer (same ranked ids, scores, snippets and warnings) and the same error code
 * for the same bad input. Only the per-call clock fields (`query_time_ms`, `timestamp`) differ.
 * `fetch` throws in this process: nothing may touch the network.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../cli/main.js';
import { build } from '../../compiler/pipeline.js';
import { openKnowledgeBase, type KnowledgeBase } from '../../library/knowledge-base.js';
import { QUERIES, type QueryName } from '../../runtime/queries/registry.js';
import { createServer, type KddServer } from '../../server/http.js';
import { capture } from '../helpers/cli-io.js';
import { FIXTURES } from '../helpers/temp-tree.js';
import { makeTinyModel } from '../helpers/tiny-model/make-tiny-model.js';
import { postJson, raw } from '../server/_setup.js';

const REPO = new URL('../../', import.meta.url).pathname;

interface Case {
  /** A registered query with every door (library, CLI, HTTP, MCP). */
  query: QueryName;
  params: Record<string, unknown>;
  /** The same call on the command line (without --bundle/--json/--models-dir). */
  argv: string[];
}

/** One call per query of the matrix; node references are given as people type them. */
const CASES: readonly Case[] = [
  { query: 'context', params: { query_text: 'cancelar pedido' }, argv: ['cancelar', 'pedido'] },
  { query: 'context', params: { query_text: 'reglas de compra', include_kinds: ['business-rule', 'entity'], limit: 3 }, argv: ['reglas', 'de', 'compra', '--kinds', 'business-rule,entity', '--limit', '3'] },
  { query: 'search', params: { query_text: 'pedido creado', min_score: 0 }, argv: ['pedido', 'creado', '--min-score', '0'] },
  { query: 'graph', params: { root_node: 'Pedido', depth: 1 }, argv: ['Pedido', '--depth', '1'] },
  { query: 'impact', params: { node_id: 'UC-001', change_type: 'remove' }, argv: ['UC-001', '--change-type', 'remove'] },
  { query: 'coverage', params: { node_id: 'Entity:Pedido' }, argv: ['Entity:Pedido'] },
  { query: 'violations', params: {}, argv: [] },
  { query: 'hints', params: { hints: ['Pedido', 'src/orders/pedido.ts'] }, argv: ['Pedido', 'src/orders/pedido.ts'] },
  { query: 'chunks', params: { query_text: 'cancelar pedido', top_k: 3 }, argv: ['cancelar', 'pedido', '--top-k', '3'] },
  { query: 'health', params: {}, argv: [] },
];

/** The same bad input at every door, and the code each must answer with. */
const BAD: readonly (Case & { code: string })[] = [
  { query: 'context', params: { query_text: 'ab' }, argv: ['ab'], code: 'QUERY_TOO_SHORT' },
  { query: 'search', params: { query_text: 'pedido', min_score: 2 }, argv: ['pedido', '--min-score', '2'], code: 'INVALID_SCORE_RANGE' },
  { query: 'graph', params: { root_node: 'Entity:Nope' }, argv: ['Entity:Nope'], code: 'NODE_NOT_FOUND' },
  { query: 'graph', params: { root_node: 'Pedido', depth: 9 }, argv: ['Pedido', '--depth', '9'], code: 'INVALID_DEPTH' },
  { query: 'impact', params: { node_id: 'Pedido', change_type: 'explode' }, argv: ['Pedido', '--change-type', 'explode'], code: 'INVALID_CHANGE_TYPE' },
  { query: 'coverage', params: { node_id: 'PRD-Tienda' }, argv: ['PRD-Tienda'], code: 'UNKNOWN_KIND' },
  { query: 'violations', params: { include_kinds: ['nope'] }, argv: ['--kinds', 'nope'], code: 'INVALID_PARAMS' },
  { query: 'hints', params: {}, argv: [], code: 'EMPTY_HINTS' },
  { query: 'chunks', params: { query_text: 'pedido', top_k: 50 }, argv: ['pedido', '--top-k', '50'], code: 'INVALID_PARAMS' },
];

interface Setup {
  name: string;
  dist: string;
  modelsDir: string;
  /** What the text queries must report: semantic at L2 with the model, lexical otherwise. */
  semantic: boolean;
}

interface Doors {
  library: KnowledgeBase;
  server: KddServer;
  port: number;
  mcp: Client;
}

let root: string;
const setups: Setup[] = [];
const doors = new Map<string, Doors>();

beforeAll(async () => {
  vi.stubGlobal('fetch', async (input: unknown) => {
    throw new Error(`network access attempted in a test: ${String(input)}`);
  });
  root = await mkdtemp(join(tmpdir(), 'kdd-doors-'));
  const store = join(root, 'models');
  const empty = join(root, 'no-models');
  await mkdir(empty);
  const folder = await makeTinyModel(store, { quantizedCopy: true });
  const specsDir = join(FIXTURES, 'kinds');
  const l1 = join(root, 'dist-l1');
  const l2 = join(root, 'dist-l2');
  await build({ specsDir, outDir: l1, indexDir: join(root, 'index-l1'), level: 'L1' });
  await build({ specsDir, outDir: l2, indexDir: join(root, 'index-l2'), embedder: folder, level: 'L2' });
  setups.push(
    { name: 'L1', dist: l1, modelsDir: store, semantic: false },
    { name: 'L2', dist: l2, modelsDir: store, semantic: true },
    { name: 'L2 without the model', dist: l2, modelsDir: empty, semantic: false },
  );
  await Promise.all(
    setups.map(async (setup) => {
      const library = await openKnowledgeBase(setup.dist, { modelsDir: setup.modelsDir });
      const server = createServer({ dir: setup.dist, log: () => {}, holder: { watch: false }, vectors: { modelsDir: setup.modelsDir } });
      const { port } = await server.listen(0, '127.0.0.1');
      await server.holder.ready;
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: ['--import', 'tsx', join(REPO, 'cli/main.ts'), 'mcp', setup.dist, '--models-dir', setup.modelsDir],
        cwd: REPO,
        stderr: 'ignore',
      });
      const mcp = new Client({ name: 'kdd-door-matrix', version: '1.0.0' });
      await mcp.connect(transport);
      doors.set(setup.name, { library, server, port, mcp });
    }),
  );
}, 90_000);

afterAll(async () => {
  for (const d of doors.values()) {
    await d.mcp.close();
    await d.server.close();
    await d.library.close();
  }
  vi.unstubAllGlobals();
  await rm(root, { recursive: true, force: true });
});

type Answer = { ok: true; body: any } | { ok: false; code: string };

/** Drops the fields that are the per-call clock, not the answer. */
function normalise(body: any): any {
  const copy = JSON.parse(JSON.stringify(body));
  if (copy?.metadata) {
    delete copy.metadata.query_time_ms;
    delete copy.metadata.timestamp;
  }
  return copy;
}

async function viaLibrary(d: Doors, c: Case): Promise<Answer> {
  const kb = d.library as unknown as Record<string, (p: unknown, o?: unknown) => Promise<unknown>>;
  try {
    return { ok: true, body: normalise(await kb[c.query]!(c.params)) };
  } catch (error) {
    return { ok: false, code: (error as { code: string }).code };
  }
}

async function viaCli(setup: Setup, c: Case): Promise<Answer> {
  const { io, out } = capture(REPO);
  const models = QUERIES[c.query].embeds ? ['--models-dir', setup.modelsDir] : [];
  const code = await runCli([QUERIES[c.query].doors.cli!, ...c.argv, '--bundle', setup.dist, '--json', ...models], io);
  const body = JSON.parse(out.join(''));
  return code === 0 ? { ok: true, body: normalise(body) } : { ok: false, code: body.error.code };
}

async function viaHttp(d: Doors, c: Case): Promise<Answer> {
  const { method, path } = QUERIES[c.query].doors.http!;
  let res;
  if (method === 'POST') {
    res = await postJson(d.port, path, c.params);
  } else {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(c.params)) for (const item of [value].flat()) search.append(key, String(item));
    res = await raw(d.port, { path: `${path}?${search}` });
  }
  const body = res.json();
  return res.status === 200 ? { ok: true, body: normalise(body) } : { ok: false, code: body.error.code };
}

async function viaMcp(d: Doors, c: Case): Promise<Answer> {
  // The SDK client checks structuredContent against the tool's outputSchema and throws on a mismatch.
  const result = await d.mcp.callTool({ name: QUERIES[c.query].doors.mcp!, arguments: c.params });
  if (result.isError) return { ok: false, code: JSON.parse((result.content as { text: string }[])[0]!.text).error.code };
  return { ok: true, body: normalise(result.structuredContent) };
}

async function allDoors(setup: Setup, c: Case): Promise<Record<'library' | 'cli' | 'http' | 'mcp', Answer>> {
  const d = doors.get(setup.name)!;
  return { library: await viaLibrary(d, c), cli: await viaCli(setup, c), http: await viaHttp(d, c), mcp: await viaMcp(d, c) };
}

describe.each(['L1', 'L2', 'L2 without the model'])('door matrix, %s bundle', (name) => {
  const setup = () => setups.find((s) => s.name === name)!;

  it.each(CASES.map((c) => [`${c.query} ${JSON.stringify(c.params)}`, c] as const))('%s: one answer at every door', async (_label, c) => {
    const answers = await allDoors(setup(), c);
    const reference = answers.library;
    expect(reference.ok, JSON.stringify(reference)).toBe(true);
    for (const door of ['cli', 'http', 'mcp'] as const) expect(answers[door], `${door} vs library`).toEqual(reference);
    const body = (reference as { body: any }).body;
    // The answer is real, not an empty agreement.
    const listed = body.results ?? body.related_nodes ?? body.directly_affected ?? body.required ?? body.constraints ?? body.violations ?? body.dangling;
    expect(Array.isArray(listed) && listed.length > 0, JSON.stringify(body).slice(0, 300)).toBe(true);
    if (QUERIES[c.query].embeds) {
      const strategy = body.retrieval_strategy ?? body.metadata.scoring;
      const warnings: { code: string; message: string }[] = body.warnings ?? body.metadata.warnings;
      expect(/semantic|cosine/.test(strategy), `${c.query} strategy ${strategy}`).toBe(setup().semantic);
      expect(warnings.some((w) => w.code === 'NO_EMBEDDINGS')).toBe(!setup().semantic);
      if (setup().name === 'L2 without the model') expect(warnings.find((w) => w.code === 'NO_EMBEDDINGS')!.message).toContain('kdd model pull tiny-e5-test');
    }
  });

  it.each(BAD.map((c) => [`${c.query} ${JSON.stringify(c.params)} → ${c.code}`, c] as const))('%s at every door', async (_label, c) => {
    const answers = await allDoors(setup(), c);
    for (const door of ['library', 'cli', 'http', 'mcp'] as const) expect(answers[door], door).toEqual({ ok: false, code: c.code });
  });
});

describe('door matrix: what people type', () => {
  it('node references resolve at every door (UC-001 → UC:UC-001, a title, a file name)', async () => {
    for (const ref of ['UC-001', 'UC:UC-001', '02-behavior/use-cases/UC-001-CrearPedido.md']) {
      const answers = await allDoors(setups[0]!, { query: 'impact', params: { node_id: ref }, argv: [ref] });
      for (const [door, answer] of Object.entries(answers)) expect((answer as { body: any }).body?.analyzed_node?.id, `${door} ${ref}`).toBe('UC:UC-001');
    }
  });

  it('the PRD spellings (query, kinds, node) mean the same at HTTP, MCP and the library', async () => {
    const d = doors.get('L1')!;
    const spelled = { query: 'search' as const, params: { query: 'pedido creado', kinds: ['event'], min_score: 0 }, argv: [] };
    const canonical = { ...spelled, params: { query_text: 'pedido creado', include_kinds: ['event'], min_score: 0 } };
    const expected = await viaLibrary(d, canonical);
    expect(expected.ok).toBe(true);
    expect(await viaLibrary(d, spelled)).toEqual(expected);
    expect(await viaHttp(d, spelled)).toEqual(expected);
    expect(await viaMcp(d, spelled)).toEqual(expected);
    const both = { ...spelled, params: { query: 'pedido', query_text: 'pedido' } };
    for (const answer of [await viaLibrary(d, both), await viaHttp(d, both), await viaMcp(d, both)]) expect(answer).toEqual({ ok: false, code: 'INVALID_PARAMS' });
  });

  it('a wrongly typed value is INVALID_PARAMS with a filled message, not a template', async () => {
    const d = doors.get('L1')!;
    const typed = { query: 'context' as const, params: { query_text: 123 }, argv: [] };
    for (const answer of [await viaLibrary(d, typed), await viaHttp(d, typed), await viaMcp(d, typed)]) expect(answer).toEqual({ ok: false, code: 'INVALID_PARAMS' });
    const res = await postJson(d.port, '/v1/retrieve/context', { query_text: 123 });
    expect(res.json().error.message).toBe("Invalid parameter 'query_text': must be a string");
  });
});
