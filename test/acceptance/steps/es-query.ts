/**
 * Upstream (Spanish) retrieval steps: hybrid-search (QRY-003 → `kdd context`) and retrieve-impact
 * (QRY-004 → `kdd impact`). Queries run through the real CLI with `--json`.
 */
import { expect } from 'vitest';
import { defineStep } from '../runner.js';
import { baseTree, build, describeEdges, docAt, graphOf, renderDoc, requireEmbeddings, writeSpecs } from '../support.js';
import type { World } from '../world.js';

interface ContextJson {
  results: { node_id: string; kind: string; score: number; match_source: string }[];
  graph_expansion: { from_node: string; to_node: string; edge_type: string }[];
  total_tokens: number;
  warnings: { code: string; message: string }[];
  retrieval_strategy: string;
}

// ── Background of hybrid-search ────────────────────────────────────────────────────────────

defineStep(/^un índice L2 con entidades, reglas, commands y use cases indexados$/, async (world) => {
  world.vars.level = 'L2';
  await writeSpecs(world, baseTree());
});

defineStep(/^embeddings generados para las secciones embebibles$/, async (world) => {
  await build(world);
  world.vars.hasEmbeddings = await requireEmbeddings(world, 'embeddings of the embeddable sections (hybrid search background)');
});

async function rebuild(world: World): Promise<void> {
  await build(world);
}

// ── Queries ────────────────────────────────────────────────────────────────────────────────

/**
 * `busco "TEXT" [con strategy "hybrid"] [y expand_graph true] [con include_kinds [...]]
 * [con respect_layers true] [con max_tokens N]` → `kdd context TEXT …flags --json`.
 */
defineStep(/^busco "([^"]+)"(?: con (.+))?$/, async (world, text, options = '') => {
  const args = ['context', text, '--json'];
  const strategy = /strategy "([^"]+)"/.exec(options)?.[1];
  if (strategy && strategy !== 'hybrid') world.pending(`strategy "${strategy}": only hybrid retrieval (kdd context) is exposed`);
  const kinds = /include_kinds \[([^\]]*)\]/.exec(options)?.[1];
  if (kinds) args.push('--kinds', kinds.replace(/["\s]/g, ''));
  if (/expand_graph false/.test(options)) args.push('--no-expand');
  if (/respect_layers false/.test(options)) args.push('--ignore-layers');
  const maxTokens = /max_tokens (\d+)/.exec(options)?.[1];
  if (maxTokens) args.push('--max-tokens', maxTokens);
  const run = await world.kdd(args);
  expect(run.code, `kdd ${args.join(' ')}: ${run.stderr}`).toBe(0);
  world.vars.context = world.lastJson<ContextJson>();
  world.timings.query = run.ms;
});

const ctx = (world: World) => world.vars.context as ContextJson;
const list = (world: World) => ctx(world).results.map((r) => `  ${r.node_id} ${r.match_source} ${r.score.toFixed(3)}`).join('\n');

defineStep(/^los resultados incluyen "([^"]+)" con match_source "([^"]+)" o "([^"]+)"$/, (world, id, a, b) => {
  const hit = ctx(world).results.find((r) => r.node_id === id);
  expect(hit, `${id} among the results:\n${list(world)}`).toBeDefined();
  if (!world.vars.hasEmbeddings) {
    world.pending(`match_source "${a}"/"${b}" needs embeddings (L2 build not available)`);
    return;
  }
  expect([a, b], `match_source of ${id}`).toContain(hit!.match_source);
});

defineStep(/^los resultados incluyen "([^"]+)" por expansión de grafo$/, (world, id) => {
  const { results, graph_expansion } = ctx(world);
  const hit = results.find((r) => r.node_id === id);
  expect(hit, `${id} among the results:\n${list(world)}`).toBeDefined();
  const viaGraph = ['graph', 'fusion'].includes(hit!.match_source) || graph_expansion.some((e) => e.from_node === id || e.to_node === id);
  expect(viaGraph, `${id} reached by graph expansion (match_source ${hit!.match_source}; expansion:\n${describeEdges(graph_expansion as never)})`).toBe(true);
});

defineStep(/^el graph_expansion contiene edges entre los nodos devueltos$/, (world) => {
  const { results, graph_expansion } = ctx(world);
  const ids = new Set(results.map((r) => r.node_id));
  const between = graph_expansion.filter((e) => ids.has(e.from_node) && ids.has(e.to_node));
  expect(between.length, `expansion edges between returned nodes; expansion:\n${describeEdges(graph_expansion as never)}`).toBeGreaterThan(0);
});

