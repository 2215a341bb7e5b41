/**
 * Upstream (Spanish) steps about indexing: index-entity, layer-validation, multi-domain,
 * incremental-index and offline-first. `kb index …` (the spec's CLI) maps to `kdd build` on the
 * scenario's tree; the file named is the one the assertions look at.
 */
import { rm } from 'node:fs/promises';
import { basename } from 'node:path';
import { expect } from 'vitest';
import { defineStep } from '../runner.js';
import {
  baseTree,
  build,
  commandExists,
  describeEdges,
  docAt,
  expectEvent,
  expectEventShape,
  findNode,
  fold,
  graphOf,
  lastReport,
  manifestOf,
  renderDoc,
  requireEdge,
  requireEmbeddings,
  requireNode,
  embeddedSections,
  vectorCount,
  specRelative,
  tinyModelStore,
  writeSpecs,
} from '../support.js';
import type { World } from '../world.js';

// ── Trees ──────────────────────────────────────────────────────────────────────────────────

defineStep(/^un repositorio con estructura KDD(?: en "\/specs")?$/, async (world) => {
  await writeSpecs(world, baseTree());
});

/** Given (before any build): the level to build at. Then (after a build): the level obtained. */
defineStep(/^el nivel de indexación es "(L[123])"$/, async (world, level) => {
  if (!world.vars.report) {
    world.vars.level = level;
    return;
  }
  if (level !== 'L1' && !(await requireEmbeddings(world, `index level ${level}`))) return;
  expect((await manifestOf(world)).index_level, 'manifest.index_level').toBe(level);
  expect(lastReport(world).index_level, 'index_level in the build report').toBe(level);
});

defineStep(/^un fichero "([^"]+)" con:$/, async (world, path) => {
  expect(world.step?.docString, 'doc string with the file content').toBeTypeOf('string');
  await world.write(path, `${world.step!.docString!}\n`);
});

defineStep(/^un fichero "([^"]+)" sin front-matter$/, async (world, path) => {
  await world.write(path, '# Entidades\n\nNotas sobre las entidades del dominio, sin front-matter.\n');
});

defineStep(/^un fichero "([^"]+)" con kind "([^"]+)"$/, async (world, path, kind) => {
  const name = basename(path, '.md');
  await world.write(path, renderDoc({ kind, title: name, sections: [['Descripción', `${name} declarada como ${kind} fuera de su carpeta.`]] }));
});

defineStep(/^un fichero "([^"]+)" que (?:referencia|contiene) "([^"]+)"$/, async (world, path, link) => {
  world.vars.target = path;
  await world.write(path, docAt(specRelative(path.replace(/^specs\/domains\/[^/]+\//, 'specs/')), `Documento de prueba que referencia ${link} en su descripción.`));
});

// ── Building ───────────────────────────────────────────────────────────────────────────────

/** The spec's `kb index FILE` / `kb index --incremental` → `kdd build specs [--incremental]`. */
defineStep(/^ejecuto "kb index ([^"]+)"$/, async (world, argument) => {
  if (!world.exists('specs')) await writeSpecs(world, baseTree());
  world.vars.manifestBefore = world.exists('.kdd-index/manifest.json') ? await world.read('.kdd-index/manifest.json') : null;
  if (argument === '--incremental') {
    await build(world, ['--incremental']);
  } else {
    world.vars.target = argument;
    await build(world);
  }
  world.timings.index = world.last!.ms;
});

defineStep(/^indexo el fichero$/, async (world) => {
  await build(world);
});

// Time limits are NOT asserted here (REQ-001 benchmarks do that): the step records the timing.
defineStep(/^el tiempo (?:de indexación|total) es menor a (\d+) segundos?$/, (world, seconds) => {
  world.timings[`limit ${seconds}s`] = world.last?.ms ?? NaN;
});

// ── Nodes and edges ────────────────────────────────────────────────────────────────────────

defineStep(/^se genera un nodo "([^"]+)" con kind "([^"]+)"$/, async (world, id, kind) => {
  const node = await requireNode(world, id);
  world.vars.node = node;
  expect(node.kind, `kind of ${id}`).toBe(kind);
});

defineStep(/^el nodo tiene campo indexado "([^"]+)" con "([^"]+)"$/, (world, field, text) => {
  const node = world.vars.node as { id: string; indexed_fields: Record<string, unknown> };
  const value = node.indexed_fields[field];
  expect(value, `indexed_fields.${field} of ${node.id}`).toBeDefined();
  expect(fold(JSON.stringify(value)), `indexed_fields.${field} of ${node.id}`).toContain(fold(text));
});

defineStep(/^se genera un edge "([A-Z_]+)" de "([^"]+)" a "([^"]+)"$/, async (world, type, from, to) => {
  await requireEdge(world, type, from, to);
});

defineStep(/^se genera un edge "([A-Z_]+)" de "([^"]+)" a "([^"]+)" con metadata "([^"=]+)=([^"]*)"$/, async (world, type, from, to, key, value) => {
  const edge = await requireEdge(world, type, from, to);
  expect(edge.metadata[key], `metadata.${key} of ${from} -${type}-> ${to}`).toBe(value);
});

defineStep(/^se genera un edge de negocio "([^"]+)" de "([^"]+)" a "([^"]+)"$/, async (world, type, from, to) => {
  const edge = await requireEdge(world, type, from, to);
  expect(edge.edge_type, 'business relations are lower-case free edge types').toMatch(/^[a-z_]+$/);
});

