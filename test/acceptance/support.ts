/**
 * Shared helpers of the step definitions: small KDD fixture documents, building with the real CLI,
 * reading the index it produced, and the L2 (embedding model) plumbing.
 */
import { expect } from 'vitest';
import type { GraphEdge, GraphNode, IndexManifest } from '../../model/graph.js';
import type { World } from './world.js';

// ── Fixture documents ──────────────────────────────────────────────────────────────────────

export interface DocSpec {
  kind: string;
  /** Front-matter id (omitted for entities: their id is the file name). */
  id?: string;
  title: string;
  /** Extra front-matter lines (`aliases: [A, B]`). */
  frontMatter?: string[];
  /** Heading → body, in order. */
  sections: [string, string][];
}

export function renderDoc(doc: DocSpec): string {
  const fm = ['---', ...(doc.id ? [`id: ${doc.id}`] : []), `kind: ${doc.kind}`, ...(doc.frontMatter ?? []), '---'];
  const body = doc.sections.map(([heading, text]) => `## ${heading}\n\n${text}\n`).join('\n');
  return `${fm.join('\n')}\n# ${doc.title}\n\n${body}`;
}

/** Kind, id and a title for a spec path, from the KDD folder layout. */
export function describePath(path: string): { kind: string; id?: string; title: string; name: string } {
  const name = path.split('/').pop()!.replace(/\.md$/, '');
  const id = /^(UC|CMD|QRY|PROC|REQ|OBJ|ADR|REL|UV|NFR)-\d{3,4}/.exec(name)?.[0] ?? /^(BR|BP|XP)-[A-Z0-9-]+?-\d{3}/.exec(name)?.[0];
  if (path.includes('/use-cases/')) return { kind: 'use-case', id, title: name, name };
  if (path.includes('/commands/')) return { kind: 'command', id, title: name, name };
  if (path.includes('/queries/')) return { kind: 'query', id, title: name, name };
  if (path.includes('/rules/') && name.startsWith('BR-')) return { kind: 'business-rule', id, title: name, name };
  if (path.includes('/events/')) return { kind: 'event', id: name, title: name, name };
  if (/(^|\/)00-requirements\/PRD-/.test(path)) return { kind: 'prd', id: name, title: name, name };
  return { kind: 'entity', title: name, name };
}

/** A minimal valid document for `path` whose description links to `links`. */
export function docAt(path: string, description: string, extra: [string, string][] = []): string {
  const place = describePath(path);
  return renderDoc({ kind: place.kind, id: place.id, title: place.title, sections: [['Descripción', description], ...extra] });
}

/**
 * The small "kdd-engine" tree most upstream backgrounds describe: entities (KDDDocument,
 * GraphNode, Pedido, Usuario), one rule, one command, one use case. Paths relative to the specs root.
 * Its only cross-layer links go downwards, so it has no layer violation of its own.
 */
export function baseTree(): Record<string, string> {
  return {
    '01-domain/entities/KDDDocument.md': renderDoc({
      kind: 'entity',
      title: 'KDDDocument',
      sections: [['Descripción', 'Documento de especificación KDD que el motor indexa: un fichero Markdown con front-matter y un kind. Cada documento se representa como un [[GraphNode]].']],
    }),
    '01-domain/entities/GraphNode.md': renderDoc({
      kind: 'entity',
      title: 'GraphNode',
      sections: [['Descripción', 'Nodo del grafo de conocimiento generado al indexar un documento.']],
    }),
    '01-domain/entities/Usuario.md': renderDoc({
      kind: 'entity',
      title: 'Usuario',
      sections: [['Descripción', 'Persona usuaria que realiza pedidos de compra y se autentica en el sistema.']],
    }),
    '01-domain/entities/Pedido.md': PEDIDO,
    '01-domain/rules/BR-DOCUMENT-001.md': renderDoc({
      kind: 'business-rule',
      id: 'BR-DOCUMENT-001',
      title: 'BR-DOCUMENT-001: Reconocimiento de documentos',
      sections: [['Declaración', 'Regla de negocio: todo [[KDDDocument]] debe tener front-matter con un kind reconocido para ser indexado; los documentos sin kind se ignoran.']],
    }),
    '02-behavior/commands/CMD-001-IndexDocument.md': renderDoc({
      kind: 'command',
      id: 'CMD-001',
      title: 'CMD-001: IndexDocument',
      sections: [['Propósito', 'Comando que indexa un [[KDDDocument]]: extrae el nodo, sus edges y sus embeddings.']],
    }),
    '02-behavior/use-cases/UC-001-IndexDocument.md': renderDoc({
      kind: 'use-case',
      id: 'UC-001',
      title: 'UC-001: IndexDocument',
      sections: [
        ['Descripción', 'Flujo de indexación de documentos: el desarrollador indexa un documento de especificación y el motor genera su nodo.'],
        ['Flujo Principal', '1. El sistema detecta el documento.\n2. El sistema indexa el documento y genera el nodo.'],
        ['Reglas Aplicadas', '- [[BR-DOCUMENT-001]]'],
        ['Comandos Ejecutados', '- [[CMD-001-IndexDocument]]'],
      ],
    }),
  };
}

