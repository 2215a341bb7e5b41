/**
 * The L2 embed stage in one call, for the build to wire (BR-INDEX-001, BR-EMBEDDING-001):
 * nodes → embeddable chunks → vectors (cache first, model for misses) → int8 block for the bundle.
 *
 * Never throws for an embedding problem: any failure returns `{ level: 'L1', warning }` so the
 * build degrades and carries on. The model is loaded only when some chunk is not in the cache, so
 * an incremental build with nothing new (or a pack from a committed `.kdd-index/`) needs no model.
 */
import type { GraphNode } from '../../model/graph.js';
import { quantize, type QuantizedVectors } from '../../formats/bundle/vectors.js';
import { VectorCache, textHash, type CacheSaveReport } from './cache.js';
import { chunkNode, type Chunk } from './chunk.js';
import { DEFAULT_DTYPE, DEFAULT_MODEL, EmbeddingError, embedderId, resolveModel, type Embedder, type EmbeddingErrorCode, type ModelDtype } from './embedder.js';
import { compareCodeUnits } from '../../model/order.js';

export interface EmbedStageOptions {
  /** `.kdd-index` folder; vectors are cached under `embeddings/<model-slug>/`. */
  indexDir: string;
  /** Hub id or local folder. Default {@link DEFAULT_MODEL}. */
  model?: string;
  dtype?: ModelDtype;
  modelsDir?: string;
  cwd?: string;
  /** Use this embedder instead of loading one (tests, custom backends). */
  embedder?: Embedder;
  /** Drop cached vectors of chunks that no longer exist (default true: right for full builds). */
  retain?: boolean;
  /** Write the cache shards (default true); false for `compile()`, which must not write. */
  persist?: boolean;
}

export interface EmbedWarning {
  code: EmbeddingErrorCode;
  message: string;
}

export type EmbedStageResult =
  | {
      level: 'L2';
      /** Embedder id for `manifest.embedding_model`. */
      model: string;
      dimensions: number;
      /** Embeddable chunks, nodes sorted by id, each node's chunks in position order. Row i of `vectors` ↔ chunks[i]. */
      chunks: Chunk[];
      vectors: QuantizedVectors;
      /** Chunks sent to the model / answered from the cache. */
      embedded: number;
      reused: number;
      cache: CacheSaveReport;
    }
  | { level: 'L1'; warning: EmbedWarning };

export async function embedStage(nodes: readonly GraphNode[], options: EmbedStageOptions): Promise<EmbedStageResult> {
  try {
    const dtype = options.dtype ?? DEFAULT_DTYPE;
    const model = options.model ?? DEFAULT_MODEL;
    const id = options.embedder?.id ?? embedderId(resolveModel(model, { modelsDir: options.modelsDir, cwd: options.cwd }).name, dtype);
    const chunks = [...nodes].sort((a, b) => compareCodeUnits(a.id, b.id)).flatMap(chunkNode);
    const texts = chunks.map((chunk) => chunk.context_text);
    const hashes = texts.map(textHash);
    const cache = await VectorCache.open(options.indexDir, id);
    const missing = new Map<string, string>();
    hashes.forEach((hash, index) => {
      if (!cache.get(hash)) missing.set(hash, texts[index]!);
    });
    let embedder = options.embedder;
    if (missing.size > 0) {
      if (!embedder) {
        const { loadTransformersEmbedder } = await import('./transformers.js');
        embedder = await loadTransformersEmbedder({ model, dtype, modelsDir: options.modelsDir, cwd: options.cwd });
      }
      try {
        if (cache.dimensions !== null && cache.dimensions !== embedder.dimensions) {
          // Same id, other dimensions (the model files were replaced): start the cache over.
          cache.clear();
          hashes.forEach((hash, index) => missing.set(hash, texts[index]!));
        }
        const fresh = await embedder.embedDocuments([...missing.values()]);
        [...missing.keys()].forEach((hash, index) => cache.set(hash, fresh[index]!));
      } finally {
        if (!options.embedder) await embedder.dispose?.();
      }
    }
    if (options.retain ?? true) cache.retain(hashes);
    const report = (options.persist ?? true) ? await cache.save() : { written: [], removed: [] };
    const vectors = hashes.map((hash) => cache.get(hash)!);
    const dimensions = cache.dimensions ?? embedder?.dimensions ?? 0;
    return { level: 'L2', model: id, dimensions, chunks, vectors: quantize(vectors, dimensions), embedded: missing.size, reused: chunks.length - countMissing(hashes, missing), cache: report };
  } catch (error) {
    const code: EmbeddingErrorCode = error instanceof EmbeddingError ? error.code : 'EMBEDDING_FAILED';
    return { level: 'L1', warning: { code, message: `Embedding generation failed, falling back to L1: ${(error as Error).message}` } };
  }
}

function countMissing(hashes: readonly string[], missing: ReadonlyMap<string, string>): number {
  return hashes.filter((hash) => missing.has(hash)).length;
}
