/**
 * The one place that turns query text into a query vector (L2), shared by the library facade,
 * `kdd serve` and `kdd mcp` — and the one function those doors answer registered queries with,
 * {@link answerQuery}. The runtime queries stay pure and synchronous; this adds the asynchronous
 * step they cannot do: embedding `query_text` with the bundle's model and passing `query_vector`.
 *
 * Embedder resolution (only for bundles with vectors, lazily on the first text query; each model
 * is loaded once per {@link QueryVectors}, so once per server process even across hot swaps):
 *  - `'auto'` (default): load `manifest.embedding_model` (`<model>@<dtype>`) from the local model
 *    store (`modelsDir`, default `$KDD_MODELS_DIR` or `~/.cache/kdd-index/models`), offline;
 *  - an {@link Embedder}: used as is (its `id` must equal the bundle's model);
 *  - `false`: never embed (lexical answers).
 * When the model is missing, fails to load, or does not match, queries answer lexically and the
 * `NO_EMBEDDINGS` warning says why (with the `kdd model pull ID` hint when the model is missing).
 */
import { EmbeddingError, MISSING_MODEL_HINT, parseEmbedderId, DEFAULT_DTYPE, type Embedder } from '../compiler/embed/embedder.js';
import { loadTransformersEmbedder } from '../compiler/embed/transformers.js';
import type { KddIndex } from '../runtime/kdd-index.js';
import { prepareParams, QUERIES, type QueryDef, type QueryEnv, type QueryName, type QueryResult } from '../runtime/queries/registry.js';

export interface QueryVectorOptions {
  /** How `query_text` is embedded at L2. Default `'auto'`. */
  embedder?: Embedder | 'auto' | false;
  /** Model store for `'auto'`. Default `$KDD_MODELS_DIR` or `~/.cache/kdd-index/models`. */
  modelsDir?: string;
}

/** A query vector, or why there is none (`reason: null`: the bundle has no vectors, nothing to explain). */
export type Embedding = { vector: Float32Array } | { reason: string | null };

export interface QueryVectors {
  embed(index: KddIndex, text: unknown): Promise<Embedding>;
  /** Whether the last text query got a vector; null until one was tried on a bundle with vectors. */
  readonly semantic: boolean | null;
  /** Frees the ONNX sessions this object loaded. */
  close(): Promise<void>;
}

export function createQueryVectors(options: QueryVectorOptions = {}): QueryVectors {
  const setting = options.embedder ?? 'auto';
  /** model id → its embedder, loading or loaded. */
  const loaded = new Map<string, Promise<Embedder>>();
  let semantic: boolean | null = null;

  const embedderFor = (model: string): Promise<Embedder> => {
    if (typeof setting === 'object') return Promise.resolve(setting);
    let loading = loaded.get(model);
    if (!loading) {
      const { model: name, dtype } = parseEmbedderId(model);
      loading = loadTransformersEmbedder({ model: name, dtype, modelsDir: options.modelsDir });
      loaded.set(model, loading);
    }
    return loading;
  };

  return {
    get semantic() {
      return semantic;
    },
    async embed(index, text) {
      const model = index.bundle.vectors?.model ?? null;
      if (!model || !index.vectors) return { reason: null };
      if (setting === false) return { reason: 'query embedding is disabled (embedder: false)' };
      if (typeof text !== 'string' || text.trim() === '') return { reason: null }; // the query reports the bad param
      let instance: Embedder;
      try {
        instance = await embedderFor(model);
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
    },
    async close() {
      const owned = typeof setting === 'object' ? [] : [...loaded.values()];
      loaded.clear();
      for (const loading of owned) await (await loading.catch(() => null))?.dispose?.();
    },
  };
}

/**
 * Answers a registered query as every Node door does: parameters prepared by the registry
 * (aliases, node references), `query_vector` added for text queries when the bundle's model can
 * embed the text, and a `NO_EMBEDDINGS` warning that says why when it cannot.
 */
export async function answerQuery<N extends QueryName>(name: N, index: KddIndex, raw: unknown, vectors: QueryVectors, env: QueryEnv = {}): Promise<QueryResult<N>> {
  const def = QUERIES[name] as unknown as QueryDef<QueryResult<N>>;
  const params = prepareParams(def, index, raw);
  let reason: string | null = null;
  if (def.embeds && params.query_vector == null) {
    const embedding = await vectors.embed(index, params.query_text);
    if ('vector' in embedding) params.query_vector = embedding.vector;
    else reason = embedding.reason;
  }
  const result = await def.run(index, params, env);
  if (reason && def.warnings) {
    for (const w of def.warnings(result)) if (w.code === 'NO_EMBEDDINGS') w.message = `${w.message} (${reason})`;
  }
  return result;
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
