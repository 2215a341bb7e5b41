/**
 * Upstream (Spanish) merge steps (merge-index, multi-domain merge). Each developer is a git
 * working copy under the scenario folder (`devA/`, `devB/`) built with the real CLI; the merge is
 * `kdd merge devA/.kdd-index devB/.kdd-index -o merged/dist --index-dir merged/.kdd-index --json`.
 * The spec's hashes (`abc123`) and times (`10:00`) are labels: versions are real file contents
 * committed at those times (indexed_at is the git commit time, ADR-0003).
 */
import { rm } from 'node:fs/promises';
import { expect } from 'vitest';
import { INDEX_FORMAT_VERSION, readableIndexFormat } from '../../../formats/index-dir/manifest.js';
import { defineStep } from '../runner.js';
import { build, buildUsage, describeEdges, docAt, expectEvent, expectEventShape, graphOf, renderDoc, requireEmbeddings, vectorBytes, writeSpecs, L2_MISSING } from '../support.js';
import type { World } from '../world.js';

const devDir = (dev: string) => `dev${dev}`;

function docForId(id: string, variant = ''): [string, string] {
  const [prefix, name] = id.split(':') as [string, string];
  switch (prefix) {
    case 'Entity':
      return [`01-domain/entities/${name}.md`, docAt(`01-domain/entities/${name}.md`, `Entidad ${name} del dominio; relacionada con [[Usuario]]. ${variant}`)];
    case 'BR':
      return [`01-domain/rules/${name}.md`, renderDoc({ kind: 'business-rule', id: name, title: name, sections: [['Declaración', `Todo [[Pedido]] debe cumplir ${name}. ${variant}`]] })];
    case 'CMD':
      return [`02-behavior/commands/${name}-Fixture.md`, renderDoc({ kind: 'command', id: name, title: name, sections: [['Propósito', `Comando que crea un [[Usuario]]. ${variant}`]] })];
    default:
      throw new Error(`No fixture for ${id}`);
  }
}

async function devRepo(world: World, dev: string): Promise<string> {
  const dir = devDir(dev);
  if (!world.exists(`${dir}/.git`)) {
    await world.write(`${dir}/.gitignore`, '.kdd-index/\ndist/\n');
    await world.gitInit(world.path(dir));
  }
  return world.path(dir);
}

async function devBuild(world: World, dev: string, date: string): Promise<void> {
  const cwd = await devRepo(world, dev);
  await world.commitAll(`dev ${dev} at ${date}`, { cwd, date });
  const model = (world.vars[`model${dev}`] as string | undefined) ?? (world.vars.modelName as string | undefined);
  const saved = world.vars.modelName;
  world.vars.modelName = model;
  await build(world, [], { cwd });
  world.vars.modelName = saved;
}

const at = (time: string) => `2025-03-14T${time}:00Z`;

// ── Background ─────────────────────────────────────────────────────────────────────────────

defineStep(/^que Dev A y Dev B tienen índices con embedding_model "([^"]+)"$/, (world, model) => {
  world.vars.level = 'L2';
  world.vars.modelName = model;
});

defineStep(/^ambos índices tienen version "([^"]+)"$/, (world, version) => {
  world.vars.indexVersion = version;
});

// ── Inputs ─────────────────────────────────────────────────────────────────────────────────

defineStep(/^(?:que )?Dev (A|B) indexó "([^"]+)" y "([^"]+)"$/, async (world, dev, a, b) => {
  const cwd = await devRepo(world, dev);
  for (const id of [a, b]) {
    const [path, text] = docForId(id);
    await world.write(`specs/${path}`, text, cwd);
  }
  await devBuild(world, dev, at('09:00'));
});

defineStep(/^(?:que )?Dev (A|B) indexó "([^"]+)" con hash "([^"]+)" a las (\d\d:\d\d)$/, async (world, dev, id, label, time) => {
  const cwd = await devRepo(world, dev);
  const [path, text] = docForId(id, `Versión ${label} de Dev ${dev}.`);
  await world.write(`specs/${path}`, text, cwd);
  await world.write('specs/01-domain/entities/Usuario.md', docForId('Entity:Usuario')[1], cwd);
  await devBuild(world, dev, at(time));
  const { nodes } = await graphOf(world, `${devDir(dev)}/dist`);
  const labels = ((world.vars.hashLabels as Record<string, string> | undefined) ?? {});
  labels[label] = nodes.find((n) => n.id === id)!.source_hash;
  world.vars.hashLabels = labels;
});

defineStep(/^(?:que )?Dev (A|B) eliminó "([^"]+)" de su índice$/, async (world, dev, id) => {
  const cwd = await devRepo(world, dev);
  const [path, text] = docForId(id);
  await world.write(`specs/${path}`, text, cwd);
  await world.write('specs/01-domain/entities/Usuario.md', docForId('Entity:Usuario')[1], cwd);
  await devBuild(world, dev, at('10:00'));
  await rm(`${cwd}/specs/${path}`);
  await devBuild(world, dev, at('11:00'));
  const tombstones = await world.read(`${devDir(dev)}/.kdd-index/tombstones.jsonl`);
  expect(tombstones, `tombstone of ${id} in Dev ${dev}'s index`).toContain(id);
});

