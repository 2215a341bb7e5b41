/**
 * The MCP tools of `kdd mcp` as one table (#5): name, description written for AI agents, a zod
 * input shape (the SDK turns it into the JSON schema clients see), and one runtime call.
 * Like routes.ts for HTTP, this converts and does not decide: ranking, walking, budgets and
 * validation are the runtime queries'. No SDK import here, so the table is testable in-process.
 */
import * as z from 'zod';
import { createError } from '../runtime/errors.js';
import type { KddIndex } from '../runtime/kdd-index.js';
import { KINDS, LAYERS, type GraphNode } from '../runtime/model.js';
import { nodeRef } from '../runtime/queries/_graph.js';
import { context } from '../runtime/queries/context.js';
import { coverage } from '../runtime/queries/coverage.js';
import { graph, GRAPH_DIRECTIONS } from '../runtime/queries/graph.js';
import { health } from '../runtime/queries/health.js';
import { hints } from '../runtime/queries/hints.js';
import { CHANGE_TYPES, impact } from '../runtime/queries/impact.js';
import { search } from '../runtime/queries/search.js';
import { violations } from '../runtime/queries/violations.js';
import { intParam, paramsObject } from '../runtime/validate.js';
import type { LoadedBundle } from './bundle-holder.js';
import { stats } from './routes.js';
import { fold, markdownSection, type SpecReader } from './spec-files.js';

export interface ToolContext {
  /** The bundle of this call (grabbed once, like an HTTP request). */
  loaded: LoadedBundle;
  /** Present when the server was started with `--specs-root`. */
  specs: SpecReader | null;
}

export interface ToolSpec {
  name: string;
  title: string;
  description: string;
  input: z.ZodRawShape;
  run(ctx: ToolContext, args: Record<string, unknown>): unknown;
}

// ── Shared argument schemas ───────────────────────────────────────────────────────────────────

const nodeId = z
  .string()
  .min(1)
  .max(300)
  .describe('Graph node id `{Prefix}:{DocumentId}`, e.g. `Entity:Pedido`, `UC:UC-001`, `BR:BR-PEDIDO-001`, `CMD:CMD-001`. Use kdd_find_spec to turn a name or file into an id.');
const queryText = z.string().min(3).max(2000).describe('What you are looking for, in natural language or keywords (Spanish or English), at least 3 characters. E.g. "crear pedido", "cancel order refund".');
const kinds = z.array(z.enum(KINDS)).max(KINDS.length).optional().describe('Only these kinds of spec, e.g. ["use-case","business-rule"]. Default: all.');
const layers = z.array(z.enum(LAYERS)).max(LAYERS.length).optional().describe('Only these KDD layers, e.g. ["01-domain","02-behavior"]. Default: all.');
const minScore = (dflt: number) => z.number().min(0).max(1).optional().describe(`Minimum relative score 0–1 (1 = best hit). Default ${dflt}; lower it to see more.`);
const limit = z.number().int().min(1).max(100).optional().describe('Maximum results, 1–100. Default 10.');
const respectLayers = z.boolean().optional().describe('Never follow edges that break the layer rule BR-LAYER-001. Default true.');
const edgeTypes = z
  .array(z.string().min(1).max(100))
  .max(30)
  .optional()
  .describe('Edge types to follow (any case), e.g. ["ENTITY_RULE","EMITS","UC_APPLIES_RULE","WIKI_LINK"]. Default: all.');

// ── The table ─────────────────────────────────────────────────────────────────────────────────

