/**
 * The query registry: every query once, with what each door needs to offer it (docs/queries.md).
 * For each query: its name, a one-line summary and when to use it, its parameters (the objects
 * the query validates with: types, ranges, defaults, aliases), the JSON Schema of its answer, the
 * name it has at each door, and its function. The CLI's flags and help, the HTTP routes, the MCP
 * tools (`inputSchema` and `outputSchema`), the library facade and the site's worker are derived
 * from this table; none of them restates a range or a default.
 *
 * {@link runQuery} is the one way in for adapters: aliases are renamed, node references
 * (`UC-001`, a title, a file name) are resolved to node ids, then the pure query runs.
 *
 * Isomorphic: no Node-only imports.
 */
import { createError, type KddWarning } from '../../model/errors.js';
import type { KddIndex } from '../kdd-index.js';
import { CHANGE_TYPES } from './impact.js';
import { KINDS, LAYERS } from '../../model/graph.js';
import { paramsSchema, schema as s, type JsonSchema, type ParamsSpec } from '../param-spec.js';
import { paramsObject, requireIndex } from '../validate.js';
import { chunks, CHUNKS_PARAMS, type ChunksResult } from './chunks.js';
import { context, CONTEXT_PARAMS, type ContextResult } from './context.js';
import { coverage, COVERAGE_PARAMS, type CoverageResult } from './coverage.js';
import { graph, GRAPH_PARAMS, type GraphResult } from './graph.js';
import { health, type HealthResult } from './health.js';
import { hints, HINTS_PARAMS, type HintsResult } from './hints.js';
import { impact, IMPACT_PARAMS, type ImpactResult } from './impact.js';
import { find, FIND_PARAMS, list, LIST_PARAMS, readSection, READ_SECTION_PARAMS, type FindResult, type ListResult, type ReadSectionResult, type SpecSource } from './lookup.js';
import { resolveNodeRef } from './resolve.js';
import { search, SEARCH_PARAMS, type SearchResult } from './search.js';
import { indexStats, type IndexStats } from './stats.js';
import { violations, VIOLATIONS_PARAMS, type ViolationsResult } from './violations.js';

/** What a query may need besides the index and its parameters; each door fills what it has. */
export interface QueryEnv {
  /** Wall-clock time of the query (`chunks` reports it). Default: now. */
  now?: Date | string | number;
  /** Where chunk URLs point (`chunks`). */
  baseUrl?: string | null;
  /** Raw spec files (`read_section` with `source: "file"`); null: index sections only. */
  specs?: SpecSource | null;
  /** The bundle file this process loaded and when (`stats` of a server). */
  loaded?: { file: string; loadedAt: string } | null;
}

export interface QueryDef<R = unknown> {
  name: string;
  /** A few words for tool pickers (MCP `title`). */
  title: string;
  /** One line: `kdd --help`, the first sentence of the MCP tool description. */
  summary: string;
  /** When to use it rather than another query: the rest of the MCP description, `kdd <cmd> --help`. */
  guidance: string;
  /** A typical call, shown to agents. */
  example?: Readonly<Record<string, unknown>>;
  params: ParamsSpec;
  /** JSON Schema of the answer (MCP `outputSchema`). */
  result: JsonSchema;
  /** Takes `query_vector`: a caller that can embed `query_text` with the bundle's model should (library/query-vectors.ts). */
  embeds: boolean;
  /** Its name at each door; absent: not offered there. */
  doors: {
    cli?: string;
    http?: { method: 'GET' | 'POST'; path: string };
    mcp?: string;
    library?: boolean;
  };
  run(index: KddIndex, params: Record<string, unknown>, env: QueryEnv): R | Promise<R>;
  /** The warnings list of an answer (where `NO_EMBEDDINGS` is explained). */
  warnings?(result: R): KddWarning[];
}

const define = <R>(def: QueryDef<R>): QueryDef<R> => def;