defineStep(/^(?:que )?Dev (A|B) tiene "([^"]+)" sin cambios$/, async (world, dev, id) => {
  const cwd = await devRepo(world, dev);
  const [path, text] = docForId(id);
  await world.write(`specs/${path}`, text, cwd);
  await world.write('specs/01-domain/entities/Usuario.md', docForId('Entity:Usuario')[1], cwd);
  await devBuild(world, dev, at('10:00'));
});

defineStep(/^(?:que )?Dev (A|B) tiene embedding_model "([^"]+)"$/, async (world, dev, model) => {
  if (!(await buildUsage()).includes('--level')) world.stop(L2_MISSING);
  world.vars[`model${dev}`] = model;
  const cwd = await devRepo(world, dev);
  await writeSpecs(world, Object.fromEntries([docForId('Entity:Pedido'), docForId('Entity:Usuario')]), 'specs', cwd);
  await devBuild(world, dev, at('10:00'));
});

defineStep(/^(?:que )?Dev (A|B) indexó el dominio "([^"]+)" y "([^"]+)"$/, async (world, dev, ...domains) => {
  const cwd = await devRepo(world, dev);
  const layout = world.vars.domains as Record<string, string>;
  for (const domain of domains) {
    const source = world.path(layout[domain]!);
    const { cp } = await import('node:fs/promises');
    await cp(source, `${cwd}/${layout[domain]}`, { recursive: true });
  }
  await devBuild(world, dev, at(dev === 'A' ? '09:00' : '09:30'));
});

// ── Merging ────────────────────────────────────────────────────────────────────────────────

async function merge(world: World, mustSucceed: boolean): Promise<void> {
  const args = ['merge', `${devDir('A')}/.kdd-index`, `${devDir('B')}/.kdd-index`, '-o', 'merged/dist', '--index-dir', 'merged/.kdd-index', '--json'];
  const run = await world.kdd(args);
  world.vars.merge = true;
  world.vars.dist = 'merged/dist';
  if (world.vars.indexVersion) {
    // The spec names the version of its day ("1.0.0"); what it requires is that both indexes have
    // the same one, which is the format this kdd writes (2.0.0 since node files store text once).
    const versions = await Promise.all(['A', 'B'].map(async (dev) => (await world.readJson<{ version: string }>(`${devDir(dev)}/.kdd-index/manifest.json`)).version));
    expect(readableIndexFormat(String(world.vars.indexVersion)), `the spec's version ${world.vars.indexVersion} is one this kdd reads`).toBe(true);
    expect(versions, 'index versions of Dev A and Dev B').toEqual([INDEX_FORMAT_VERSION, INDEX_FORMAT_VERSION]);
  }
  if (world.vars.level === 'L2' && mustSucceed) await requireEmbeddings(world, 'merge inputs built with an embedding model');
  if (mustSucceed) {
    expect(run.code, `kdd ${args.join(' ')}\n${run.stderr}`).toBe(0);
    world.vars.mergeReport = world.lastJson();
  }
}

defineStep(/^ejecuto merge(?: de los dos índices)?$/, (world) => merge(world, true));
defineStep(/^intento merge de los dos índices$/, (world) => merge(world, false));

interface MergeJson {
  nodes: number;
  conflicts: { node_id: string; winner: { source: string; source_hash: string } }[];
  events: { event: string; payload: Record<string, unknown> }[];
}
const mergeReport = (world: World) => world.vars.mergeReport as MergeJson;

defineStep(/^el índice mergeado tiene (\d+) nodos$/, async (world, count) => {
  expect(mergeReport(world).nodes, 'nodes in the merge report').toBe(Number(count));
  const { nodes } = await graphOf(world, 'merged/dist');
  expect(nodes.map((n) => n.id), 'nodes of the merged bundle').toHaveLength(Number(count));
});

defineStep(/^tiene (\d+) conflictos? resueltos?$/, (world, count) => {
  expect(mergeReport(world).conflicts, 'conflicts in the merge report').toHaveLength(Number(count));
  const completed = expectEvent(mergeReport(world), 'EVT-Index-MergeCompleted', () => true, 'the merge');
  expect(completed.conflicts_resolved, 'conflicts_resolved of EVT-Index-MergeCompleted').toBe(Number(count));
});

defineStep(/^se emite "(EVT-Index-[A-Za-z]+)"$/, async (world, event) => {
  const payload = expectEvent(mergeReport(world), event, () => true, 'the merge');
  expectEventShape(event, payload);
  const { nodes, edges } = await graphOf(world, 'merged/dist');
  if (event === 'EVT-Index-MergeCompleted') {
    expect(payload, 'EVT-Index-MergeCompleted payload').toMatchObject({ source_count: 2, total_nodes: nodes.length, total_edges: edges.length });
    const requested = expectEvent(mergeReport(world), 'EVT-Index-MergeRequested', () => true, 'the merge');
    expect(requested.merge_id, 'MergeRequested and MergeCompleted share merge_id').toBe(payload.merge_id);
    const order = mergeReport(world).events.map((e) => e.event);
    expect(order.indexOf('EVT-Index-MergeRequested'), 'MergeRequested before MergeCompleted').toBeLessThan(order.indexOf('EVT-Index-MergeCompleted'));
  }
});

defineStep(/^el índice mergeado tiene el nodo "([^"]+)" con hash "([^"]+)"$/, async (world, id, label) => {
  const { nodes } = await graphOf(world, 'merged/dist');
  const node = nodes.find((n) => n.id === id);
  expect(node, `${id} in the merged index`).toBeDefined();
  const hashes = world.vars.hashLabels as Record<string, string>;
  expect(node!.source_hash, `source_hash of ${id} (version "${label}")`).toBe(hashes[label]);
});

defineStep(/^los embeddings de "([^"]+)" son los de Dev (A|B)$/, async (world, id, dev) => {
  if (!(await requireEmbeddings(world, `embeddings of ${id} taken from Dev ${dev}`))) return;
  const merged = await vectorBytes(world, id, 'merged/dist');
  expect(merged.length, `vectors of ${id} in the merged bundle`).toBeGreaterThan(0);
  expect(merged, `vectors of ${id}: merged vs Dev ${dev}`).toEqual(await vectorBytes(world, id, `${devDir(dev)}/dist`));
});

