/**
 * The library facade (Node): one object over a loaded bundle whose query methods use L2 when they
 * can. The runtime queries stay pure and synchronous; this layer adds the one asynchronous step
 * they cannot do — embedding `query_text` with the bundle's model — and passes `query_vector`.
 *
 * @example
 * const kb = await openKnowledgeBase('dist');
 * const r = await kb.context({ query_text: 'cancelar pedido' });
 *
 * Every query method is the registry's query of that name (runtime/queries/registry.ts) answered
 * through {@link answerQuery}: aliases and node references (`UC-001`, a title, a file name) are
 * resolved as at every other door, and text queries embed `query_text` at L2
 * (library/query-vectors.ts explains how the model is found, and the lexical fallback).
 */
import type { Embedder } from '../compiler/embed/embedder.js';
import type { ChunksParams, ChunksResult } from '../runtime/queries/chunks.js';
import type { ContextParams, ContextResult } from '../runtime/queries/context.js';
import type { CoverageParams, CoverageResult } from '../runtime/queries/coverage.js';
import type { GraphParams, GraphResult } from '../runtime/queries/graph.js';
import type { HealthParams, HealthResult } from '../runtime/queries/health.js';
import type { HintsParams, HintsResult } from '../runtime/queries/hints.js';
import type { ImpactParams, ImpactResult } from '../runtime/queries/impact.js';
import type { FindResult, ListResult } from '../runtime/queries/lookup.js';
import type { QueryName, QueryResult } from '../runtime/queries/registry.js';
import type { SearchParams, SearchResult } from '../runtime/queries/search.js';
import { indexStats, type IndexStats } from '../runtime/queries/stats.js';
import type { ViolationsParams, ViolationsResult } from '../runtime/queries/violations.js';
import type { KddIndex } from '../runtime/kdd-index.js';
import { loadBundle } from './load-bundle.js';
import { answerQuery, createQueryVectors } from './query-vectors.js';

export interface KnowledgeBaseOptions {
  /** How `query_text` is embedded at L2. Default `'auto'`. */
  embedder?: Embedder | 'auto' | false;
  /** Model store for `'auto'`. Default `$KDD_MODELS_DIR` or `~/.cache/kdd-index/models`. */
  modelsDir?: string;
  /** Default base URL of chunk URLs (see `ChunksEnv.baseUrl`); `kb.chunks(p, { baseUrl })` overrides it. */
  baseUrl?: string;
}

export interface ChunksCallOptions {
  baseUrl?: string;
  /** The query's time (default: now). */
  now?: Date | string | number;
}

export interface KnowledgeBaseStats extends IndexStats {
  /** Whether text queries get a query vector (bundle vectors + a usable embedder); null until first tried. */
  semantic: boolean | null;
}

type Input<P> = P | Record<string, unknown>;

export interface KnowledgeBase {
  readonly index: KddIndex;
  search(params: Input<SearchParams>): Promise<SearchResult>;
  context(params: Input<ContextParams>): Promise<ContextResult>;
  chunks(params: Input<ChunksParams>, options?: ChunksCallOptions): Promise<ChunksResult>;
  graph(params: Input<GraphParams>): Promise<GraphResult>;
  impact(params: Input<ImpactParams>): Promise<ImpactResult>;
  coverage(params: Input<CoverageParams>): Promise<CoverageResult>;
  violations(params?: Input<ViolationsParams>): Promise<ViolationsResult>;
  health(params?: Input<HealthParams>): Promise<HealthResult>;
  hints(params: Input<HintsParams>): Promise<HintsResult>;
  /** A spec by id, document id, title, alias or file name (what every door resolves node references with). */
  find(params: { query: string } | Record<string, unknown>): Promise<FindResult>;
  /** Spec nodes sorted by id, filtered by kind, layer or domain, a page at a time. */
  list(params?: Record<string, unknown>): Promise<ListResult>;
  stats(): Promise<KnowledgeBaseStats>;
  /** Frees the embedder's ONNX session when the facade loaded it. */
  close(): Promise<void>;
}

/**
 * @param source a `dist` directory, a `kdd.json`, a `kdd-<hash>.msgpack` or the bundle bytes.
 * @throws KddError `INDEX_UNAVAILABLE` when no bundle can be loaded.
 */
export async function openKnowledgeBase(source: string | Uint8Array, options: KnowledgeBaseOptions = {}): Promise<KnowledgeBase> {
  const index = await loadBundle(source);
  const vectors = createQueryVectors({ embedder: options.embedder, modelsDir: options.modelsDir });
  const ask =
    <N extends QueryName>(name: N) =>
    (params?: unknown): Promise<QueryResult<N>> =>
      answerQuery(name, index, params ?? {}, vectors);

  return {
    index,
    search: ask('search'),
    context: ask('context'),
    chunks: (params, call = {}) => answerQuery('chunks', index, params, vectors, { now: call.now ?? new Date(), baseUrl: call.baseUrl ?? options.baseUrl ?? null }),
    graph: ask('graph'),
    impact: ask('impact'),
    coverage: ask('coverage'),
    violations: ask('violations'),
    health: ask('health'),
    hints: ask('hints'),
    find: ask('find'),
    list: ask('list'),
    async stats() {
      return { ...indexStats(index), semantic: index.vectors ? vectors.semantic : false };
    },
    close: () => vectors.close(),
  };
}
