/**
 * Level selection and the L2 step of a build (BR-INDEX-001): L2 when a model is available locally
 * (asked for with `--embedder`, or the default model already pulled), L1 otherwise. An L2 that
 * fails mid-way degrades to L1 with an EMBEDDING_FAILED warning; the build never aborts for it.
 */
import type { IndexManifest } from '../../model/graph.js';
import { warning, type BuildWarning } from '../diagnostics.js';
import type { PackVectors } from '../pack/pack.js';
import type { Graph } from '../graph/link.js';
import { DEFAULT_DTYPE, DEFAULT_MODEL, type Embedder, type ModelDtype } from './embedder.js';
import { listModels } from './pull.js';
import { embedStage } from './stage.js';
import { startPhase, type ProgressListener } from '../progress.js';
import { sortWarnings, type CompileResult } from '../report.js';

export interface SemanticOptions {
  /** `auto` (default): L2 when `embedder` is set or the default model is cached; `L1` never embeds. */
  level?: 'auto' | 'L1' | 'L2';
  /** Model id or local folder. */
  embedder?: string;
  dtype?: ModelDtype;
  modelsDir?: string;
  /** An embedder object instead of a model to load (tests, custom backends). */
  embedderInstance?: Embedder;
}

export interface SemanticResult {
  manifest: IndexManifest;
  vectors: PackVectors | null;
  warnings: BuildWarning[];
  /** Embedded chunks per node id (EVT-KDDDocument-Indexed `embedding_count`). */
  counts: ReadonlyMap<string, number>;
}

async function wantedModel(options: SemanticOptions): Promise<string | null> {
  if (options.level === 'L1') return null;
  if (options.embedder || options.embedderInstance || options.level === 'L2') return options.embedder ?? DEFAULT_MODEL;
  const cached = await listModels({ modelsDir: options.modelsDir }).catch(() => []);
  return cached.some((model) => model.model === DEFAULT_MODEL && model.dtypes.includes(options.dtype ?? DEFAULT_DTYPE)) ? DEFAULT_MODEL : null;
}

/**
 * The embed stage of a build: `compiled` with the L2 manifest, vectors, embedding counts in its
 * Indexed events and any degradation warning. Vectors are cached by text hash in `indexDir`
 * (written there). Without an index folder (`compile()` in memory) there is no vector cache: L1.
 */
export async function embed<T extends CompileResult>(compiled: T, indexDir: string | null, options: SemanticOptions, onProgress?: ProgressListener): Promise<T & { vectors: PackVectors | null }> {
  if (indexDir === null) return { ...compiled, vectors: null };
  const semantic = await semanticStage(compiled.graph, compiled.manifest, indexDir, options, true, onProgress);
  return { ...withSemantic(compiled, semantic), vectors: semantic.vectors };
}

/** The manifest and events after the L2 step: level, model, embedding counts, any degradation warning. */
function withSemantic<T extends CompileResult>(result: T, semantic: SemanticResult): T {
  if (semantic.manifest === result.manifest && semantic.warnings.length === 0) return result;
  const events = result.events.map((event) =>
    event.event === 'EVT-KDDDocument-Indexed'
      ? { ...event, payload: { ...event.payload, index_level: semantic.manifest.index_level, embedding_count: semantic.counts.get(event.payload.node_id) ?? 0 } }
      : event,
  );
  return { ...result, manifest: semantic.manifest, events, warnings: sortWarnings([...result.warnings, ...semantic.warnings]) };
}

/** `persist` false keeps the vector cache read-only (`packIndexDir`: committed artifacts are not rewritten). */
export async function semanticStage(graph: Graph, manifest: IndexManifest, indexDir: string, options: SemanticOptions, persist: boolean, onProgress?: ProgressListener): Promise<SemanticResult> {
  const l1: SemanticResult = { manifest, vectors: null, warnings: [], counts: new Map() };
  const model = await wantedModel(options);
  if (!model) return l1;
  const progress = startPhase(onProgress, 'embed', graph.nodes.length);
  const result = await embedStage(graph.nodes, { indexDir, model, dtype: options.dtype, modelsDir: options.modelsDir, embedder: options.embedderInstance, persist });
  progress.end();
  if (result.level === 'L1') return { ...l1, warnings: [warning('EMBEDDING_FAILED', { file: '.', detail: result.warning.message })] };
  const counts = new Map<string, number>();
  for (const chunk of result.chunks) counts.set(chunk.node_id, (counts.get(chunk.node_id) ?? 0) + 1);
  return {
    manifest: {
      ...manifest,
      index_level: 'L2',
      embedding_model: result.model,
      embedding_dimensions: result.dimensions,
      stats: { ...manifest.stats, embeddings: result.chunks.length },
    },
    vectors: { model: result.model, dimensions: result.dimensions, chunk_ids: result.chunks.map((chunk) => chunk.chunk_id), quantized: result.vectors },
    warnings: [],
    counts,
  };
}