// ── Result shapes (outputSchema) ──────────────────────────────────────────────────────────────

const kind = s.enum(KINDS);
const layer = s.enum(LAYERS);
const warningList = s.array(s.object({ code: s.string(), message: s.string() }), 'Non-fatal conditions (NO_EMBEDDINGS, TOKEN_LIMIT_EXCEEDED, …).');
const nodeRefShape = { id: s.string(), kind, title: s.string(), layer, source_file: s.string() };
const nodeRefSchema = s.object(nodeRefShape);
const edgeRefSchema = s.object({ from_node: s.string(), to_node: s.string(), edge_type: s.string(), implicit: s.boolean(), confidence: s.number() }, ['implicit', 'confidence']);
/** `why` (only with `explain: true`): runtime/search/explain.ts. */
const whySchema = s.object(
  {
    matched: s.array(s.object({ term: s.string(), fields: s.array(s.string()), expanded_from: s.string() }, ['expanded_from'])),
    exact: s.string(),
    kind_asked: s.boolean(),
    graph_path: s.array(s.object({ from_node: s.string(), edge_type: s.string(), to_node: s.string() })),
    depends_on: s.object({ from_node: s.string(), edge_type: s.string(), to_node: s.string() }),
    semantic_chunk: s.string(),
    definition: s.string(),
  },
  ['exact', 'kind_asked', 'graph_path', 'depends_on', 'semantic_chunk', 'definition'],
);
const violationShape = { from_node: s.string(), to_node: s.string(), from_layer: layer, to_layer: layer, edge_type: s.string(), source_file: s.string() };
const nodeSummarySchema = s.object(
  {
    ...nodeRefShape,
    doc_id: s.string(),
    status: s.string(),
    aliases: s.array(s.string()),
    domain: s.nullable(s.string()),
    tags: s.array(s.string()),
    indexed_fields: s.record(),
    headings: s.array(s.string()),
  },
);
const sectionSchema = s.object({ heading: s.string(), field: s.nullable(s.string()), text: s.string() });

// ── The table ─────────────────────────────────────────────────────────────────────────────────