defineStep(/^el edge tiene layer_violation (true|false)$/, (world, flag) => {
  const edge = world.vars.edge as { layer_violation: boolean; from_node: string; to_node: string };
  expect(edge.layer_violation, `layer_violation of ${edge.from_node} → ${edge.to_node}`).toBe(flag === 'true');
});

defineStep(/^se generan embeddings para la sección "([^"]+)"$/, async (world, heading) => {
  if (!(await requireEmbeddings(world, `embeddings of section "${heading}"`))) return;
  const id = targetNodeId(world);
  const sections = await embeddedSections(world, id);
  expect(sections, 'sections with embeddings').toContain(heading);
  const indexed = lastReport(world).events.find((e) => e.event === 'EVT-KDDDocument-Indexed' && e.payload.node_id === id);
  expect(indexed?.payload, `EVT-KDDDocument-Indexed of ${id}`).toMatchObject({ index_level: 'L2', embedding_count: await vectorCount(world, id) });
});

defineStep(/^no se generan embeddings para la sección "([^"]+)"$/, async (world, heading) => {
  if (!(await requireEmbeddings(world, `no embeddings for section "${heading}"`))) return;
  const sections = await embeddedSections(world, targetNodeId(world));
  expect(sections, 'sections with embeddings').not.toContain(heading);
});

defineStep(/^no se genera ningún nodo$/, async (world) => {
  const target = specRelative(String(world.vars.target));
  const { nodes } = await graphOf(world);
  expect(nodes.filter((n) => n.source_file === target).map((n) => n.id), `nodes from ${target}`).toEqual([]);
  expect(lastReport(world).skipped.map((s) => s.file), 'skipped files').toContain(target);
});

/**
 * Contradiction (docs/acceptance.md #1): CMD-001 lists INVALID_FRONT_MATTER for a *missing*
 * front-matter, BR-DOCUMENT-001 and this scenario say such a file is ignored silently. Chosen: no
 * node, no event and no warning for a file without front-matter (malformed YAML and unknown kinds
 * still warn).
 */
defineStep(/^no se emite ningún evento$/, (world) => {
  const target = specRelative(String(world.vars.target));
  const events = lastReport(world).events.filter((e) => e.payload.source_path === target);
  expect(events.map((e) => e.event), `events about ${target}`).toEqual([]);
  expect(lastReport(world).warnings.filter((w) => w.file === target), `warnings about ${target}`).toEqual([]);
});