export const TOOLS: readonly ToolSpec[] = [
  {
    name: 'kdd_context',
    title: 'Context for a task (hybrid retrieval)',
    description:
      'START HERE before implementing or changing anything: given a task description, returns the KDD specs to read ' +
      '(use cases, rules, commands, entities, events…), ranked by lexical match plus graph expansion, with snippets, ' +
      'the edges between the results, and layer violations, cut to a token budget (`max_tokens`, default 8000). ' +
      'Example: {"query_text":"crear pedido con descuento"} → results[{node_id:"UC:UC-001",score,snippet,…}], graph_expansion[…].',
    input: {
      query_text: queryText,
      include_kinds: kinds,
      include_layers: layers,
      expand_graph: z.boolean().optional().describe('Spread relevance along graph edges. Default true.'),
      depth: z.number().int().min(1).max(5).optional().describe('Graph expansion depth 1–5. Default 2.'),
      respect_layers: respectLayers,
      min_score: minScore(0.5),
      limit,
      max_tokens: z.number().int().min(100).max(100_000).optional().describe('Token budget of the answer. Default 8000.'),
    },
    run: ({ loaded }, args) => context(loaded.index, args),
  },
  {
    name: 'kdd_search',
    title: 'Search specs',
    description:
      'Ranked full-text search over all specs (ids, titles, aliases, sections; Spanish and English). Returns ' +
      'results[{node_id, document_kind, section_path, score, snippet, raw_text}] without graph expansion. Use it to ' +
      'locate documents by topic; use kdd_context when you need the surrounding specs too. ' +
      'Example: {"query_text":"pedido creado","include_kinds":["event"]}.',
    input: { query_text: queryText, include_kinds: kinds, include_layers: layers, min_score: minScore(0.7), limit },
    run: ({ loaded }, args) => search(loaded.index, args),
  },
  {
    name: 'kdd_find_spec',
    title: 'Find a spec by id, name, alias or file',
    description:
      'Resolves what you have — a node id ("Entity:Pedido"), a document id ("UC-001", "BR-PEDIDO-001"), a title or alias ' +
      '("Pedido", "Order"), or a file name/path ("UC-001-CrearPedido.md", "specs/01-domain/entities/Pedido.md") — to the ' +
      'node: id, kind, layer, title, aliases, source_file, indexed_fields and its section headings (read one with ' +
      'kdd_read_section). When nothing matches exactly, `matches` is empty and `suggestions` holds search hits.',
    input: { query: z.string().min(1).max(500).describe('Id, name, alias, or file name/path of a spec.') },
    run: ({ loaded }, args) => findSpec(loaded.index, String(args.query)),
  },
  {
    name: 'kdd_related',
    title: 'Graph neighbours of a spec',
    description:
      'Walks the spec graph from one node: every node within `depth` hops (default 2), how it was reached, and the ' +
      'edges between them. Filter by edge types or kinds; `direction` "out" follows links the node makes, "in" the ' +
      'links pointing at it. Example: {"node_id":"Entity:Pedido","depth":1,"edge_types":["ENTITY_RULE","EMITS"]}.',
    input: {
      node_id: nodeId,
      depth: z.number().int().min(1).max(5).optional().describe('Hops 1–5. Default 2.'),
      edge_types: edgeTypes,
      include_kinds: kinds,
      direction: z.enum(GRAPH_DIRECTIONS).optional().describe('"both" (default), "out" or "in".'),
      respect_layers: respectLayers,
    },
    run: ({ loaded }, args) => graph(loaded.index, { ...args, root_node: args.node_id, node_id: undefined } as never),
  },
  {
    name: 'kdd_impact',
    title: 'Impact of changing a spec',
    description:
      'Before changing an entity, rule, command… ask what depends on it: directly and transitively affected specs ' +
      '(with the path and a one-line reason each) and the BDD scenarios to re-run. ' +
      'Example: {"node_id":"Entity:Pedido","change_type":"remove"} → directly_affected[{id:"BR:BR-PEDIDO-001",…}], scenarios_to_rerun[…].',
    input: {
      node_id: nodeId,
      change_type: z.enum(CHANGE_TYPES).optional().describe('Kind of change. Default "modify_attribute".'),
      depth: z.number().int().min(1).max(5).optional().describe('Propagation depth 1–5. Default 3.'),
      respect_layers: respectLayers,
    },
    run: ({ loaded }, args) => impact(loaded.index, args as never),
  },
  {
    name: 'kdd_hints',
    title: 'Constraints for the code you are touching',
    description:
      'Give the file paths, entity names, ids or keywords you are working with; get the business rules, policies, ' +
      'requirements and entity invariants that constrain them (`constraints`), then related behaviour (`behavior`: ' +
      'commands, use cases, events), each with its text and how it was reached. Call it before editing code. ' +
      'Example: {"hints":["src/orders/pedido.ts","checkout"]}.',
    input: {
      hints: z.array(z.string().min(1).max(500)).min(1).max(50).describe('File paths, entity names, ids or keywords.'),
      depth: z.number().int().min(1).max(3).optional().describe('Graph hops from each resolved node, 1–3. Default 1.'),
      max_tokens: z.number().int().min(100).max(100_000).optional().describe('Token budget. Default 4000.'),
    },
    run: ({ loaded }, args) => hints(loaded.index, args),
  },
  {
    name: 'kdd_read_section',
    title: 'Read a section of a spec',
    description:
      'Reads spec text. With `node_id` (+ optional `heading`, e.g. "Flujo Principal", "Business Rules", or a field name ' +
      'like "main_flow"): the section(s) stored in the index. With `source: "file"` (or a `path` relative to the specs ' +
      'root, e.g. "02-behavior/use-cases/UC-001-CrearPedido.md"): the raw Markdown of the file, or of one heading in it — ' +
      'only when the server runs with --specs-root, and never outside that folder.',
    input: {
      node_id: nodeId.optional(),
      path: z.string().min(1).max(1000).optional().describe('Spec file path relative to the specs root (raw file mode). Instead of node_id.'),
      heading: z.string().min(1).max(300).optional().describe('Section heading (case and accents ignored) or field name. Omit to get every section.'),
      source: z.enum(['index', 'file']).optional().describe('"index" (default with node_id): stored sections; "file": the raw source file.'),
    },
    run: (ctx, args) => readSection(ctx, args),
  },
  {
    name: 'kdd_list',
    title: 'List specs',
    description:
      'Lists spec nodes (id, kind, title, layer, source_file), sorted by id, optionally filtered by kind, layer or ' +
      'domain, in pages: pass the returned `next_offset` as `offset` to continue (null when done). ' +
      'Example: {"kind":"business-rule","limit":50}.',
    input: {
      kind: z.enum(KINDS).optional().describe('Only this kind, e.g. "entity", "use-case", "business-rule".'),
      layer: z.enum(LAYERS).optional().describe('Only this layer, e.g. "01-domain".'),
      domain: z.string().min(1).max(200).optional().describe('Only this domain (multi-domain indexes).'),
      offset: z.number().int().min(0).optional().describe('Start position. Default 0.'),
      limit: z.number().int().min(1).max(200).optional().describe('Page size 1–200. Default 50.'),
    },
    run: ({ loaded }, args) => listNodes(loaded.index, args),
  },
  {
    name: 'kdd_coverage',
    title: 'Governance coverage of a spec',
    description:
      'Which related artefacts KDD expects for a node of this kind (events and rules for an entity, features for a rule…), ' +
      'which exist and which are missing, with a coverage percentage. Example: {"node_id":"Entity:Pedido"}.',
    input: { node_id: nodeId },
    run: ({ loaded }, args) => coverage(loaded.index, args as never),
  },
  {
    name: 'kdd_layer_violations',
    title: 'Layer rule violations',
    description:
      'Links that go up the KDD layer hierarchy (e.g. a 01-domain entity referencing a 02-behavior use case), which ' +
      'BR-LAYER-001 forbids, each with the section it was written in and an explanation. Optional kind/layer filters ' +
      'apply to the source node.',
    input: { include_kinds: kinds, include_layers: layers },
    run: ({ loaded }, args) => violations(loaded.index, args as never),
  },
  {
    name: 'kdd_health',
    title: 'Dangling links and orphans',
    description: 'Index health: wiki-links that resolve to no spec (dangling) and specs with no links at all (orphans).',
    input: {},
    run: ({ loaded }) => health(loaded.index),
  },
  {
    name: 'kdd_stats',
    title: 'Index statistics',
    description:
      'What is loaded: bundle hash, index level (L1 lexical+graph, L2 with embeddings), structure, domains, node/edge/' +
      'violation/dangling counts, git commit and when it was loaded. Cheap; call it to check the index is current.',
    input: {},
    run: ({ loaded }) => stats(loaded),
  },
];

