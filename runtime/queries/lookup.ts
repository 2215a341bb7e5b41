/**
 * Lookups an agent makes between queries: find a spec by what it has at hand (`find`), page
 * through the specs (`list`), read a spec's sections (`read_section`). Pure over the index, except
 * that `read_section` can read the raw source file through a reader the caller provides (the Node
 * adapter's `--specs-root` reader; the runtime itself never touches a file system).
 */
import { createError } from '../../model/errors.js';
import type { KddIndex } from '../kdd-index.js';
import { KINDS, LAYERS, type GraphNode, type Kind, type Layer } from '../../model/graph.js';
import type { ParamsSpec } from '../param-spec.js';
import { enumParam, intParam, paramsObject, requireIndex, stringParam, type RawParams } from '../validate.js';
import { nodeRef, type NodeRef } from './answer-shapes.js';
import { findNodes } from './resolve.js';
import { search } from './search.js';

// ── find ──────────────────────────────────────────────────────────────────────────────────────

export const FIND_PARAMS = {
  query: {
    type: 'string',
    required: true,
    minLength: 1,
    description: 'An id (Entity:Pedido, UC-001), a title or alias (Pedido, Order), or a file name or path (UC-001-CrearPedido.md).',
    cli: { positional: 'rest' },
  },
} as const satisfies ParamsSpec;

/** A node as `find` and the MCP `kdd://node/{id}` resource show it (section texts omitted). */
export interface NodeSummary extends NodeRef {
  doc_id: string;
  status: string;
  aliases: string[];
  domain: string | null;
  tags: string[];
  indexed_fields: Record<string, unknown>;
  headings: string[];
}

export interface FindResult {
  matches: NodeSummary[];
  /** Search hits when nothing matched exactly (queries of 3 characters or more). */
  suggestions: { node_id: string; kind: Kind; score: number; snippet: string }[];
  total_matches: number;
}

export function nodeSummary(node: GraphNode): NodeSummary {
  return {
    ...nodeRef(node),
    doc_id: node.doc_id,
    status: node.status,
    aliases: node.aliases,
    domain: node.domain,
    tags: node.tags,
    indexed_fields: node.indexed_fields,
    headings: node.sections.map((s) => s.heading),
  };
}

/** The nodes a reference names, resolved as every node parameter is (runtime/queries/resolve.ts); search hits when none. */
export function find(index: KddIndex, params: RawParams): FindResult {
  requireIndex(index);
  const text = stringParam(params, 'query', FIND_PARAMS.query);
  const matches = findNodes(index, text).map((i) => nodeSummary(index.bundle.nodes[i]!));
  const suggestions =
    matches.length === 0 && text.length >= 3
      ? search(index, { query_text: text, min_score: 0, limit: 5 }).results.map((r) => ({ node_id: r.node_id, kind: r.document_kind, score: r.score, snippet: r.snippet }))
      : [];
  return { matches, suggestions, total_matches: matches.length };
}

// ── list ──────────────────────────────────────────────────────────────────────────────────────

export const LIST_PARAMS = {
  kind: { type: 'enum', values: KINDS, required: false, description: 'Only this kind (entity, use-case, business-rule…).' },
  layer: { type: 'enum', values: LAYERS, required: false, description: 'Only this layer (01-domain…).' },
  domain: { type: 'string', required: false, description: 'Only this domain (multi-domain indexes).' },
  offset: { type: 'integer', min: 0, default: 0, description: 'Start position; pass the previous answer’s next_offset to continue.' },
  limit: { type: 'integer', min: 1, max: 200, default: 50, description: 'Page size.' },
} as const satisfies ParamsSpec;

export interface ListResult {
  nodes: NodeRef[];
  total: number;
  offset: number;
  /** Where the next page starts; null after the last one. */
  next_offset: number | null;
}

/** Spec nodes sorted by id (bundle order), filtered, one page at a time. */
export function list(index: KddIndex, params: RawParams): ListResult {
  requireIndex(index);
  const raw = paramsObject(params);
  const kind: Kind | null = raw.kind == null || raw.kind === '' ? null : enumParam(raw, 'kind', LIST_PARAMS.kind.values, LIST_PARAMS.kind);
  const layer: Layer | null = raw.layer == null || raw.layer === '' ? null : enumParam(raw, 'layer', LIST_PARAMS.layer.values, LIST_PARAMS.layer);
  const domain = raw.domain == null ? null : stringParam(raw, 'domain', LIST_PARAMS.domain);
  const offset = intParam(raw, 'offset', LIST_PARAMS.offset);
  const size = intParam(raw, 'limit', LIST_PARAMS.limit);
  const all = index.bundle.nodes.filter((n) => (!kind || n.kind === kind) && (!layer || n.layer === layer) && (!domain || n.domain === domain));
  const page = all.slice(offset, offset + size).map(nodeRef);
  return { nodes: page, total: all.length, offset, next_offset: offset + page.length < all.length ? offset + page.length : null };
}