/** Quoted ids inside product messages (`entity 'MiEntidad' found…`) are ignored in the comparison. */
defineStep(/^se registra un warning "([^"]+)"$/, (world, text) => {
  const warnings = lastReport(world).warnings;
  const matches = warnings.filter((w) => fold(w.message.replace(/\s*'[^']*'/g, '')).includes(fold(text)));
  expect(matches.length, `warning "${text}" among:\n${warnings.map((w) => `  ${w.code}: ${w.message}`).join('\n')}`).toBeGreaterThan(0);
});

// ── Layer violations ───────────────────────────────────────────────────────────────────────

defineStep(/^un índice con (\d+) edges marcados con layer_violation true$/, async (world, count) => {
  const targets = ['[[UC-001-IndexDocument]]', '[[CMD-001-IndexDocument]]', '[[UC-001-IndexDocument]]'];
  for (let i = 1; i <= Number(count); i++) {
    await world.write(`specs/01-domain/entities/Violadora${i}.md`, docAt('01-domain/entities/Violadora.md', `Entidad que depende de ${targets[(i - 1) % targets.length]}, una capa superior.`));
  }
  await build(world);
});

defineStep(/^consulto "retrieve layer-violations"$/, async (world) => {
  await world.kdd(['violations', '--json']);
});

defineStep(/^recibo (\d+) violaciones con detalle de nodos, capas y edge_type$/, (world, count) => {
  expect(world.last!.code, `exit code; stderr: ${world.last!.stderr}`).toBe(0);
  const result = world.lastJson<{ violations: Record<string, unknown>[]; total_violations: number }>();
  expect(result.total_violations).toBe(Number(count));
  expect(result.violations).toHaveLength(Number(count));
  for (const v of result.violations) {
    for (const field of ['from_node', 'to_node', 'from_layer', 'to_layer', 'edge_type']) expect(v[field], `violation field ${field}`).toBeTruthy();
  }
});

// ── Multi-domain ───────────────────────────────────────────────────────────────────────────
// Contradiction (docs/acceptance.md #3): GraphNode.id is `{Kind}:{DocumentId}`, unique per
// manifest; SCN-MultiDomain-001 names `auth:Entity:Token`. Chosen: domain-prefixed ids in
// multi-domain trees (two domains may both define `Entity:Usuario`).

/** A few documents per domain; auth and sessions reference core across domains. */
function domainDocs(domain: string): Record<string, string> {
  switch (domain) {
    case 'core':
      return { '01-domain/entities/Usuario.md': docAt('01-domain/entities/Usuario.md', 'Persona usuaria del sistema que se autentica con sus credenciales.') };
    case 'auth':
      return { '01-domain/entities/Credencial.md': docAt('01-domain/entities/Credencial.md', 'Credencial de autenticación de un [[core::Usuario]]: contraseña o token.') };
    case 'sessions':
      return { '01-domain/entities/Sesion.md': docAt('01-domain/entities/Sesion.md', 'Sesión abierta por un [[core::Usuario]] autenticado.') };
    default:
      return { [`01-domain/entities/${domain}Entity.md`]: docAt(`01-domain/entities/${domain}Entity.md`, `Entidad del dominio ${domain}.`) };
  }
}

defineStep(/^un repositorio con estructura multi-domain:$/, async (world) => {
  const [, ...rows] = world.step!.table!;
  const domains: Record<string, string> = {};
  for (const [domain, path] of rows) {
    domains[domain!] = path!.replace(/\/$/, '');
    for (const [file, text] of Object.entries(domainDocs(domain!))) await world.write(`${path}${file}`, text);
  }
  world.vars.domains = domains;
});

defineStep(/^el manifest\.structure es "([^"]+)"$/, async (world, structure) => {
  expect((await manifestOf(world)).structure).toBe(structure);
});