// ── Small adapters over the index (lookups, not queries) ──────────────────────────────────────

/** The node as `kdd_find_spec` and the `kdd://node/{id}` resource show it (section texts omitted). */
export function nodeSummary(node: GraphNode) {
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

/**
 * Node id first, then the text index's exact keys (doc id, title, alias, file name), then the file
 * name of a path without folders and extension. No match: search hits as suggestions.
 */
function findSpec(index: KddIndex, query: string) {
  const text = query.trim();
  const exact = index.nodeIndex.get(text);
  let found: readonly number[] = exact === undefined ? index.text.lookup(text) : [exact];
  if (found.length === 0 && /[/\\.]/.test(text)) {
    const file = text.slice(Math.max(text.lastIndexOf('/'), text.lastIndexOf('\\')) + 1);
    found = index.text.lookup(file.replace(/\.(md|markdown|feature)$/i, ''));
  }
  const matches = found.map((i) => nodeSummary(index.bundle.nodes[i]!));
  const suggestions =
    matches.length === 0 && text.length >= 3
      ? search(index, { query_text: text, min_score: 0, limit: 5 }).results.map((r) => ({ node_id: r.node_id, kind: r.document_kind, score: r.score, snippet: r.snippet }))
      : [];
  return { matches, suggestions, total_matches: matches.length };
}

function listNodes(index: KddIndex, args: Record<string, unknown>) {
  const params = paramsObject(args);
  const offset = intParam(params, 'offset', { min: 0, default: 0 });
  const size = intParam(params, 'limit', { min: 1, max: 200, default: 50 });
  const all = index.bundle.nodes.filter(
    (n) => (!params.kind || n.kind === params.kind) && (!params.layer || n.layer === params.layer) && (!params.domain || n.domain === params.domain),
  );
  const page = all.slice(offset, offset + size).map(nodeRef);
  return { nodes: page, total: all.length, offset, next_offset: offset + page.length < all.length ? offset + page.length : null };
}

async function readSection(ctx: ToolContext, args: Record<string, unknown>) {
  const { index } = ctx.loaded;
  const heading = typeof args.heading === 'string' ? args.heading : null;
  const path = typeof args.path === 'string' ? args.path : null;
  const id = typeof args.node_id === 'string' ? args.node_id : null;
  if ((path === null) === (id === null)) throw createError('INVALID_PARAMS', { field: 'node_id', reason: 'give exactly one of node_id or path' });

  const node = id === null ? null : index.bundle.nodes[index.nodeIndex.get(id) ?? -1];
  if (id !== null && !node) throw createError('NODE_NOT_FOUND', { node_id: id });

  if (path !== null || args.source === 'file') {
    if (!ctx.specs) {
      throw createError('INVALID_PARAMS', { field: 'source', reason: 'raw spec files are only readable when `kdd mcp` is started with --specs-root DIR' });
    }
    const file = await ctx.specs.read(path ?? node!.source_file);
    if (heading === null) return { source: 'file', path: file.path, node_id: node?.id ?? null, text: file.text };
    const text = markdownSection(file.text, heading);
    if (text === null) throw missingHeading(heading, file.path, headingsOf(file.text));
    return { source: 'file', path: file.path, node_id: node?.id ?? null, heading, text };
  }

  const sections = node!.sections;
  if (heading === null) return { source: 'index', node_id: node!.id, title: node!.title, sections: sections.map(({ heading: h, field, text }) => ({ heading: h, field, text })) };
  const wanted = fold(heading);
  const section = sections.find((s) => fold(s.heading) === wanted || (s.field !== null && fold(s.field) === wanted));
  if (!section) throw missingHeading(heading, node!.id, sections.map((s) => s.heading));
  return { source: 'index', node_id: node!.id, heading: section.heading, field: section.field, text: section.text };
}

function missingHeading(heading: string, where: string, available: string[]) {
  return createError('INVALID_PARAMS', { field: 'heading', reason: `no section '${heading}' in ${where}; available: ${available.join(' | ') || '(none)'}` });
}

function headingsOf(text: string): string[] {
  return [...text.matchAll(/^#{1,6}\s+(.*?)\s*#*\s*$/gm)].map((m) => m[1]!);
}
