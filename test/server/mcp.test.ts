/**
 * `kdd mcp` end to end: the real CLI spawned over stdio (through tsx), driven by the SDK's own
 * client — a real MCP client, which also checks every `structuredContent` against the tool's
 * `outputSchema` (it throws on a mismatch).
 */
import { symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureDist, type FixtureDist } from './_setup.js';

const REPO = new URL('../../', import.meta.url).pathname;

let dist: FixtureDist;
let client: Client;
let stderr = '';

beforeAll(async () => {
  dist = await buildFixtureDist();
  await writeFile(join(dist.root, 'secret.md'), '# Secret\n\nTOP-SECRET-CONTENT\n');
  await symlink(join(dist.root, 'secret.md'), join(dist.specs, 'escape.md'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', join(REPO, 'cli/main.ts'), 'mcp', dist.dist, '--specs-root', dist.specs],
    cwd: REPO,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  client = new Client({ name: 'kdd-test', version: '1.0.0' });
  await client.connect(transport);
  // The server answers only after its first load attempt; should that attempt have failed for a
  // transient reason, the holder retries every second. Wait for a loaded bundle, and say so.
  for (let i = 0; i < 100; i++) {
    const stats = await client.callTool({ name: 'kdd_stats', arguments: {} });
    if (!stats.isError) break;
    if (i === 0) console.warn(`kdd mcp: first call found no bundle; server stderr:\n${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}, 30_000);

afterAll(async () => {
  await client?.close();
  await dist?.remove();
});

interface ToolAnswer {
  isError: boolean;
  data: any;
  /** The Markdown block written for a model. */
  text: string;
}

/** Answers: `structuredContent`; tool errors: the `{error}` JSON of their text block. */
async function call(name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as { type: string; text: string }[];
  expect(content[0]?.type).toBe('text');
  const text = content[0]!.text;
  if (result.isError) return { isError: true, data: JSON.parse(text), text };
  expect(result.structuredContent, `${name} answers with structuredContent`).toBeTypeOf('object');
  return { isError: false, data: result.structuredContent, text };
}

const EXPECTED_TOOLS = [
  'kdd_chunks',
  'kdd_context',
  'kdd_coverage',
  'kdd_find_spec',
  'kdd_health',
  'kdd_hints',
  'kdd_impact',
  'kdd_layer_violations',
  'kdd_list',
  'kdd_read_section',
  'kdd_related',
  'kdd_search',
  'kdd_stats',
];

describe('kdd mcp over stdio', () => {
  it('lists every tool with a description and a JSON schema', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(EXPECTED_TOOLS);
    for (const tool of tools) {
      expect(tool.description!.length, tool.name).toBeGreaterThan(60);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(tool.annotations?.readOnlyHint).toBe(true);
    }
    const context = tools.find((t) => t.name === 'kdd_context')!;
    expect(context.inputSchema.required).toEqual(['query_text']);
    const properties = context.inputSchema.properties as Record<string, { minLength?: number; minimum?: number; maximum?: number; default?: unknown }>;
    expect(properties.query_text!.minLength).toBe(3);
    // The runtime's own range and default (the registry), not a copy that drifted.
    expect(properties.max_tokens).toMatchObject({ minimum: 1, default: 8000 });
    expect(properties.depth).toMatchObject({ minimum: 1, maximum: 5, default: 2 });
  });

  it('answers with structuredContent and a Markdown block naming ids, titles and files', async () => {
    const ctx = await call('kdd_context', { query_text: 'crear pedido', limit: 5 });
    expect(ctx.text).toMatch(/^## \d+ specs for the task/);
    for (const hit of ctx.data.results) {
      expect(ctx.text).toContain(`**${hit.node_id}** — ${hit.title}`);
      expect(ctx.text).toContain(`\`${hit.source_file}\``);
    }
    expect(ctx.text).toContain(`~${ctx.data.total_tokens} tokens`);
    expect(() => JSON.parse(ctx.text)).toThrow();
    // The passages the budget paid for are in the text a model reads, whole, under their headings.
    const passages = ctx.data.results.flatMap((hit: { passages?: { section: string; text: string }[] }) => hit.passages ?? []);
    expect(passages.length).toBeGreaterThan(0);
    for (const p of passages) {
      expect(ctx.text).toContain(`§${p.section}:`);
      for (const line of p.text.split('\n')) expect(ctx.text).toContain(`    ${line}`);
    }
  });

  it('with explain: true, the Markdown block says why each result ranked, as the structured answer does', async () => {
    for (const tool of ['kdd_context', 'kdd_search']) {
      const answer = await call(tool, { query_text: 'CMD-001', explain: true });
      expect(answer.data.results[0].why.exact).toBe('CMD-001');
      expect(answer.text).toContain('_why: matched: ');
      expect(answer.text).toContain('exact: "CMD-001"');
    }
    expect((await call('kdd_context', { query_text: 'CMD-001' })).text).not.toContain('_why:');
  });

  it('resolves short references and PRD spellings as every door does', async () => {
    const related = await call('kdd_related', { node: 'Pedido', depth: 1 });
    expect(related.data.center_node.id).toBe('Entity:Pedido');
    const impact = await call('kdd_impact', { node_id: 'UC-001' });
    expect(impact.data.analyzed_node.id).toBe('UC:UC-001');
    const typed = await call('kdd_context', { query_text: 123 });
    expect(typed.data.error).toEqual({ code: 'INVALID_PARAMS', message: "Invalid parameter 'query_text': must be a string" });
  });

  it('kdd_context and kdd_search rank the specs of the words asked', async () => {
    const ctx = await call('kdd_context', { query_text: 'crear pedido', limit: 5 });
    expect(ctx.isError, JSON.stringify(ctx.data) + stderr).toBe(false);
    expect(ctx.data.results.slice(0, 2).map((r: { node_id: string }) => r.node_id).sort()).toEqual(['CMD:CMD-001', 'UC:UC-001']);
    const found = await call('kdd_search', { query_text: 'pedido creado', include_kinds: ['event'], min_score: 0 });
    expect(found.data.results[0].node_id).toBe('EVT:EVT-Pedido-Creado');
  });

  it('kdd_find_spec resolves ids, names and file names', async () => {
    for (const query of ['Entity:Pedido', 'Pedido', 'Pedido.md', 'specs/01-domain/entities/Pedido.md']) {
      const { data } = await call('kdd_find_spec', { query });
      expect(data.matches.map((m: { id: string }) => m.id), query).toEqual(['Entity:Pedido']);
      expect(data.matches[0].headings.length).toBeGreaterThan(0);
    }
    const uc = await call('kdd_find_spec', { query: 'UC-001-CrearPedido.md' });
    expect(uc.data.matches[0].id).toBe('UC:UC-001');
    const none = await call('kdd_find_spec', { query: 'cancelación de pedido' });
    expect(none.data.matches).toEqual([]);
    expect(none.data.suggestions.length).toBeGreaterThan(0);
  });

  it('kdd_related, kdd_impact, kdd_coverage, kdd_hints answer from the graph', async () => {
    const related = await call('kdd_related', { node_id: 'Entity:Pedido', depth: 1, edge_types: ['ENTITY_RULE'] });
    expect(related.data.related_nodes.map((n: { id: string }) => n.id)).toContain('BR:BR-PEDIDO-001');
    const impact = await call('kdd_impact', { node_id: 'Entity:Pedido' });
    expect(impact.data.directly_affected.map((n: { id: string }) => n.id)).toContain('BR:BR-PEDIDO-001');
    const coverage = await call('kdd_coverage', { node_id: 'Entity:Pedido' });
    expect(coverage.data.analyzed_node.id).toBe('Entity:Pedido');
    const hints = await call('kdd_hints', { hints: ['src/orders/Pedido.ts'] });
    expect(hints.data.constraints.map((c: { node_id: string }) => c.node_id)).toContain('BR:BR-PEDIDO-001');
  });

  it('kdd_list pages, kdd_layer_violations, kdd_health and kdd_stats describe the index', async () => {
    const first = await call('kdd_list', { limit: 10 });
    expect(first.data.nodes).toHaveLength(10);
    expect(first.data.total).toBe(dist.nodes);
    const second = await call('kdd_list', { limit: 10, offset: first.data.next_offset });
    expect(second.data.nodes[0].id > first.data.nodes[9].id).toBe(true);
    const rules = await call('kdd_list', { kind: 'business-rule' });
    expect(rules.data.nodes.every((n: { kind: string }) => n.kind === 'business-rule')).toBe(true);
    expect((await call('kdd_layer_violations')).data.total_violations).toBeGreaterThan(0);
    expect((await call('kdd_health')).data.total_nodes).toBe(dist.nodes);
    expect((await call('kdd_stats')).data).toMatchObject({ hash: dist.hash, counts: { nodes: dist.nodes } });
  });

  it('kdd_read_section reads stored sections and raw files inside the specs root', async () => {
    const all = await call('kdd_read_section', { node_id: 'UC:UC-001' });
    expect(all.data.sections.map((s: { heading: string }) => s.heading)).toContain('Flujo Principal');
    const one = await call('kdd_read_section', { node_id: 'UC:UC-001', heading: 'flujo principal' });
    expect(one.data.text).toContain('CMD-001');
    const file = await call('kdd_read_section', { node_id: 'UC:UC-001', source: 'file', heading: 'Flujo Principal' });
    expect(file.data.text.startsWith('## Flujo Principal')).toBe(true);
    expect(file.data.text).toContain('[[');
    const byPath = await call('kdd_read_section', { path: '01-domain/entities/Pedido.md' });
    expect(byPath.data.text).toContain('# ');
    const missing = await call('kdd_read_section', { node_id: 'UC:UC-001', heading: 'Nope' });
    expect(missing.isError).toBe(true);
    expect(missing.data.error.code).toBe('INVALID_PARAMS');
  });

  it('kdd_read_section never reads outside the specs root', async () => {
    for (const path of ['../secret.md', '01-domain/../../secret.md', '/etc/hostname', join(dist.root, 'secret.md'), '..\\secret.md', 'escape.md', '01-domain/entities/Pedido.md\0.md', '~/x.md']) {
      const res = await call('kdd_read_section', { path });
      expect(res.isError, path).toBe(true);
      expect(res.data.error.code, path).toBe('INVALID_PARAMS');
      expect(JSON.stringify(res.data)).not.toContain('TOP-SECRET-CONTENT');
    }
    const notSpec = await call('kdd_read_section', { path: '../../../../etc/hostname' });
    expect(notSpec.isError).toBe(true);
  });

  it('returns typed tool errors for unknown nodes and invalid arguments', async () => {
    const unknown = await call('kdd_impact', { node_id: 'Entity:Nope' });
    expect(unknown).toMatchObject({ isError: true, data: { error: { code: 'NODE_NOT_FOUND', message: 'Node not found: Entity:Nope' } } });
    const short = await call('kdd_context', { query_text: 'ab' });
    expect(short.isError).toBe(true);
    expect(short.data.error.code).toBe('QUERY_TOO_SHORT');
    const deep = await call('kdd_related', { node_id: 'Entity:Pedido', depth: 9 });
    expect(deep.data.error.code).toBe('INVALID_DEPTH');
    const both = await call('kdd_read_section', { node_id: 'UC:UC-001', path: 'x.md' });
    expect(both.data.error.code).toBe('INVALID_PARAMS');
  });

  it('exposes every node as a kdd://node/{id} resource', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['kdd://node/{id}']);
    const { resources } = await client.listResources();
    expect(resources).toHaveLength(dist.nodes);
    const uri = resources.find((r) => r.name === 'Entity:Pedido')!.uri;
    const read = await client.readResource({ uri });
    const node = JSON.parse((read.contents[0] as { text: string }).text);
    expect(node).toMatchObject({ id: 'Entity:Pedido', kind: 'entity' });
    expect(node.sections.length).toBeGreaterThan(0);
  });

  it('hot-swaps to a rebuilt bundle', async () => {
    await writeFile(join(dist.specs, '01-domain', 'rules', 'BR-PEDIDO-009.md'), '---\nid: BR-PEDIDO-009\nkind: business-rule\ntitle: Pedido mínimo\n---\n\n# BR-PEDIDO-009\n\n## Declaración\n\nUn [[Pedido]] suma 10 euros.\n');
    const next = await dist.rebuild();
    const deadline = Date.now() + 5000;
    let hash = '';
    while (Date.now() < deadline && hash !== next.hash) {
      hash = (await call('kdd_stats')).data.hash;
      if (hash !== next.hash) await new Promise((r) => setTimeout(r, 100));
    }
    expect(hash).toBe(next.hash);
    expect(stderr).toContain(`swapped bundle ${dist.hash} -> ${next.hash}`);
  });
});