defineStep(/^el manifest\.domains contiene "([^"]+)" y "([^"]+)"$/, async (world, a, b) => {
  expect((await manifestOf(world)).domains).toEqual(expect.arrayContaining([a, b]));
});

defineStep(/^un índice multi-domain con nodos en "([^"]+)", "([^"]+)" y "([^"]+)"$/, async (world, ...domains) => {
  await build(world);
  const { nodes } = await graphOf(world);
  for (const domain of domains) expect(nodes.some((n) => n.domain === domain), `a node of domain ${domain}`).toBe(true);
});

defineStep(/^los resultados pueden incluir nodos de "([^"]+)" y "([^"]+)"$/, async (world, a, b) => {
  const result = world.lastJson<{ results: { node_id: string }[] }>();
  const domains = (await manifestOf(world)).domains;
  expect(result.results.length, 'results of the cross-domain query').toBeGreaterThan(0);
  for (const hit of result.results) expect(domains, `domain of ${hit.node_id}`).toContain(hit.node_id.split(':')[0]);
  world.vars.domainsSeen = [...new Set(result.results.map((r) => r.node_id.split(':')[0]))];
  expect([a, b].some((d) => (world.vars.domainsSeen as string[]).includes(d)), `results from ${a} or ${b}: ${result.results.map((r) => r.node_id).join(', ')}`).toBe(true);
});

defineStep(/^el graph_expansion puede cruzar dominios$/, async (world) => {
  const result = world.lastJson<{ graph_expansion: { from_node: string; to_node: string }[] }>();
  const { nodes } = await graphOf(world);
  const ids = new Set(nodes.map((n) => n.id));
  for (const edge of result.graph_expansion) {
    expect(ids.has(edge.from_node) && ids.has(edge.to_node), `expansion edge ${edge.from_node} → ${edge.to_node} joins existing nodes`).toBe(true);
  }
  world.vars.crossesDomains = result.graph_expansion.some((e) => e.from_node.split(':')[0] !== e.to_node.split(':')[0]);
});

// ── Incremental ────────────────────────────────────────────────────────────────────────────

/** The spec's hash is a placeholder: the index is built on a real first commit. */
defineStep(/^un índice existente con git_commit "([^"]+)"$/, async (world, label) => {
  await writeSpecs(world, baseTree());
  await world.write('.gitignore', '.kdd-index/\ndist/\nmodels/\n');
  await world.gitInit();
  world.vars.firstCommit = await world.commitAll(`specs (${label})`, { date: '2025-03-14T09:00:00Z' });
  world.vars.deferBuild = true;
});

/** Builds the index of the background lazily, once the level step has run. */
async function ensureIndex(world: World): Promise<void> {
  if (!world.vars.deferBuild) return;
  world.vars.deferBuild = false;
  await build(world);
  world.vars.statsBefore = (await manifestOf(world)).stats;
  world.vars.nodeBefore = await findNode(world, 'Entity:Pedido');
}

defineStep(/^que modifiqué "([^"]+)" y hice commit$/, async (world, path) => {
  await ensureIndex(world);
  const text = await world.read(path);
  await world.write(path, `${text}\n## Ejemplos\n\nUn pedido confirmado de 3 artículos.\n`);
  await world.commitAll(`edit ${path}`, { date: '2025-03-14T10:00:00Z' });
});

defineStep(/^que creé "([^"]+)" y hice commit$/, async (world, path) => {
  await ensureIndex(world);
  await world.write(path, docAt(specRelative(path), 'Entidad nueva relacionada con un [[Pedido]].'));
  await world.commitAll(`add ${path}`, { date: '2025-03-14T10:00:00Z' });
});

defineStep(/^que eliminé "([^"]+)" y hice commit$/, async (world, path) => {
  await ensureIndex(world);
  await rm(world.path(path));
  await world.commitAll(`delete ${path}`, { date: '2025-03-14T11:00:00Z' });
});

