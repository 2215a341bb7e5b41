import { cp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../cli/main.js';
import { enrichmentFileName } from '../../compiler/enrich/artifact.js';
import { enrich, type EnrichOptions } from '../../compiler/enrich/enrich.js';
import { buildIndex } from '../../compiler/pipeline.js';
import { loadBundle } from '../../library/load-bundle.js';
import { context } from '../../runtime/queries/context.js';
import { graph } from '../../runtime/queries/graph.js';
import { impact } from '../../runtime/queries/impact.js';
import { FIXTURES, removeTree, tempTree } from '../helpers/temp-tree.js';
import { anthropicReply, enrichmentJson, openaiReply, startStub, type Stub } from './_stub.js';

const KEY = 'sk-ant-e2e-SECRET-7f3a9c2b1d0e4f56';
const RELATIONS = [
  { target: 'BR:BR-CUSTOMER-001', relation_type: 'depends_on', confidence: 0.8, evidence: 'Crear un Pedido nuevo para un Customer.' },
  { target: 'Entity:Fantasma', relation_type: 'affects', confidence: 0.9, evidence: 'No existe.' },
  { target: '../../../../tmp/evil', relation_type: 'uses', confidence: 0.5, evidence: 'Path games.' },
];
const SUMMARY = 'Crea un pedido quetzalcoatl en borrador a partir del carrito del cliente.';

let root: string;
let stub: Stub;
const roots: string[] = [];

beforeEach(async () => {
  root = await tempTree({});
  roots.push(root);
  await cp(join(FIXTURES, 'shop'), join(root, 'specs'), { recursive: true });
  await buildIndex({ specsDir: join(root, 'specs'), indexDir: join(root, '.kdd-index'), outDir: join(root, 'dist') });
  stub = await startStub([anthropicReply(enrichmentJson(RELATIONS, SUMMARY))]);
});
afterEach(async () => {
  await stub.close();
});
afterAll(async () => {
  await Promise.all(roots.map(removeTree));
});

function options(extra: Partial<EnrichOptions> = {}): EnrichOptions {
  return {
    specsDir: join(root, 'specs'),
    indexDir: join(root, '.kdd-index'),
    outDir: join(root, 'dist'),
    baseUrl: stub.url,
    env: { ANTHROPIC_API_KEY: KEY },
    retryBaseMs: 1,
    ...extra,
  };
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

describe('enrich', () => {
  it('writes the CMD-003 artifact, adds implicit edges and counts it in the manifest', async () => {
    const report = await enrich(options({ nodeIds: ['CMD:CMD-001'] }));
    expect(report).toMatchObject({ provider: 'anthropic', enriched: 1, failed: 0, requests: 1 });
    const [outcome] = report.nodes;
    expect(outcome).toMatchObject({ node_id: 'CMD:CMD-001', status: 'enriched', reason: 'new', relations: 1, file: 'enrichments/CMD_CMD-001.enrichment.json' });
    expect(outcome!.warnings.join('\n')).toMatch(/Entity:Fantasma.*not a node/);
    expect(outcome!.warnings.join('\n')).toMatch(/evil.*not a node/);

    const file = JSON.parse(await readFile(join(root, '.kdd-index/enrichments/CMD_CMD-001.enrichment.json'), 'utf8'));
    expect(file).toMatchObject({
      format: 1,
      node_id: 'CMD:CMD-001',
      source_file: '02-behavior/commands/CMD-001-CrearPedido.md',
      summary: SUMMARY,
      implicit_relations: [{ target: 'BR:BR-CUSTOMER-001', relation_type: 'depends_on', confidence: 0.8 }],
      impact_notes: ['Cambios en Pedido afectan a este comando.'],
      provenance: { prompt_version: 'kdd-enrich/1', provider: 'anthropic', model: 'claude-sonnet-4-5' },
    });
    expect(file.provenance.cache_key).toMatch(/^[0-9a-f]{64}$/);

    const manifest = JSON.parse(await readFile(join(root, '.kdd-index/manifest.json'), 'utf8'));
    expect(manifest.stats.enrichments).toBe(1);
    const edges = (await readFile(join(root, '.kdd-index/edges/edges.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    const implicit = edges.filter((e) => e.extraction_method === 'implicit' && e.edge_type.startsWith('IMPLICIT_'));
    expect(implicit).toEqual([
      expect.objectContaining({ from_node: 'CMD:CMD-001', to_node: 'BR:BR-CUSTOMER-001', edge_type: 'IMPLICIT_DEPENDS_ON', metadata: { confidence: '0.80', evidence: 'Crear un Pedido nuevo para un Customer.', relation: 'depends_on' } }),
    ]);
    expect(report.build).toMatchObject({ enrichments: 1 });

    // Prompt content: the document and its 1-hop neighbourhood went out, the key only as a header.
    const sent = JSON.parse(stub.requests[0]!.body);
    expect(sent.messages[0].content).toContain('Crear un [[Pedido]] nuevo');
    expect(sent.messages[0].content).toContain('"id": "Entity:Pedido"');
    expect(stub.requests[0]!.body).not.toContain(KEY);
  });

  it('never re-sends an unchanged node (cache), and --changed refreshes only nodes whose key moved', async () => {
    await enrich(options({ nodeIds: ['CMD:CMD-001', 'Entity:Pedido'] }));
    expect(stub.requests).toHaveLength(2);
    const again = await enrich(options({ nodeIds: ['CMD:CMD-001', 'Entity:Pedido'] }));
    expect(again.requests).toBe(0);
    expect(again.nodes.map((n) => n.status)).toEqual(['cached', 'cached']);
    expect(stub.requests).toHaveLength(2);

    const all = await enrich(options({ all: true, changed: true }));
    expect(all.requests).toBe(0);
    expect(all.skipped).toBe(5);

    const path = join(root, 'specs/02-behavior/commands/CMD-001-CrearPedido.md');
    await writeFile(path, `${await readFile(path, 'utf8')}\nUna línea más.\n`);
    const changed = await enrich(options({ all: true, changed: true }));
    expect(changed.nodes.filter((n) => n.status === 'enriched').map((n) => [n.node_id, n.reason])).toEqual([['CMD:CMD-001', 'changed']]);
    expect(changed.requests).toBe(1);
  });

  it('--dry-run plans without sending or writing', async () => {
    const report = await enrich(options({ all: true, dryRun: true, env: {} }));
    expect(report.requests).toBe(0);
    expect(report.nodes.every((n) => n.status === 'planned' && n.reason === 'new')).toBe(true);
    expect(stub.requests).toHaveLength(0);
    await expect(readdir(join(root, '.kdd-index/enrichments'))).rejects.toThrow();
  });

  it('ignores a stale enrichment at build time until it is refreshed', async () => {
    await enrich(options({ nodeIds: ['CMD:CMD-001'] }));
    const path = join(root, 'specs/02-behavior/commands/CMD-001-CrearPedido.md');
    await writeFile(path, `${await readFile(path, 'utf8')}\nCambio.\n`);
    const report = await buildIndex({ specsDir: join(root, 'specs'), indexDir: join(root, '.kdd-index'), outDir: join(root, 'dist') });
    expect(report.edges_by_type.IMPLICIT_DEPENDS_ON).toBeUndefined();
    expect(report.bundle.stats.enrichments).toBe(0);
  });
});

describe('enrich errors', () => {
  it('LOW_INDEX_LEVEL without a built index', async () => {
    await rm(join(root, '.kdd-index'), { recursive: true });
    await expect(enrich(options({ nodeIds: ['CMD:CMD-001'] }))).rejects.toMatchObject({ code: 'LOW_INDEX_LEVEL', exitCode: 4 });
  });

  it('NODE_NOT_FOUND before anything is sent', async () => {
    await expect(enrich(options({ nodeIds: ['CMD:CMD-001', 'Entity:NoExiste'] }))).rejects.toMatchObject({ code: 'NODE_NOT_FOUND', message: 'Node not found: Entity:NoExiste' });
    expect(stub.requests).toHaveLength(0);
  });

  it('DOCUMENT_NOT_FOUND when the source file is gone', async () => {
    await rm(join(root, 'specs/01-domain/entities/Pedido.md'));
    const report = await enrich(options({ nodeIds: ['Entity:Pedido'] }));
    expect(report.nodes[0]).toMatchObject({ status: 'failed', error: { code: 'DOCUMENT_NOT_FOUND' } });
    expect(stub.requests).toHaveLength(0);
  });

  it('API_KEY_MISSING when no key is configured (and none is needed for cached nodes)', async () => {
    await expect(enrich(options({ nodeIds: ['CMD:CMD-001'], env: {} }))).rejects.toMatchObject({ code: 'API_KEY_MISSING' });
    await expect(enrich(options({ nodeIds: ['CMD:CMD-001'], provider: 'openai', env: { ANTHROPIC_API_KEY: KEY } }))).rejects.toMatchObject({
      code: 'API_KEY_MISSING',
      message: expect.stringContaining('OPENAI_API_KEY'),
    });
    await enrich(options({ nodeIds: ['CMD:CMD-001'] }));
    const cached = await enrich(options({ nodeIds: ['CMD:CMD-001'], env: {}, provider: 'anthropic' }));
    expect(cached.nodes[0]!.status).toBe('cached');
  });

  it('AGENT_ERROR on a reply that is not the expected JSON, keeping a redacted excerpt', async () => {
    stub.script([anthropicReply(`Sure! Here you go: not json at all ${KEY}`)]);
    const report = await enrich(options({ nodeIds: ['CMD:CMD-001'] }));
    expect(report.nodes[0]).toMatchObject({ status: 'failed', error: { code: 'AGENT_ERROR' } });
    expect(report.nodes[0]!.raw_excerpt).toContain('Sure! Here you go');
    expect(JSON.stringify(report)).not.toContain(KEY);
    stub.script([anthropicReply('{"implicit_relations": []}')]);
    const noSummary = await enrich(options({ nodeIds: ['CMD:CMD-001'] }));
    expect(noSummary.nodes[0]!.error!.message).toMatch(/no "summary"/);
  });

  it('AGENT_TIMEOUT on a slow agent, leaving the index untouched', async () => {
    const before = await readFile(join(root, 'dist/kdd.json'), 'utf8');
    stub.script([{ ...anthropicReply(enrichmentJson()), delayMs: 3_000 }]);
    const report = await enrich(options({ nodeIds: ['CMD:CMD-001'], timeoutMs: 150 }));
    expect(report.nodes[0]).toMatchObject({ status: 'failed', error: { code: 'AGENT_TIMEOUT', message: 'Agent enrichment timed out after 150ms' } });
    expect(report.build).toBeNull();
    expect(await readFile(join(root, 'dist/kdd.json'), 'utf8')).toBe(before);
  });
});

describe('kdd enrich (CLI)', () => {
  function capture() {
    const out: string[] = [];
    const err: string[] = [];
    return { io: { stdout: (s: string) => void out.push(s), stderr: (s: string) => void err.push(s), isTTY: false, cwd: root }, out, err };
  }

  it('never writes or prints the API key, through the OpenAI path and an error', async () => {
    const secret = 'sk-proj-CLI-secret-value-000111222333';
    process.env.KDD_TEST_OPENAI_KEY = secret;
    try {
      stub.script([openaiReply(enrichmentJson(RELATIONS, SUMMARY))]);
      const ok = capture();
      expect(await runCli(['enrich', '--all', '--api-key-env', 'KDD_TEST_OPENAI_KEY', '--base-url', stub.url, '--retries', '0'], ok.io)).toBe(0);
      expect(ok.out.join('')).toMatch(/7 enriched/);
      expect(stub.requests.every((r) => r.headers.authorization === `Bearer ${secret}`)).toBe(true);

      stub.script([{ status: 401, body: JSON.stringify({ error: { message: `Incorrect API key provided: ${secret}` } }) }]);
      const bad = capture();
      expect(await runCli(['enrich', 'CMD:CMD-001', '--force', '--api-key-env', 'KDD_TEST_OPENAI_KEY', '--base-url', stub.url, '--json'], bad.io)).toBe(1);
      const printed = [...ok.out, ...ok.err, ...bad.out, ...bad.err].join('\n');
      expect(printed).toContain('HTTP 401');
      expect(printed).not.toContain(secret);
      for (const file of await filesUnder(root)) {
        expect((await readFile(file)).includes(Buffer.from(secret)), file).toBe(false);
      }
    } finally {
      delete process.env.KDD_TEST_OPENAI_KEY;
    }
  });

  it('maps failures to exit codes and prints the code', async () => {
    const none = capture();
    expect(await runCli(['enrich', 'Entity:NoExiste', '--provider', 'anthropic', '--api-key-env', 'KDD_UNSET_VAR_XYZ'], none.io)).toBe(3);
    expect(none.err.join('')).toContain('NODE_NOT_FOUND');
    const nokey = capture();
    expect(await runCli(['enrich', 'CMD:CMD-001', '--api-key-env', 'KDD_UNSET_VAR_XYZ'], nokey.io)).toBe(2);
    expect(nokey.err.join('')).toContain('API_KEY_MISSING: No API key found: set KDD_UNSET_VAR_XYZ');
    const usage = capture();
    expect(await runCli(['enrich'], usage.io)).toBe(2);
  });

  it('works with a local agent command (--agent-cmd), spawned without a shell', async () => {
    await writeFile(join(root, 'agent.mjs'), `let s=''; process.stdin.on('data',c=>s+=c); process.stdin.on('end',()=>{ const id=/Node to enrich: (\\S+)/.exec(s)[1]; process.stdout.write('\`\`\`json\\n'+JSON.stringify({summary:'Resumen local de '+id, implicit_relations:[], impact_notes:[]})+'\\n\`\`\`'); });`);
    const run = capture();
    const code = await runCli(['enrich', 'Entity:Pedido', '--agent-cmd', `${JSON.stringify(process.execPath)} agent.mjs`, '--model', 'local-test', '--json'], { ...run.io });
    // The command runs in the specs root; the script lives one level up.
    expect(code, run.err.join('')).toBe(1);
    const retry = capture();
    expect(await runCli(['enrich', 'Entity:Pedido', '--agent-cmd', `${JSON.stringify(process.execPath)} ${JSON.stringify(join(root, 'agent.mjs'))}`, '--model', 'local-test', '--json'], retry.io)).toBe(0);
    const report = JSON.parse(retry.out.join(''));
    expect(report).toMatchObject({ provider: 'command', model: 'local-test', enriched: 1 });
    const file = JSON.parse(await readFile(join(root, '.kdd-index/enrichments', enrichmentFileName('Entity:Pedido')), 'utf8'));
    expect(file.summary).toBe('Resumen local de Entity:Pedido');
  });
});

describe('implicit edges in queries', () => {
  it('graph, impact and context show them marked, and can leave them out', async () => {
    await enrich(options({ nodeIds: ['CMD:CMD-001'] }));
    const index = await loadBundle(join(root, 'dist'));

    const g = graph(index, { root_node: 'CMD:CMD-001', depth: 1 });
    const via = g.related_nodes.find((n) => n.id === 'BR:BR-CUSTOMER-001');
    expect(via?.reached_via).toEqual({ from_node: 'CMD:CMD-001', to_node: 'BR:BR-CUSTOMER-001', edge_type: 'IMPLICIT_DEPENDS_ON', implicit: true, confidence: 0.8 });
    const authored = graph(index, { root_node: 'CMD:CMD-001', depth: 1, include_implicit: false });
    expect(authored.related_nodes.map((n) => n.id)).not.toContain('BR:BR-CUSTOMER-001');
    expect(authored.edges.some((e) => e.implicit)).toBe(false);

    const i = impact(index, { node_id: 'BR:BR-CUSTOMER-001' });
    const byAgent = i.directly_affected.find((n) => n.id === 'CMD:CMD-001');
    expect(byAgent).toMatchObject({ edge_type: 'IMPLICIT_DEPENDS_ON', implicit: true, confidence: 0.8 });
    expect(byAgent!.impact).toContain('(implicit, agent-inferred)');
    expect(i.directly_affected.find((n) => n.id === 'Entity:Customer')).not.toHaveProperty('implicit');
    expect(i.transitively_affected).toContainEqual(expect.objectContaining({ id: 'UC:UC-001', implicit: true }));
    const authoredImpact = impact(index, { node_id: 'BR:BR-CUSTOMER-001', include_implicit: false });
    expect(authoredImpact.directly_affected.map((n) => n.id)).toEqual(['Entity:Customer']);

    // The summary is searchable, and the implicit edge shows in the expansion unless excluded.
    expect(context(index, { query_text: 'quetzalcoatl' }).results[0]).toMatchObject({ node_id: 'CMD:CMD-001', match_source: expect.stringMatching(/lexical|fusion/) });
    const c = context(index, { query_text: 'quetzalcoatl unique customer email', min_score: 0, limit: 20 });
    expect(c.results.map((r) => r.node_id)).toEqual(expect.arrayContaining(['CMD:CMD-001', 'BR:BR-CUSTOMER-001']));
    expect(c.graph_expansion).toContainEqual({ from_node: 'CMD:CMD-001', to_node: 'BR:BR-CUSTOMER-001', edge_type: 'IMPLICIT_DEPENDS_ON', implicit: true, confidence: 0.8 });
    const without = context(index, { query_text: 'quetzalcoatl unique customer email', min_score: 0, limit: 20, include_implicit: false });
    expect(without.graph_expansion.some((e) => e.implicit)).toBe(false);

    const cli = { out: [] as string[], err: [] as string[] };
    const io = { stdout: (s: string) => void cli.out.push(s), stderr: (s: string) => void cli.err.push(s), isTTY: false, cwd: root };
    expect(await runCli(['impact', 'BR:BR-CUSTOMER-001', '--json', '--no-implicit'], io)).toBe(0);
    expect(JSON.parse(cli.out.join('')).directly_affected.map((n: { id: string }) => n.id)).toEqual(['Entity:Customer']);
  });

  it('an incremental build with enrichments equals a full one, byte for byte', async () => {
    await enrich(options({ nodeIds: ['CMD:CMD-001'] }));
    const incremental = JSON.parse(await readFile(join(root, 'dist/kdd.json'), 'utf8')).bundle;
    const full = await buildIndex({ specsDir: join(root, 'specs'), indexDir: join(root, '.kdd-index'), outDir: join(root, 'dist-full'), mode: 'full' });
    expect(full.bundle.bundle).toBe(incremental);
  });

  it('a changed summary alone is enough to repack the bundle', async () => {
    await enrich(options({ nodeIds: ['CMD:CMD-001'] }));
    const first = JSON.parse(await readFile(join(root, 'dist/kdd.json'), 'utf8')).bundle;
    stub.script([anthropicReply(enrichmentJson(RELATIONS, 'Otro resumen distinto.'))]);
    const again = await enrich(options({ nodeIds: ['CMD:CMD-001'], force: true }));
    expect(again.build!.bundle).not.toBe(first);
  });
});

describe('enrichment file names', () => {
  it('derive from the node id only and cannot leave the folder', () => {
    expect(enrichmentFileName('CMD:CMD-001')).toBe('CMD_CMD-001.enrichment.json');
    for (const id of ['../../etc/passwd', '..', '.hidden', 'a/b\\c', 'Entity:Año Nuevo', 'x'.repeat(400)]) {
      const name = enrichmentFileName(id);
      expect(name).not.toMatch(/[/\\]/);
      expect(name.startsWith('.')).toBe(false);
      expect(name.length).toBeLessThan(200);
    }
    expect(enrichmentFileName('Entity:A_B')).not.toBe(enrichmentFileName('Entity:A:B'));
  });
});