defineStep(/^los resultados están ordenados por score descendente$/, (world) => {
  const scores = ctx(world).results.map((r) => r.score);
  expect(scores, 'scores').toEqual([...scores].sort((a, b) => b - a));
});

// Time limits are NOT asserted (benchmarks do that): the timing is recorded.
defineStep(/^la respuesta completa en menos de (\d+)ms$/, (world, limit) => {
  world.timings[`limit ${limit}ms`] = world.last?.ms ?? NaN;
});

defineStep(/^recibo resultados de la búsqueda$/, (world) => {
  expect(ctx(world).results.length, 'results').toBeGreaterThan(0);
});

defineStep(/^todos los resultados tienen kind "([^"]+)"$/, (world, kind) => {
  const results = ctx(world).results;
  expect(results.length, 'results').toBeGreaterThan(0);
  expect(results.filter((r) => r.kind !== kind), `results of another kind:\n${list(world)}`).toEqual([]);
});

defineStep(/^"([^"]+)" aparece en los resultados$/, (world, id) => {
  expect(ctx(world).results.map((r) => r.node_id), 'result ids').toContain(id);
});

defineStep(/^un edge con layer_violation de "([^"]+)" \(([\w-]+)\) a "([^"]+)" \(([\w-]+)\)$/, async (world, from, fromLayer, to, toLayer) => {
  const name = from.split(':')[1]!;
  const target = to === 'UC:UC-001' ? 'UC-001-IndexDocument' : to.split(':')[1]!;
  await world.write(`specs/${fromLayer}/entities/${name}.md`, docAt(`${fromLayer}/entities/${name}.md`, `La entidad ${name} es la entidad X de prueba; depende de [[${target}]].`));
  await rebuild(world);
  const { edges } = await graphOf(world);
  const violating = edges.filter((e) => e.from_node === from && e.to_node === to && e.layer_violation);
  expect(violating.length, `a layer-violating edge ${from} → ${to} (${fromLayer} → ${toLayer})`).toBeGreaterThan(0);
});

defineStep(/^"([^"]+)" no aparece como resultado de expansión por grafo desde "([^"]+)"$/, (world, id, from) => {
  const { results, graph_expansion } = ctx(world);
  const crossing = graph_expansion.filter((e) => (e.from_node === from && e.to_node === id) || (e.from_node === id && e.to_node === from));
  expect(crossing, 'expansion over the layer-violating edge').toEqual([]);
  expect(results.some((r) => r.node_id === from), `${from} itself is found:\n${list(world)}`).toBe(true);
  const hit = results.find((r) => r.node_id === id);
  if (hit) expect(hit.match_source, `${id} may only appear on its own text match`).not.toBe('graph');
});

defineStep(/^un índice L1 sin embeddings$/, async (world) => {
  world.vars.level = 'L1';
  await rebuild(world);
  expect(world.vars.indexLevel).toBe('L1');
});

defineStep(/^la respuesta incluye warning "([A-Z_]+)"$/, (world, code) => {
  expect(ctx(world).warnings.map((w) => w.code), 'warnings').toContain(code);
});

defineStep(/^los resultados provienen solo de grafo y lexical$/, (world) => {
  const sources = new Set(ctx(world).results.map((r) => r.match_source));
  expect(ctx(world).results.length).toBeGreaterThan(0);
  expect([...sources].filter((s) => s === 'semantic'), `match sources: ${[...sources].join(', ')}`).toEqual([]);
  expect(ctx(world).retrieval_strategy, 'retrieval_strategy').not.toMatch(/semantic/);
});

defineStep(/^el total_tokens de la respuesta no excede (\d+)$/, (world, max) => {
  expect(ctx(world).total_tokens).toBeLessThanOrEqual(Number(max));
  expect(ctx(world).results.length, 'results within the budget').toBeGreaterThan(0);
});

// ── Impact ─────────────────────────────────────────────────────────────────────────────────

/** Section of the source document that yields each edge type (model/kinds.ts). */
const EDGE_SECTION: Record<string, string> = {
  ENTITY_RULE: 'Declaración',
  UC_APPLIES_RULE: 'Reglas Aplicadas',
  UC_EXECUTES_CMD: 'Comandos Ejecutados',
  WIKI_LINK: 'Descripción',
};

function fileOf(id: string): { path: string; kind: string; docId?: string; link: string } {
  const [prefix, name] = id.split(':') as [string, string];
  switch (prefix) {
    case 'Entity':
      return { path: `01-domain/entities/${name}.md`, kind: 'entity', link: name };
    case 'BR':
      return { path: `01-domain/rules/${name}.md`, kind: 'business-rule', docId: name, link: name };
    case 'CMD':
      return { path: `02-behavior/commands/${name}-Fixture.md`, kind: 'command', docId: name, link: `${name}-Fixture` };
    case 'UC':
      return { path: `02-behavior/use-cases/${name}-Fixture.md`, kind: 'use-case', docId: name, link: `${name}-Fixture` };
    default:
      throw new Error(`No fixture layout for node ${id}`);
  }
}

defineStep(/^un índice con los siguientes nodos y edges:$/, async (world) => {
  const [header, ...rows] = world.step!.table!;
  expect(header).toEqual(['from_node', 'edge_type', 'to_node']);
  const sections = new Map<string, Map<string, string[]>>();
  const add = (id: string) => sections.get(id) ?? sections.set(id, new Map()).get(id)!;
  for (const [from, type, to] of rows as [string, string, string][]) {
    add(to);
    const heading = EDGE_SECTION[type];
    if (!heading) throw new Error(`No fixture section for edge type ${type}`);
    const byHeading = add(from);
    byHeading.set(heading, [...(byHeading.get(heading) ?? []), `[[${fileOf(to).link}]]`]);
  }
  for (const [id, byHeading] of sections) {
    const file = fileOf(id);
    const body: [string, string][] = [['Descripción', `${id} de prueba.`]];
    for (const [heading, links] of byHeading) {
      const text = links.map((l) => `- ${l}`).join('\n');
      if (heading === 'Descripción') body[0] = ['Descripción', `${id} de prueba; usa ${links.join(' y ')}.`];
      else body.push([heading, text]);
    }
    const primary: Record<string, string> = { 'business-rule': 'Declaración', command: 'Propósito' };
    if (primary[file.kind] && !byHeading.has(primary[file.kind]!)) body.push([primary[file.kind]!, `${id}.`]);
    await world.write(`specs/${file.path}`, renderDoc({ kind: file.kind, id: file.docId, title: id, sections: body }));
  }
  await build(world);
  const { edges } = await graphOf(world);
  for (const [from, type, to] of rows as [string, string, string][]) {
    expect(edges.some((e) => e.from_node === from && e.to_node === to && e.edge_type === type), `fixture edge ${from} -${type}-> ${to}; index has:\n${describeEdges(edges)}`).toBe(true);
  }
});

defineStep(/^consulto impacto de "([^"]+)" con profundidad (\d+)$/, async (world, id, depth) => {
  await world.kdd(['impact', id, '--depth', depth, '--json']);
  world.timings.impact = world.last!.ms;
});