defineStep(/^que el commit solo modificó ficheros fuera de "\/specs"$/, async (world) => {
  await ensureIndex(world);
  await world.write('README.md', '# Proyecto\n\nFuera de specs.\n');
  await world.commitAll('docs outside specs', { date: '2025-03-14T10:30:00Z' });
});

defineStep(/^que no existe "\.kdd-index\/"$/, async (world) => {
  world.vars.deferBuild = false;
  await rm(world.path('.kdd-index'), { recursive: true, force: true });
  expect(world.exists('.kdd-index')).toBe(false);
});

/** Matches an event payload to `Entity:Pedido`, `Pedido` or `NuevaEntidad`. */
function aboutTarget(payload: Record<string, unknown>, target: string): boolean {
  const docId = String(payload.document_id ?? '');
  const path = String(payload.source_path ?? '');
  const name = basename(path).replace(/\.(md|feature)$/, '');
  return payload.node_id === target || docId === target || target.endsWith(`:${docId}`) || name === target || target.endsWith(`:${name}`);
}

defineStep(/^se emite "(EVT-KDDDocument-[A-Za-z]+)" para "([^"]+)"$/, (world, event, target) => {
  const payload = expectEvent(lastReport(world), event, (p) => aboutTarget(p, target), target);
  expectEventShape(event, payload);
  world.vars.event = payload;
});

defineStep(/^se elimina el nodo anterior de "([^"]+)" con sus edges y embeddings$/, async (world, id) => {
  const stale = world.vars.event as { previous_hash: string; current_hash: string };
  const before = world.vars.nodeBefore as { source_hash: string } | undefined;
  const node = await requireNode(world, id);
  expect(before?.source_hash, 'hash of the previous node = previous_hash of the Stale event').toBe(stale.previous_hash);
  expect(node.source_hash, 'the previous version is gone: the node now has the current hash').toBe(stale.current_hash);
  expect(node.source_hash).not.toBe(stale.previous_hash);
  if (await requireEmbeddings(world, `embeddings of the previous ${id} removed`)) {
    const indexed = lastReport(world).events.find((e) => e.event === 'EVT-KDDDocument-Indexed' && e.payload.node_id === id);
    expect(indexed?.payload.embedding_count, `embedding_count of the re-indexed ${id}`).toBe(await vectorCount(world, id));
  }
});

defineStep(/^se re-indexa "([^"]+)" generando nuevo nodo, edges y embeddings$/, async (world, file) => {
  const report = lastReport(world);
  const payload = expectEvent(report, 'EVT-KDDDocument-Indexed', (p) => basename(String(p.source_path)) === file, file);
  expectEventShape('EVT-KDDDocument-Indexed', payload);
  expect(report.changes?.reindexed, 're-indexed files').toEqual([String(payload.source_path)]);
  const order = report.events.filter((e) => e.payload.source_path === payload.source_path).map((e) => e.event);
  expect(order, `events of ${String(payload.source_path)}, in order`).toEqual(['EVT-KDDDocument-Stale', 'EVT-KDDDocument-Detected', 'EVT-KDDDocument-Parsed', 'EVT-KDDDocument-Indexed']);
  const { edges } = await graphOf(world);
  expect(edges.filter((e) => e.from_node === payload.node_id).length, `edges of ${String(payload.node_id)}`).toBeGreaterThan(0);
  if (await requireEmbeddings(world, `new embeddings of ${file}`)) {
    expect(await vectorCount(world, String(payload.node_id)), `vectors of ${String(payload.node_id)}`).toBeGreaterThan(0);
    expect(payload.embedding_count, 'embedding_count of EVT-KDDDocument-Indexed').toBe(await vectorCount(world, String(payload.node_id)));
  }
});