defineStep(/^el nodo "([^"]+)" no existe en el índice mergeado$/, async (world, id) => {
  const { nodes } = await graphOf(world, 'merged/dist');
  expect(nodes.map((n) => n.id), 'merged nodes').not.toContain(id);
  expect(world.exists(`merged/.kdd-index/nodes/entity/${id.split(':')[1]}.json`), 'merged node file').toBe(false);
});

defineStep(/^no se genera índice mergeado$/, (world) => {
  expect(world.exists('merged'), 'merged/ output').toBe(false);
});

defineStep(/^el índice mergeado contiene nodos de los (\d+) dominios$/, async (world, count) => {
  const { nodes } = await graphOf(world, 'merged/dist');
  const domains = new Set(nodes.map((n) => n.domain).filter((d) => d !== null));
  expect([...domains].sort(), 'domains of the merged nodes').toHaveLength(Number(count));
});

defineStep(/^los edges CROSS_DOMAIN_REF se preservan$/, async (world) => {
  const merged = (await graphOf(world, 'merged/dist')).edges.filter((e) => e.edge_type === 'CROSS_DOMAIN_REF');
  const key = (e: { from_node: string; to_node: string }) => `${e.from_node}>${e.to_node}`;
  const inputs = new Set<string>();
  for (const dev of ['A', 'B']) for (const e of (await graphOf(world, `${devDir(dev)}/dist`)).edges) if (e.edge_type === 'CROSS_DOMAIN_REF') inputs.add(key(e));
  expect(inputs.size, 'CROSS_DOMAIN_REF edges in the inputs').toBeGreaterThan(0);
  expect(new Set(merged.map(key)), `merged CROSS_DOMAIN_REF edges:\n${describeEdges(merged)}`).toEqual(inputs);
});