interface ImpactJson {
  directly_affected: { id: string; edge_type: string }[];
  transitively_affected: { id: string; path: string[] }[];
}

const impactJson = (world: World) => {
  expect(world.last!.code, `kdd impact: ${world.last!.stderr}`).toBe(0);
  return world.lastJson<ImpactJson>();
};

defineStep(/^los nodos directamente afectados son:$/, (world) => {
  const [, ...rows] = world.step!.table!;
  const actual = impactJson(world).directly_affected.map((n) => [n.id, n.edge_type]);
  expect(actual.sort(), 'directly_affected (node_id, edge_type)').toEqual(rows.map((r) => [r[0], r[1]]).sort());
});

defineStep(/^los nodos transitivamente afectados son:$/, (world) => {
  const [, ...rows] = world.step!.table!;
  const actual = impactJson(world).transitively_affected.map((n) => [n.id, n.path.join(' → ')]);
  expect(actual.sort(), 'transitively_affected (node_id, path)').toEqual(rows.map((r) => [r[0], r[1]!.replace(/\s*→\s*/g, ' → ')]).sort());
});

defineStep(/^los nodos (directamente|transitivamente) afectados están vacíos$/, (world, which) => {
  const json = impactJson(world);
  expect(which === 'directamente' ? json.directly_affected : json.transitively_affected).toEqual([]);
});

defineStep(/^recibo error "([A-Z_]+)"$/, (world, code) => {
  const run = world.last!;
  expect(run.code, `exit code of kdd ${run.argv.join(' ')}`).not.toBe(0);
  expect(`${run.stderr}\n${run.stdout}`, 'error output').toContain(code);
});