defineStep(/^(?:el manifest\.git_commit se actualiza a HEAD|se genera un manifest con git_commit de HEAD)$/, async (world) => {
  const head = (await world.git(['rev-parse', 'HEAD'])).trim();
  expect((await manifestOf(world)).git_commit, 'manifest.git_commit').toBe(head);
  if (world.vars.firstCommit && world.vars.firstCommit !== head) expect((await manifestOf(world)).git_commit).not.toBe(world.vars.firstCommit);
});

defineStep(/^se genera un nodo "([^"]+)" con (sus edges|edges y embeddings|sus edges y embeddings)$/, async (world, id, what) => {
  const node = await requireNode(world, id);
  const { edges } = await graphOf(world);
  expect(edges.filter((e) => e.from_node === node.id).length, `edges of ${id}:\n${describeEdges(edges)}`).toBeGreaterThan(0);
  if (what.includes('embeddings') && (await requireEmbeddings(world, `embeddings of ${id}`))) {
    expect(await vectorCount(world, id), `vectors of ${id}`).toBeGreaterThan(0);
  }
});

defineStep(/^las stats del manifest se incrementan$/, async (world) => {
  const before = world.vars.statsBefore as { nodes: number; edges: number };
  const after = (await manifestOf(world)).stats;
  expect(after.nodes, 'stats.nodes').toBeGreaterThan(before.nodes);
  expect(after.edges, 'stats.edges').toBeGreaterThan(before.edges);
});

defineStep(/^el nodo "([^"]+)" no existe en el índice$/, async (world, id) => {
  expect(await findNode(world, id), `${id} in the index`).toBeUndefined();
  expect(world.exists(`.kdd-index/nodes/entity/${id.split(':').pop()}.json`), 'node file').toBe(false);
});

defineStep(/^los edges de "([^"]+)" han sido eliminados$/, async (world, id) => {
  const dist = (world.vars.dist as string | undefined) ?? 'dist';
  const { edges } = await graphOf(world, dist);
  const left = edges.filter((e) => e.from_node === id || e.to_node === id);
  expect(left, `edges still touching ${id}:\n${describeEdges(left)}`).toEqual([]);
  if (world.vars.event && (world.vars.event as { edge_count?: number }).edge_count !== undefined && !world.vars.merge) {
    expect((world.vars.event as { edge_count: number }).edge_count, 'edge_count of EVT-KDDDocument-Deleted').toBeGreaterThan(0);
  }
});

defineStep(/^los embeddings de "([^"]+)" han sido eliminados$/, async (world, id) => {
  if (!(await requireEmbeddings(world, `embeddings of ${id} removed`))) return;
  const nodeId = id.includes(':') ? id : `Entity:${id}`;
  expect(await vectorCount(world, nodeId, (world.vars.dist as string | undefined) ?? 'dist'), `vectors of ${nodeId}`).toBe(0);
  const deleted = lastReport(world).events.find((e) => e.event === 'EVT-KDDDocument-Deleted' && e.payload.node_id === nodeId);
  if (deleted) expect(deleted.payload.embedding_count, 'embedding_count of EVT-KDDDocument-Deleted').toBeGreaterThan(0);
});

defineStep(/^no se indexa ningún documento$/, (world) => {
  const report = lastReport(world);
  expect(report.changes?.reindexed, 're-indexed files').toEqual([]);
  expect(report.events.filter((e) => e.event === 'EVT-KDDDocument-Indexed'), 'EVT-KDDDocument-Indexed events').toEqual([]);
});

/** UC-002 FA-2: with no change under /specs the build ends without touching the manifest at all. */
defineStep(/^el manifest no se modifica$/, async (world) => {
  const after = await world.read('.kdd-index/manifest.json');
  if (after !== world.vars.manifestBefore) {
    const before = JSON.parse(String(world.vars.manifestBefore)) as Record<string, unknown>;
    const now = JSON.parse(after) as Record<string, unknown>;
    const changed = Object.keys({ ...before, ...now }).filter((k) => JSON.stringify(before[k]) !== JSON.stringify(now[k]));
    expect(changed, 'manifest fields changed by a commit outside /specs').toEqual([]);
  }
});