export const QUERIES = {
  context: define<ContextResult>({
    name: 'context',
    title: 'Context for a task (hybrid retrieval)',
    summary: 'Hybrid retrieval: the specs to read for a task, ranked, with snippets and the edges between them, within a token budget (QRY-003).',
    guidance:
      'Start here before implementing or changing anything: describe the task in words. Use search to locate documents by topic only, hints when you have file paths or names instead of a task.',
    example: { query_text: 'crear pedido con descuento' },
    params: CONTEXT_PARAMS,
    result: s.object({
      strategy: s.enum(['hybrid']),
      retrieval_strategy: s.enum(['semantic+lexical+graph', 'semantic+lexical', 'lexical+graph', 'lexical']),
      results: s.array(
        s.object(
          {
            node_id: s.string(),
            kind,
            layer,
            title: s.string(),
            score: s.number(),
            match_source: s.string(),
            section: s.nullable(s.string()),
            snippet: s.string(),
            source_file: s.string(),
            passages: s.array(s.object({ section: s.string(), text: s.string() })),
            truncated: s.boolean(),
            tokens: s.integer(),
            why: whySchema,
          },
          ['passages', 'truncated', 'why'],
        ),
      ),
      graph_expansion: s.array(edgeRefSchema),
      layer_violations: s.array(s.object(violationShape)),
      total_results: s.integer(),
      total_nodes: s.integer(),
      total_tokens: s.integer(),
      truncated: s.boolean(),
      warnings: warningList,
    }),
    embeds: true,
    doors: { cli: 'context', http: { method: 'POST', path: '/v1/retrieve/context' }, mcp: 'kdd_context', library: true },
    run: (index, params) => context(index, params),
    warnings: (result) => result.warnings,
  }),

  search: define<SearchResult>({
    name: 'search',
    title: 'Search specs',
    summary: 'Ranked search over every spec: semantic at L2 (with the model), lexical otherwise; no graph expansion (QRY-002).',
    guidance: 'Use it to locate documents by topic; use context when you also need the surrounding specs.',
    example: { query_text: 'pedido creado', include_kinds: ['event'] },
    params: SEARCH_PARAMS,
    result: s.object({
      results: s.array(
        s.object({
          document_id: s.string(),
          document_kind: kind,
          node_id: s.string(),
          section_path: s.nullable(s.string()),
          score: s.number(),
          snippet: s.string(),
          raw_text: s.string(),
          why: whySchema,
        }, ['why']),
      ),
      total_results: s.integer(),
      embedding_model: s.nullable(s.string()),
      retrieval_strategy: s.enum(['lexical', 'semantic']),
      warnings: warningList,
    }),
    embeds: true,
    doors: { cli: 'search', http: { method: 'POST', path: '/v1/retrieve/search' }, mcp: 'kdd_search', library: true },
    run: (index, params) => search(index, params),
    warnings: (result) => result.warnings,
  }),

  hints: define<HintsResult>({
    name: 'hints',
    title: 'Constraints for the code you are touching',
    summary: 'Context from what you have at hand (file paths, names, ids, keywords): the rules and constraints first, then related behaviour (QRY-007).',
    guidance: 'Call it before editing code, with the paths and names you are touching.',
    example: { hints: ['src/orders/pedido.ts', 'checkout'] },
    params: HINTS_PARAMS,
    result: s.object({
      constraints: s.array(contextItem()),
      behavior: s.array(contextItem()),
      resolved_entities: s.array(s.object({ node_id: s.string(), matched_from: s.string(), match_method: s.enum(['id', 'name', 'basename', 'keyword']) })),
      warnings: warningList,
      total_items: s.integer(),
      total_tokens: s.integer(),
    }),
    embeds: false,
    doors: { cli: 'hints', http: { method: 'GET', path: '/v1/retrieve/hints' }, mcp: 'kdd_hints', library: true },
    run: (index, params) => hints(index, params),
    warnings: (result) => result.warnings,
  }),

  graph: define<GraphResult>({
    name: 'graph',
    title: 'Graph neighbours of a spec',
    summary: 'The specs within a few hops of one node, how each was reached, and the edges between them (QRY-001).',
    guidance: 'Use it to explore around a spec you know; filter by edge types or kinds, or walk only "out" or "in".',
    example: { root_node: 'Entity:Pedido', depth: 1, edge_types: ['ENTITY_RULE', 'EMITS'] },
    params: GRAPH_PARAMS,
    result: s.object({
      center_node: s.object({ ...nodeRefShape, indexed_fields: s.record() }),
      related_nodes: s.array(s.object({ ...nodeRefShape, indexed_fields: s.record(), distance: s.integer(), reached_via: edgeRefSchema })),
      edges: s.array(edgeRefSchema),
      total_nodes: s.integer(),
      total_edges: s.integer(),
    }),
    embeds: false,
    doors: { cli: 'graph', http: { method: 'GET', path: '/v1/retrieve/graph' }, mcp: 'kdd_related', library: true },
    run: (index, params) => graph(index, params),
  }),

  impact: define<ImpactResult>({
    name: 'impact',
    title: 'Impact of changing a spec',
    summary: 'What a change to a spec affects, directly and transitively, with a reason each, and the BDD scenarios to re-run (QRY-004).',
    guidance: 'Ask it before changing an entity, rule or command.',
    example: { node_id: 'Entity:Pedido', change_type: 'remove' },
    params: IMPACT_PARAMS,
    result: s.object({
      analyzed_node: nodeRefSchema,
      change_type: s.enum(CHANGE_TYPES),
      depth: s.integer(),
      directly_affected: s.array(
        s.object({ ...nodeRefShape, edge_type: s.string(), impact: s.string(), implicit: s.boolean(), confidence: s.number() }, ['implicit', 'confidence']),
      ),
      transitively_affected: s.array(
        s.object(
          { ...nodeRefShape, distance: s.integer(), path: s.array(s.string()), edge_types: s.array(s.string()), impact: s.string(), implicit: s.boolean() },
          ['implicit'],
        ),
      ),
      scenarios_to_rerun: s.array(
        s.object({ feature: s.string(), feature_node: s.string(), scenario: s.nullable(s.string()), name: s.string(), validates: s.array(s.string()), reason: s.string() }),
      ),
      layer_violations: s.array(s.object(violationShape)),
      truncated: s.boolean(),
      total_directly_affected: s.integer(),
      total_transitively_affected: s.integer(),
      total_scenarios: s.integer(),
    }),
    embeds: false,
    doors: { cli: 'impact', http: { method: 'GET', path: '/v1/retrieve/impact' }, mcp: 'kdd_impact', library: true },
    run: (index, params) => impact(index, params),
  }),

  coverage: define<CoverageResult>({
    name: 'coverage',
    title: 'Governance coverage of a spec',
    summary: 'Which related artefacts KDD expects for a spec of this kind, which exist and which are missing (QRY-005).',
    guidance: 'Use it to review a spec’s completeness: events and rules for an entity, features for a rule…',
    example: { node_id: 'Entity:Pedido' },
    params: COVERAGE_PARAMS,
    result: s.object({
      analyzed_node: nodeRefSchema,
      required: s.array(
        s.object({
          category: s.string(),
          description: s.string(),
          edge_type: s.string(),
          direction: s.enum(['in', 'out']),
          kinds: s.array(kind),
          status: s.enum(['covered', 'partial', 'missing']),
          found: s.array(s.string()),
        }),
      ),
      present: s.integer(),
      missing: s.integer(),
      coverage_percent: s.number(),
    }),
    embeds: false,
    doors: { cli: 'coverage', http: { method: 'GET', path: '/v1/retrieve/coverage' }, mcp: 'kdd_coverage', library: true },
    run: (index, params) => coverage(index, params),
  }),

  violations: define<ViolationsResult>({
    name: 'violations',
    title: 'Layer rule violations',
    summary: 'Links that go up the KDD layer hierarchy, which BR-LAYER-001 forbids, each explained (QRY-006).',
    guidance: 'Use it to audit the specs’ structure; kind and layer filters apply to the source node.',
    params: VIOLATIONS_PARAMS,
    result: s.object({
      violations: s.array(s.object({ ...violationShape, section: s.nullable(s.string()), explanation: s.string() })),
      total_violations: s.integer(),
      total_edges_analyzed: s.integer(),
      violation_rate: s.number(),
    }),
    embeds: false,
    doors: { cli: 'violations', http: { method: 'GET', path: '/v1/retrieve/layer-violations' }, mcp: 'kdd_layer_violations', library: true },
    run: (index, params) => violations(index, params),
  }),

  health: define<HealthResult>({
    name: 'health',
    title: 'Dangling links and orphans',
    summary: 'Index health: wiki-links that resolve to no spec (dangling) and specs with no links at all (orphans).',
    guidance: 'Use it to find broken links and forgotten specs.',
    params: {},
    result: s.object({
      dangling: s.array(s.object({ from_node: s.string(), target: s.string(), source_file: s.string(), section: s.nullable(s.string()) })),
      orphans: s.array(nodeRefSchema),
      total_nodes: s.integer(),
      total_edges: s.integer(),
      total_dangling: s.integer(),
      total_orphans: s.integer(),
    }),
    embeds: false,
    doors: { cli: 'health', http: { method: 'GET', path: '/v1/retrieve/health' }, mcp: 'kdd_health', library: true },
    run: (index, params) => health(index, params),
  }),

  chunks: define<ChunksResult>({
    name: 'chunks',
    title: 'Passages for RAG',
    summary: 'The spec passages most similar to a query, each with its URL, position and a 0–1 score, for RAG (docs/chunks.md).',
    guidance: 'Use it when you want short passages to quote rather than whole specs.',
    example: { query_text: 'cancelar pedido', top_k: 3 },
    params: CHUNKS_PARAMS,
    result: s.object({
      query: s.string(),
      results: s.array(
        s.object(
          {
            content: s.string(),
            url: s.string(),
            position: s.integer(),
            similarity_score: s.number(),
            chunk_id: s.string(),
            created_at: s.string(),
            node_id: s.string(),
            section: s.string(),
          },
          ['chunk_id', 'created_at', 'node_id', 'section'],
        ),
      ),
      metadata: s.object({
        query_time_ms: s.number(),
        total_results: s.integer(),
        timestamp: s.string(),
        scoring: s.enum(['cosine', 'lexical']),
        embedding_model: s.nullable(s.string()),
        warnings: warningList,
      }),
    }),
    embeds: true,
    doors: { cli: 'chunks', http: { method: 'POST', path: '/v1/query' }, mcp: 'kdd_chunks', library: true },
    run: (index, params, env) => chunks(index, params, { now: env.now ?? new Date(), baseUrl: env.baseUrl ?? null }),
    warnings: (result) => result.metadata.warnings,
  }),

  find: define<FindResult>({
    name: 'find',
    title: 'Find a spec by id, name, alias or file',
    summary: 'Finds a spec by what you have — a node id, a document id, a title or alias, a file name or path — and shows its kind, layer, fields and headings.',
    guidance: 'Use it to turn a name or a file into a node id; when nothing matches, `suggestions` holds search hits.',
    example: { query: 'UC-001-CrearPedido.md' },
    params: FIND_PARAMS,
    result: s.object({
      matches: s.array(nodeSummarySchema),
      suggestions: s.array(s.object({ node_id: s.string(), kind, score: s.number(), snippet: s.string() })),
      total_matches: s.integer(),
    }),
    embeds: false,
    doors: { mcp: 'kdd_find_spec', library: true },
    run: (index, params) => find(index, params),
  }),

  read_section: define<ReadSectionResult>({
    name: 'read_section',
    title: 'Read a section of a spec',
    summary: 'Reads a spec’s text: the sections stored in the index, one heading of them, or the raw Markdown file (with a specs root).',
    guidance: 'Use it after find, context or search to read a spec in full.',
    example: { node_id: 'UC:UC-001', heading: 'Flujo Principal' },
    params: READ_SECTION_PARAMS,
    result: s.object(
      {
        source: s.enum(['index', 'file']),
        node_id: s.nullable(s.string()),
        path: s.string(),
        title: s.string(),
        heading: s.string(),
        field: s.nullable(s.string()),
        text: s.string(),
        sections: s.array(sectionSchema),
      },
      ['path', 'title', 'heading', 'field', 'text', 'sections'],
    ),
    embeds: false,
    doors: { mcp: 'kdd_read_section' },
    run: (index, params, env) => readSection(index, params, env.specs ?? null),
  }),

  list: define<ListResult>({
    name: 'list',
    title: 'List specs',
    summary: 'Lists spec nodes (id, kind, title, layer, file) sorted by id, filtered by kind, layer or domain, a page at a time.',
    guidance: 'Pass the returned next_offset as offset to continue (null when done).',
    example: { kind: 'business-rule', limit: 50 },
    params: LIST_PARAMS,
    result: s.object({ nodes: s.array(nodeRefSchema), total: s.integer(), offset: s.integer(), next_offset: s.nullable(s.integer()) }),
    embeds: false,
    doors: { mcp: 'kdd_list', library: true },
    run: (index, params) => list(index, params),
  }),

  stats: define<BundleStats>({
    name: 'stats',
    title: 'Index statistics',
    summary: 'What is loaded: bundle hash, index level (L1 lexical + graph, L2 with embeddings), structure, domains and counts.',
    guidance: 'Cheap; call it to check that the index is current.',
    params: {},
    result: s.object(
      {
        bundle: s.string(),
        hash: s.string(),
        format: s.integer(),
        index_level: s.string(),
        structure: s.string(),
        domains: s.array(s.string()),
        embedding_model: s.nullable(s.string()),
        indexed_at: s.nullable(s.string()),
        counts: s.object({ nodes: s.integer(), edges: s.integer(), chunks: s.integer(), embeddings: s.integer(), layer_violations: s.integer(), dangling: s.integer() }),
        git_commit: s.nullable(s.string()),
        loaded_at: s.string(),
      },
      ['bundle', 'loaded_at'],
    ),
    embeds: false,
    doors: { http: { method: 'GET', path: '/v1/stats' }, mcp: 'kdd_stats' },
    run: (index, params, env) => {
      paramsObject(params);
      const loaded = env.loaded ?? null;
      return {
        ...(loaded ? { bundle: loaded.file } : {}),
        ...indexStats(index),
        git_commit: index.bundle.manifest.git_commit,
        ...(loaded ? { loaded_at: loaded.loadedAt } : {}),
      };
    },
  }),
} as const;