// ── read_section ──────────────────────────────────────────────────────────────────────────────

export const READ_SECTION_PARAMS = {
  node_id: {
    type: 'string',
    required: false,
    node: true,
    aliases: ['node'],
    description: 'The spec to read (an id, or a document id, title or file name naming one). Give this or path.',
    cli: { positional: 'one' },
  },
  path: {
    type: 'string',
    required: false,
    description: 'Instead of node_id: a spec file path relative to the specs root (raw file; only with a specs root).',
    cli: { hidden: true },
  },
  heading: { type: 'string', required: false, description: 'A section heading (case and accents ignored) or field name (main_flow). Default: every section.' },
  source: {
    type: 'enum',
    values: ['index', 'file'],
    required: false,
    default: 'index',
    description: '"index": the sections stored in the index; "file": the raw Markdown of the source file (only with a specs root).',
  },
} as const satisfies ParamsSpec;

/** Reads spec files below a root the caller chose; the runtime has no file system of its own. */
export interface SpecSource {
  read(path: string): Promise<{ path: string; text: string }>;
}

export interface SectionText {
  heading: string;
  field: string | null;
  text: string;
}

export type ReadSectionResult =
  | { source: 'index'; node_id: string; title: string; sections: SectionText[] }
  | { source: 'index'; node_id: string; heading: string; field: string | null; text: string }
  | { source: 'file'; path: string; node_id: string | null; heading?: string; text: string };

/** A spec's sections from the index, or (with `specs`) its raw Markdown, whole or one heading of it. */
export async function readSection(index: KddIndex, params: RawParams, specs: SpecSource | null = null): Promise<ReadSectionResult> {
  requireIndex(index);
  const raw = paramsObject(params);
  const P = READ_SECTION_PARAMS;
  const heading = raw.heading == null ? null : stringParam(raw, 'heading', P.heading);
  const path = raw.path == null ? null : stringParam(raw, 'path', P.path);
  const id = raw.node_id == null ? null : stringParam(raw, 'node_id', P.node_id);
  const source = enumParam(raw, 'source', P.source.values, P.source);
  if ((path === null) === (id === null)) throw createError('INVALID_PARAMS', { field: 'node_id', reason: 'give exactly one of node_id or path' });

  const node = id === null ? null : index.bundle.nodes[index.nodeIndex.get(id) ?? -1];
  if (id !== null && !node) throw createError('NODE_NOT_FOUND', { node_id: id });

  if (path !== null || source === 'file') {
    if (!specs) throw createError('INVALID_PARAMS', { field: 'source', reason: 'raw spec files are only readable when `kdd mcp` is started with --specs-root DIR' });
    const file = await specs.read(path ?? node!.source_file);
    if (heading === null) return { source: 'file', path: file.path, node_id: node?.id ?? null, text: file.text };
    const text = markdownSection(file.text, heading);
    if (text === null) throw missingHeading(heading, file.path, markdownHeadings(file.text));
    return { source: 'file', path: file.path, node_id: node?.id ?? null, heading, text };
  }

  const sections = node!.sections;
  if (heading === null) return { source: 'index', node_id: node!.id, title: node!.title, sections: sections.map(({ heading: h, field, text }) => ({ heading: h, field, text })) };
  const wanted = foldHeading(heading);
  const section = sections.find((s) => foldHeading(s.heading) === wanted || (s.field !== null && foldHeading(s.field) === wanted));
  if (!section) throw missingHeading(heading, node!.id, sections.map((s) => s.heading));
  return { source: 'index', node_id: node!.id, heading: section.heading, field: section.field, text: section.text };
}

function missingHeading(heading: string, where: string, available: string[]) {
  return createError('INVALID_PARAMS', { field: 'heading', reason: `no section '${heading}' in ${where}; available: ${available.join(' | ') || '(none)'}` });
}

/**
 * The Markdown section under `heading` (matched ignoring case and accents, `#`s not included):
 * from its heading line to the next heading of the same or a higher level. Null when absent.
 */
export function markdownSection(text: string, heading: string): string | null {
  const wanted = foldHeading(heading);
  const lines = text.split(/\r?\n/);
  let start = -1;
  let level = 0;
  let fence = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    if (fence) continue;
    const match = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (!match) continue;
    if (start >= 0 && match[1]!.length <= level) return lines.slice(start, i).join('\n').trimEnd();
    if (start < 0 && foldHeading(match[2]!) === wanted) {
      start = i;
      level = match[1]!.length;
    }
  }
  return start >= 0 ? lines.slice(start).join('\n').trimEnd() : null;
}

function markdownHeadings(text: string): string[] {
  return [...text.matchAll(/^#{1,6}\s+(.*?)\s*#*\s*$/gm)].map((m) => m[1]!);
}

/** Lower case, no accents, single spaces. */
function foldHeading(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/\s+/g, ' ').trim();
}