defineStep(/^se ejecuta indexación completa de todos los ficheros en "\/specs"$/, async (world) => {
  const report = lastReport(world);
  expect(report.mode, 'build mode').toBe('full');
  const files = Object.keys((await manifestOf(world)).sources);
  const indexed = report.events.filter((e) => e.event === 'EVT-KDDDocument-Indexed').map((e) => e.payload.source_path);
  expect([...indexed].sort(), 'one EVT-KDDDocument-Indexed per spec file').toEqual([...files].sort());
});

// ── Offline ────────────────────────────────────────────────────────────────────────────────

defineStep(/^(?:que )?no tengo conexión a internet$/, (world) => {
  world.blockNetwork();
});

defineStep(/^no tengo modelo de embeddings local$/, async (world) => {
  await world.write('models/.keep', '');
  world.setEnv('KDD_MODELS_DIR', world.path('models'));
});

defineStep(/^tengo el modelo "([^"]+)" descargado localmente$/, async (world, model) => {
  world.vars.level = 'L2';
  world.vars.modelName = model;
  await tinyModelStore(world, model);
});

defineStep(/^no se generan embeddings$/, async (world) => {
  const manifest = await manifestOf(world);
  expect(manifest.stats.embeddings, 'manifest.stats.embeddings').toBe(0);
  expect(manifest.embedding_model, 'manifest.embedding_model').toBeNull();
  const indexed = lastReport(world).events.filter((e) => e.event === 'EVT-KDDDocument-Indexed');
  for (const e of indexed) expect(e.payload.embedding_count, `embedding_count of ${String(e.payload.node_id)}`).toBe(0);
});

defineStep(/^no se envía ninguna petición a servicios externos$/, (world) => {
  expect(world.vars.networkBlocked, 'the network guard was on').toBe(true);
  expect(world.network, 'outgoing connections attempted').toEqual([]);
});

defineStep(/^un índice L2 existente$/, async (world) => {
  world.vars.level = 'L2';
  await writeSpecs(world, baseTree());
  await build(world);
  await requireEmbeddings(world, 'an existing L2 index');
});

/**
 * `kb sync push` → `kdd sync push --to <scenario>/server --json` (folder transport, CMD-005): the
 * index goes to `server/indexes/<developer>/`; the steps check the report's file list and what
 * arrived in the folder.
 */
const SYNC_SERVER = 'server';

/** Files under `dir` (relative, POSIX), recursively. */
async function filesIn(dir: string): Promise<string[]> {
  const { readdir } = await import('node:fs/promises');
  const { relative, sep } = await import('node:path');
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => relative(dir, `${e.parentPath}/${e.name}`).split(sep).join('/')).sort();
}

interface SyncPushJson {
  destination: string;
  files: { path: string; bytes: number }[];
  skipped: string[];
}

defineStep(/^ejecuto "kb sync push"$/, async (world) => {
  if (!(await commandExists('sync'))) world.stop('`kdd sync push` does not exist (no sync command in cli/main.ts COMMANDS)');
  await world.write(`${SYNC_SERVER}/.keep`, '');
  const run = await world.kdd(['sync', 'push', '--to', SYNC_SERVER, '--as', 'dev', '--json']);
  expect(run.code, `kdd sync push exit code; stderr:\n${run.stderr}`).toBe(0);
  world.vars.push = world.lastJson<SyncPushJson>();
});