function contextItem(): JsonSchema {
  return s.object({ node_id: s.string(), kind, title: s.string(), content: s.string(), source_file: s.string(), reached_via: s.string(), tokens: s.integer() });
}

/** `stats` of a server: the index's stats plus the bundle file this process loaded and when. */
export interface BundleStats extends IndexStats {
  bundle?: string;
  git_commit: string | null;
  loaded_at?: string;
}

export type QueryName = keyof typeof QUERIES;
export type QueryResult<N extends QueryName> = Awaited<ReturnType<(typeof QUERIES)[N]['run']>>;

/** Every query, in the order help and tool lists show them. */
export const QUERY_LIST: readonly QueryDef[] = Object.values(QUERIES) as readonly QueryDef[];

export function isQueryName(name: string): name is QueryName {
  return Object.prototype.hasOwnProperty.call(QUERIES, name);
}

/** `inputSchema` of a query (JSON Schema of its parameters, aliases left out). */
export function inputSchema(def: QueryDef): JsonSchema {
  return paramsSchema(def.params);
}

/**
 * The parameters as the query takes them: aliases renamed to the canonical names (giving both
 * is INVALID_PARAMS), and each node parameter (`node: true`) resolved from what a person types to
 * a node id (runtime/queries/resolve.ts). A reference that names nothing is left as typed, so the
 * query reports NODE_NOT_FOUND for it. Unknown names pass through (the query ignores them).
 */
export function prepareParams(def: QueryDef, index: KddIndex, raw: unknown): Record<string, unknown> {
  const params: Record<string, unknown> = { ...paramsObject(raw) };
  for (const [name, spec] of Object.entries(def.params)) {
    for (const alias of spec.aliases ?? []) {
      if (!Object.prototype.hasOwnProperty.call(params, alias)) continue;
      if (Object.prototype.hasOwnProperty.call(params, name)) {
        throw createError('INVALID_PARAMS', { field: alias, reason: `is an alias of '${name}'; give only one of them` });
      }
      params[name] = params[alias];
      delete params[alias];
    }
    if (spec.type === 'string' && spec.node && typeof params[name] === 'string') params[name] = resolveNodeRef(index, params[name] as string);
  }
  return params;
}

/** Runs a registered query the way every door does: {@link prepareParams}, then the query. */
export function runQuery<N extends QueryName>(name: N, index: KddIndex, raw: unknown, env: QueryEnv = {}): QueryResult<N> | Promise<QueryResult<N>> {
  const def = QUERIES[name] as unknown as QueryDef<QueryResult<N>>;
  return def.run(requireIndex(index), prepareParams(def, index, raw), env);
}
