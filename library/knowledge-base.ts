/**
 * The library facade (Node): one object over a loaded bundle whose query methods use L2 when they
 * can. The runtime queries stay pure and synchronous; this layer adds the one asynchronous step
 * they cannot do — embedding `query_text` with the bundle's model — and passes `query_vector`.
 *
 * @example
 * const kb = await openKnowledgeBase('dist');
 * const r = await kb.context({ query_text: 'cancelar pedido' });
 *
 * Embedder resolution (only when the bundle has vectors, lazily on the first text query, once):
 *  - `'auto'` (default): load `manifest.embedding_model` (`<model>@<dtype>`) from the local model
 *    store (`modelsDir`, default `$KDD_MODELS_DIR` or `~/.cache/kdd-index/models`), offline;
 *  - an {@link Embedder}: used as is (its `id` must equal the bundle's model);
 *  - `false`: never embed (lexical answers).
 * When the model is missing, fails to load, or does not match, queries answer lexically and the
 * `NO_EMBEDDINGS` warning says why (with the `kdd model pull ID` hint when the model is missing).
 */
import { EmbeddingError, MISSING_MODEL_HINT, parseEmbedderId, DEFAULT_DTYPE, type Embedder } from '../compiler/embed/embedder.js';
import { loadTransformersEmbedder } from '../compiler/embed/transformers.js';
import type { KddWarning } from '../runtime/errors.js';
import type { KddIndex } from '../runtime/kdd-index.js';
import { chunks, type ChunksParams, type ChunksResult } from '../runtime/queries/chunks.js';
import { context, type ContextParams, type ContextResult } from '../runtime/queries/context.js';
import { coverage, type CoverageParams, type CoverageResult } from '../runtime/queries/coverage.js';
import { graph, type GraphParams, type GraphResult } from '../runtime/queries/graph.js';
import { health, type HealthParams, type HealthResult } from '../runtime/queries/health.js';
import { hints, type HintsParams, type HintsResult } from '../runtime/queries/hints.js';
import { indexStats, type IndexStats } from '../runtime/queries/stats.js';
import { impact, type ImpactParams, type ImpactResult } from '../runtime/queries/impact.js';
import { search, type SearchParams, type SearchResult } from '../runtime/queries/search.js';
import { violations, type ViolationsParams, type ViolationsResult } from '../runtime/queries/violations.js';
import { paramsObject } from '../runtime/validate.js';
import { loadBundle } from './load-bundle.js';

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
  stats(): Promise<KnowledgeBaseStats>;
  /** Frees the embedder's ONNX session when the facade loaded it. */
  close(): Promise<void>;
}

/** Why a text query got no vector (null: the bundle has none, nothing to explain). */
type Embedding = { vector: Float32Array } | { reason: string | null };

/**
 * @param source a `dist` directory, a `kdd.json`, a `kdd-<hash>.msgpack` or the bundle bytes.
 * @throws KddError `INDEX_UNAVAILABLE` when no bundle can be loaded.
 */
export async function openKnowledgeBase(source: string | Uint8Array, options: KnowledgeBaseOptions = {}): Promise<KnowledgeBase> {
  const index = await loadBundle(source);
  const model = index.bundle.vectors?.model ?? null;
  const setting = options.embedder ?? 'auto';
  let loading: Promise<Embedder> | null = null;
  let owned: Embedder | null = null;
  let semantic: boolean | null = model ? null : false;

  const embedder = (): Promise<Embedder> => {
    if (typeof setting === 'object') return Promise.resolve(setting);
    loading ??= (async () => {
      const { model: name, dtype } = parseEmbedderId(model!);
      owned = await loadTransformersEmbedder({ model: name, dtype, modelsDir: options.modelsDir });
      return owned;
    })();
    return loading;
  };

  async function embed(text: unknown): Promise<Embedding> {
    if (!model || !index.vectors) return { reason: null };
    if (setting === false) return { reason: 'query embedding is disabled (embedder: false)' };
    if (typeof text !== 'string' || text.trim() === '') return { reason: null }; // the query reports the bad param
    let instance: Embedder;
    try {
      instance = await embedder();
    } catch (error) {
      semantic = false;
      return { reason: missingReason(error, model) };
    }
    if (instance.id !== model) {
      semantic = false;
      return { reason: `the embedder ${instance.id} is not the bundle's model ${model}` };
    }
    try {
      const vector = await instance.embedQuery(text);
      if (vector.length !== index.vectors.dims) throw new Error(`${vector.length} dimensions, the bundle's vectors have ${index.vectors.dims}`);
      semantic = true;
      return { vector };
    } catch (error) {
      return { reason: `query embedding failed: ${(error as Error).message}` };
    }
  }

  /** Runs a text query with `query_vector` when one could be computed; explains the fallback otherwise. */
  async function withVector<R>(params: unknown, run: (params: Record<string, unknown>) => R, warningsOf: (result: R) => KddWarning[]): Promise<R> {
    const raw = { ...paramsObject(params) };
    const embedding = 'query_vector' in raw && raw.query_vector != null ? { reason: null } : await embed(raw.query_text);
    if ('vector' in embedding) raw.query_vector = embedding.vector;
    const result = run(raw);
    if ('reason' in embedding && embedding.reason) {
      for (const w of warningsOf(result)) if (w.code === 'NO_EMBEDDINGS') w.message = `${w.message} (${embedding.reason})`;
    }
    return result;
  }

  const sync = <P, R>(query: (index: KddIndex, params: P) => R) => async (params?: unknown) => query(index, (params ?? {}) as P);

  return {
    index,
    search: (params) => withVector(params, (p) => search(index, p), (r) => r.warnings),
    context: (params) => withVector(params, (p) => context(index, p), (r) => r.warnings),
    chunks: (params, call = {}) =>
      withVector(params, (p) => chunks(index, p, { now: call.now ?? new Date(), baseUrl: call.baseUrl ?? options.baseUrl ?? null }), (r) => r.metadata.warnings),
    graph: sync(graph),
    impact: sync(impact),
    coverage: sync(coverage),
    violations: sync(violations),
    health: sync(health),
    hints: sync(hints),
    async stats() {
      return { ...indexStats(index), semantic };
    },
    async close() {
      const instance = owned as Embedder | null;
      owned = null;
      loading = null;
      await instance?.dispose?.();
    },
  };
}

/** The fallback reason for an embedder that could not be loaded; always names `kdd model pull` when the model is missing. */
function missingReason(error: unknown, model: string): string {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof EmbeddingError && error.code === 'MODEL_NOT_AVAILABLE' && !message.includes('kdd model pull')) {
    const { model: name, dtype } = parseEmbedderId(model);
    return `${message}; ${MISSING_MODEL_HINT(dtype === DEFAULT_DTYPE ? name : `${name} --dtype ${dtype}`)}`;
  }
  return message;
}