defineStep(/^se transmiten los artefactos de "\.kdd-index\/"$/, async (world) => {
  const push = world.vars.push as SyncPushJson;
  // Every artifact of the local index (the local-only `.cache/` aside) travelled, byte for byte.
  const local = (await filesIn(world.path('.kdd-index'))).filter((path) => !path.startsWith('.cache/'));
  expect(push.files.map((f) => f.path), 'files listed in the push report').toEqual(local);
  expect(local, 'the index has a manifest, nodes and edges').toEqual(expect.arrayContaining(['manifest.json', 'edges/edges.jsonl', 'nodes/entity/Pedido.json']));
  if (world.vars.indexLevel === 'L2') expect(local.some((path) => path.startsWith('embeddings/')), 'vector shards of the L2 index').toBe(true);
  expect(await filesIn(push.destination), `files in ${push.destination}`).toEqual(local);
  for (const path of local) {
    expect(await world.read(`${push.destination}/${path}`), `transmitted ${path}`).toBe(await world.read(`.kdd-index/${path}`));
  }
  expect(push.skipped, 'local-only files not sent').toContain('.cache/');
});

defineStep(/^no se transmite ningún fichero de "\/specs"$/, async (world) => {
  const push = world.vars.push as SyncPushJson;
  const specs = await filesIn(world.path('specs'));
  const names = new Set(specs.map((path) => basename(path)));
  for (const file of push.files) {
    expect(file.path.endsWith('.md') || names.has(basename(file.path)), `spec-like file in the push report: ${file.path}`).toBe(false);
  }
  const arrived = await filesIn(world.path(SYNC_SERVER));
  const specBytes = new Set(await Promise.all(specs.map((path) => world.read(`specs/${path}`))));
  for (const path of arrived) {
    expect(path.endsWith('.md'), `Markdown file on the server: ${path}`).toBe(false);
    expect(specBytes.has(await world.read(`${SYNC_SERVER}/${path}`)), `${path} on the server is a copy of a spec file`).toBe(false);
  }
});

/**
 * Contradiction (docs/acceptance.md #2): the Embedding entity stores `raw_text`, so artifacts hold
 * the text of sections; what must never travel is a spec file itself (its Markdown source): no
 * transmitted artifact (nor the local index) contains a spec file's body verbatim.
 */
defineStep(/^los artefactos no contienen el contenido Markdown original$/, async (world) => {
  const folders = [world.path('.kdd-index'), ...(world.vars.push ? [(world.vars.push as SyncPushJson).destination] : [])];
  for (const folder of folders) {
    const artefacts = await Promise.all((await filesIn(folder)).map(async (path) => [path, await world.read(`${folder}/${path}`)] as const));
    for (const [path, text] of Object.entries(baseTree())) {
      const body = text.split('\n---\n')[1] ?? text;
      for (const [name, artefact] of artefacts) expect(artefact.includes(body), `Markdown source of ${path} inside ${folder}/${name}`).toBe(false);
    }
  }
});

defineStep(/^ejecuto "kb enrich ([^"]+)"$/, async (world, id) => {
  if (!world.exists('specs')) {
    await writeSpecs(world, baseTree());
    await build(world);
  }
  world.vars.manifestBefore = await world.read('.kdd-index/manifest.json');
  if (!(await commandExists('enrich'))) world.stop('`kdd enrich` (CMD-009, L3) is not implemented: no enrich command in cli/main.ts COMMANDS');
  await world.kdd(['enrich', id, '--json']);
});

defineStep(/^recibo error "([A-Z_]+)" o "([A-Z_]+)"$/, (world, a, b) => {
  expect(world.last!.code, 'exit code').not.toBe(0);
  expect(`${world.last!.stdout}${world.last!.stderr}`).toMatch(new RegExp(`${a}|${b}`));
});

defineStep(/^el índice existente no se modifica$/, async (world) => {
  expect(await world.read('.kdd-index/manifest.json')).toBe(world.vars.manifestBefore);
});

// ── helpers ────────────────────────────────────────────────────────────────────────────────

function targetNodeId(world: World): string {
  const node = world.vars.node as { id: string } | undefined;
  if (node) return node.id;
  return `Entity:${basename(String(world.vars.target), '.md')}`;
}