/** The entity of SCN-IndexEntity-001, also used by other backgrounds. */
export const PEDIDO = `---
kind: entity
aliases: [Orden, Order]
status: approved
---
# Pedido
## Descripción
Representa un pedido de compra realizado por un [[Usuario]].
## Atributos
| Atributo | Tipo | Descripción |
|----------|------|-------------|
| id | uuid | Identificador único |
| estado | enum | borrador, confirmado, enviado |
## Relaciones
| Relación | Cardinalidad | Destino | Descripción |
|----------|-------------|---------|-------------|
| pertenece_a | N:1 | [[Usuario]] | El usuario que creó el pedido |
`;

/** Writes `files` (relative to `<cwd>/<specs>`). */
export async function writeSpecs(world: World, files: Record<string, string>, specs = 'specs', base = world.cwd): Promise<void> {
  for (const [path, text] of Object.entries(files)) await world.write(`${specs}/${path}`, text, base);
}

/** `specs/01-domain/…` (as scenarios write paths) → path relative to the specs root. */
export function specRelative(path: string): string {
  return path.replace(/^\/?specs\//, '');
}

// ── Building and reading ───────────────────────────────────────────────────────────────────

export interface BuildReportJson {
  mode?: string;
  full_reason?: string | null;
  nodes: number;
  edges: number;
  index_level: string;
  structure: string;
  warnings: { code: string; file: string; message: string }[];
  skipped: { file: string; reason: string }[];
  events: { event: string; payload: Record<string, unknown> }[];
  changes?: { added: string[]; modified: string[]; deleted: string[]; reindexed: string[] };
  bundle: { bundle: string };
  index_dir: { written: number; removed: number };
}

/**
 * `kdd build <specs> --json` (+ L2 flags when the scenario asked for L2 and the CLI has them).
 * Stores the report in `world.vars.report`.
 */
export async function build(world: World, extra: string[] = [], options: { cwd?: string; specs?: string } = {}): Promise<BuildReportJson> {
  const args = ['build', options.specs ?? 'specs', '--json', ...extra, ...(await levelArgs(world))];
  const run = await world.kdd(args, { cwd: options.cwd });
  if (run.code !== 0) throw new Error(`kdd ${args.join(' ')} exited ${run.code}\nstderr:\n${run.stderr}\nstdout:\n${run.stdout.slice(0, 2000)}`);
  const report = world.lastJson<BuildReportJson>();
  world.vars.report = report;
  world.timings[`build ${world.runs.length}`] = run.ms;
  checkLevel(world, report);
  return report;
}

export function lastReport(world: World): BuildReportJson {
  const report = world.vars.report as BuildReportJson | undefined;
  if (!report) throw new Error('No build report: the scenario has not built yet');
  return report;
}

export async function manifestOf(world: World, indexDir = '.kdd-index'): Promise<IndexManifest> {
  return world.readJson<IndexManifest>(`${indexDir}/manifest.json`);
}

export async function graphOf(world: World, dist = 'dist'): Promise<{ nodes: GraphNode[]; edges: GraphEdge[]; manifest: IndexManifest }> {
  const index = await world.index(dist);
  return { nodes: index.bundle.nodes, edges: index.bundle.edges, manifest: index.bundle.manifest };
}

export async function findNode(world: World, id: string, dist = 'dist'): Promise<GraphNode | undefined> {
  const { nodes } = await graphOf(world, dist);
  return nodes.find((node) => node.id === id);
}

export async function requireNode(world: World, id: string, dist = 'dist'): Promise<GraphNode> {
  const { nodes } = await graphOf(world, dist);
  const node = nodes.find((n) => n.id === id);
  if (!node) throw new Error(`Expected node ${id} in the index; it has: ${nodes.map((n) => n.id).join(', ')}`);
  return node;
}

export function edgesFrom(edges: readonly GraphEdge[], from: string, to: string, type?: string): GraphEdge[] {
  return edges.filter((e) => e.from_node === from && e.to_node === to && (type === undefined || e.edge_type === type));
}

export function describeEdges(edges: readonly GraphEdge[]): string {
  return edges.map((e) => `  ${e.from_node} -${e.edge_type}-> ${e.to_node}${e.layer_violation ? ' (violation)' : ''}`).join('\n');
}

export async function requireEdge(world: World, type: string, from: string, to: string): Promise<GraphEdge> {
  const { edges } = await graphOf(world);
  const found = edgesFrom(edges, from, to, type);
  if (found.length === 0) {
    const around = edges.filter((e) => e.from_node === from || e.to_node === to);
    throw new Error(`Expected edge ${from} -${type}-> ${to}; edges touching them:\n${describeEdges(around) || '  (none)'}`);
  }
  world.vars.edge = found[0];
  return found[0]!;
}

export function eventsOf(report: { events: { event: string; payload: Record<string, unknown> }[] }, name: string) {
  return report.events.filter((e) => e.event === name);
}

export function expectEvent(report: { events: { event: string; payload: Record<string, unknown> }[] }, name: string, match: (payload: Record<string, unknown>) => boolean, what: string) {
  const found = eventsOf(report, name).filter((e) => match(e.payload));
  expect(found.length, `${name} for ${what}; events in the report:\n${report.events.map((e) => `  ${e.event} ${JSON.stringify(e.payload).slice(0, 160)}`).join('\n')}`).toBeGreaterThan(0);
  return found[0]!.payload;
}

/** Payload fields each event spec defines (specs/01-domain/events/*.md upstream). */
export const EVENT_FIELDS: Record<string, string[]> = {
  'EVT-KDDDocument-Detected': ['source_path', 'source_hash', 'kind', 'layer', 'detected_at'],
  'EVT-KDDDocument-Parsed': ['document_id', 'source_path', 'kind', 'front_matter', 'section_count', 'wiki_link_count', 'parsed_at'],
  'EVT-KDDDocument-Indexed': ['document_id', 'source_path', 'kind', 'node_id', 'edge_count', 'embedding_count', 'index_level', 'duration_ms', 'indexed_at'],
  'EVT-KDDDocument-Stale': ['document_id', 'source_path', 'previous_hash', 'current_hash', 'detected_at'],
  'EVT-KDDDocument-Deleted': ['document_id', 'source_path', 'node_id', 'edge_count', 'embedding_count', 'deleted_at'],
  'EVT-Index-MergeRequested': ['merge_id', 'source_manifests', 'developer_ids', 'target_version', 'requested_at', 'requested_by'],
  'EVT-Index-MergeCompleted': ['merge_id', 'merged_manifest_id', 'source_count', 'total_nodes', 'total_edges', 'total_embeddings', 'conflicts_resolved', 'duration_ms', 'completed_at'],
};

export function expectEventShape(name: string, payload: Record<string, unknown>): void {
  const fields = EVENT_FIELDS[name];
  if (!fields) return;
  expect(Object.keys(payload).sort(), `payload fields of ${name}`).toEqual(expect.arrayContaining(fields));
}

// ── L2: the offline tiny embedding model ───────────────────────────────────────────────────

/** Folder of a tiny model store, generated once per scenario that asks for L2. */
export async function tinyModelStore(world: World, name = 'tiny-e5-test'): Promise<{ store: string; id: string }> {
  const key = `tinyModel:${name}`;
  if (world.vars[key]) return world.vars[key] as { store: string; id: string };
  const { makeTinyModel } = await import('../helpers/tiny-model/make-tiny-model.js');
  const store = `${world.root}/models`;
  await makeTinyModel(`${store}/kdd-test`, { name, quantizedCopy: true });
  const value = { store, id: `kdd-test/${name}` };
  world.vars[key] = value;
  return value;
}

/** Build options of the CLI, read from its help (the build may not support L2 yet). */
export async function buildUsage(): Promise<string> {
  const [{ buildCommand }, { commandHelp }] = await Promise.all([import('../../cli/commands/build.js'), import('../../cli/command.js')]);
  return commandHelp(buildCommand);
}

/** Why L2 scenarios are pending while `kdd build` cannot select a level/model (issue #4). */
export const L2_MISSING =
  'L2 build unavailable: `kdd build` has no --level/--embedder option yet (issue #4: compiler/embed/semantic.ts is not reachable from cli/commands/build.ts)';

/** True when the CLI's build can be asked for L2 with a given model. */
async function canBuildL2(): Promise<boolean> {
  const usage = await buildUsage();
  return usage.includes('--level') && (usage.includes('--embedder') || usage.includes('--model'));
}

/** Extra `kdd build` flags for the level the scenario asked for (`world.vars.level`). */
async function levelArgs(world: World): Promise<string[]> {
  const usage = await buildUsage();
  if (world.vars.level !== 'L2') return usage.includes('--level') && world.vars.level === 'L1' ? ['--level', 'L1'] : [];
  if (!(await canBuildL2())) return [];
  const model = await tinyModelStore(world, (world.vars.modelName as string | undefined) ?? 'tiny-e5-test');
  world.setEnv('KDD_MODELS_DIR', model.store);
  const args = ['--level', 'L2', usage.includes('--embedder') ? '--embedder' : '--model', model.id];
  if (usage.includes('--models-dir')) args.push('--models-dir', model.store);
  if (usage.includes('--dtype')) args.push('--dtype', 'fp32');
  return args;
}

function checkLevel(world: World, report: BuildReportJson): void {
  world.vars.indexLevel = report.index_level;
}

/**
 * Marks the scenario pending when it needs embeddings and the product cannot produce them yet;
 * returns true when embeddings are really there (and fails when an L2 build came out L1).
 */
export async function requireEmbeddings(world: World, what: string): Promise<boolean> {
  if (!(await canBuildL2())) {
    world.pending(L2_MISSING);
    world.vars.l2Needs = [...((world.vars.l2Needs as string[] | undefined) ?? []), what];
    return false;
  }
  const warnings = (world.vars.report as BuildReportJson | undefined)?.warnings ?? [];
  expect(world.vars.indexLevel, `index level after an L2 build with the offline tiny model (${what}); warnings: ${JSON.stringify(warnings)}`).toBe('L2');
  return true;
}

/** Headings of the sections of `nodeId` that have vectors in the bundle (L2). */
export async function embeddedSections(world: World, nodeId: string, dist = 'dist'): Promise<string[]> {
  const { bundle } = await world.index(dist);
  const b = bundle as unknown as {
    chunks?: { node: number; section: number; embeddable: boolean }[];
    vectors?: { rows: number[] } | null;
  };
  if (!Array.isArray(b.chunks) || !b.vectors) throw new Error('the bundle has no chunks/vectors (formats/bundle/bundle.ts Bundle.chunks, Bundle.vectors)');
  const at = bundle.nodes.findIndex((n) => n.id === nodeId);
  expect(at, `${nodeId} in the bundle`).toBeGreaterThanOrEqual(0);
  const headings = new Set<string>();
  for (const row of b.vectors.rows) {
    const chunk = b.chunks[row]!;
    if (chunk.node === at) headings.add(bundle.nodes[at]!.sections[chunk.section]?.heading ?? '?');
  }
  return [...headings];
}

/** The int8 bytes of a node's vectors in the bundle of `dist`, row after row (empty at L1). */
export async function vectorBytes(world: World, nodeId: string, dist = 'dist'): Promise<number[]> {
  const { bundle } = await world.index(dist);
  const b = bundle as unknown as { chunks?: { node: number }[]; vectors?: { rows: number[]; dimensions: number; quantized: { data: Uint8Array } } | null };
  const at = bundle.nodes.findIndex((n) => n.id === nodeId);
  if (!b.vectors || !b.chunks || at < 0) return [];
  const dims = b.vectors.dimensions;
  const out: number[] = [];
  b.vectors.rows.forEach((row, i) => {
    if (b.chunks![row]!.node === at) out.push(...b.vectors!.quantized.data.subarray(i * dims, (i + 1) * dims));
  });
  return out;
}

/** Vector count of a node in the bundle of `dist` (0 at L1). */
export async function vectorCount(world: World, nodeId: string, dist = 'dist'): Promise<number> {
  const { bundle } = await world.index(dist);
  const b = bundle as unknown as { chunks?: { node: number }[]; vectors?: { rows: number[] } | null };
  const at = bundle.nodes.findIndex((n) => n.id === nodeId);
  if (!b.vectors || !b.chunks || at < 0) return 0;
  return b.vectors.rows.filter((row) => b.chunks![row]!.node === at).length;
}

export function commandExists(name: string): Promise<boolean> {
  return import('../../cli/main.js').then(async () => {
    const out: string[] = [];
    const { runCli } = await import('../../cli/main.js');
    await runCli(['--help'], { stdout: (s) => void out.push(s), stderr: () => undefined, isTTY: false, cwd: process.cwd() });
    return new RegExp(`^  ${name}\\s`, 'm').test(out.join(''));
  });
}

/** Case- and accent-insensitive "contains". */
export function fold(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}
