/**
 * `kdd merge` as one library call: load the inputs (folders, bundles, git refs), merge them in
 * memory, write the bundle (`dist`-style, atomically) and optionally the merged `.kdd-index/`.
 *
 * Vectors follow the winning node (BR-MERGE-001 rule 6): when every input is L2 (same model, or
 * `mergeIndexes` refused them), the inputs' vector caches (`.kdd-index/embeddings/`, keyed by the
 * chunk text's hash, so their union is exact) are united into the output index dir (or a temporary
 * one) and the usual L2 stage runs on the merged graph. Every winner's chunks are then cache hits,
 * so no model is loaded; a chunk no cache has (a bundle or git input) needs the model, and without
 * it the merge degrades to L1 with an EMBEDDING_FAILED warning, like a build.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createError } from '../runtime/errors.js';
import type { IndexManifest } from '../runtime/model.js';
import { decodeShard, VectorCache } from './embed/cache.js';
import { modelSlug, parseEmbedderId } from './embed/embedder.js';
import { semanticStage, type SemanticResult } from './embed/semantic.js';
import { writeDist, type BundlePointer } from './emit/dist.js';
import { writeIndexDir } from './emit/index-dir.js';
import { packBundle } from './emit/pack.js';
import { writeTombstones } from './emit/tombstones.js';
import { manifestId, mergeIndexes, type ConflictStrategy, type MergeReport, type MergeResult } from './merge.js';
import { loadMergeSource, readIndexFromGit } from './sync.js';

export interface MergeWriteOptions {
  /** `.kdd-index/` folders, `dist/` folders or bundle files. */
  paths: string[];
  /** Git refs whose committed `.kdd-index/` to merge (read from `repo`). */
  refs?: string[];
  repo?: string;
  /** `.kdd-index/` location inside the repository, for `refs`. */
  indexPath?: string;
  outDir: string;
  /** Also write the merged `.kdd-index/` here (needs `.kdd-index/` or git inputs: bundles have no raw links). */
  indexDir?: string;
  strategy?: ConflictStrategy;
  requestedBy?: string | null;
  /** Local model store, only used when a winner's chunk is in no input's vector cache. */
  modelsDir?: string;
}

export interface MergeWriteReport extends MergeReport {
  bundle: BundlePointer;
  index_dir: { written: number; removed: number } | null;
}

export async function mergeAndWrite(options: MergeWriteOptions): Promise<MergeWriteReport> {
  const started = performance.now();
  const fromGit = await Promise.all((options.refs ?? []).map((ref) => readIndexFromGit(options.repo ?? '.', ref, options.indexPath)));
  const fromPaths = await Promise.all(options.paths.map((path) => loadMergeSource(path)));
  const inputs = [...fromPaths, ...fromGit];
  if (options.indexDir && inputs.some((input) => input.edges)) {
    throw createError('INVALID_PARAMS', { field: 'index-dir', reason: 'a merged .kdd-index/ needs .kdd-index/ or git inputs (bundles carry no raw links)' });
  }
  const merged = mergeIndexes(inputs, { strategy: options.strategy, requestedBy: options.requestedBy });
  let indexDir: MergeWriteReport['index_dir'] = null;
  try {
    const semantic = await mergedVectors(merged, inputs.map((input) => input.manifest), options.paths, options.indexDir, options.modelsDir);
    const manifest = semantic?.manifest ?? merged.manifest;
    if (options.indexDir) {
      const written = await writeIndexDir(options.indexDir, manifest, merged.records, merged.graph);
      if (await writeTombstones(options.indexDir, merged.tombstones)) written.written.push('tombstones.jsonl');
      indexDir = { written: written.written.length, removed: written.removed.length };
    }
    const bundle = await writeDist(options.outDir, packBundle({ ...merged.graph, manifest, vectors: semantic?.vectors ?? null }), manifest);
    const report = semantic ? withVectors(merged.report, manifest, semantic) : merged.report;
    return { ...report, bundle, index_dir: indexDir, duration_ms: Math.round(performance.now() - started) };
  } catch (error) {
    throw createError('OUTPUT_WRITE_FAILED', { output_path: options.outDir, detail: (error as Error).message }, { cause: error });
  }
}

/** The L2 step of a merge; null when some input is L1 (the merged level is the lowest, rule 6). */
async function mergedVectors(merged: MergeResult, manifests: readonly IndexManifest[], paths: readonly string[], indexDir: string | undefined, modelsDir: string | undefined): Promise<SemanticResult | null> {
  const model = manifests[0]?.embedding_model;
  if (!model || manifests.some((manifest) => manifest.index_level === 'L1' || manifest.embedding_model !== model)) return null;
  const dir = indexDir ?? (await mkdtemp(join(tmpdir(), 'kdd-merge-')));
  try {
    await uniteVectorCaches(paths, model, dir);
    const { model: name, dtype } = parseEmbedderId(model);
    return await semanticStage(merged.graph, merged.manifest, dir, { level: 'L2', embedder: name, dtype, modelsDir }, Boolean(indexDir));
  } finally {
    if (!indexDir) await rm(dir, { recursive: true, force: true });
  }
}

/** Copies every cached vector of `model` found under `<input>/embeddings/` into `<target>/embeddings/`. */
export async function uniteVectorCaches(inputs: readonly string[], model: string, target: string): Promise<void> {
  const cache = await VectorCache.open(target, model);
  for (const input of inputs) {
    const folder = join(input, 'embeddings', modelSlug(model));
    const names = (await readdir(folder).catch(() => [] as string[])).filter((name) => /^[0-9a-f]{2}\.bin$/.test(name)).sort();
    for (const name of names) {
      const shard = decodeShard(await readFile(join(folder, name)));
      if (!shard || (cache.dimensions !== null && shard.dims !== cache.dimensions)) continue;
      for (const [hash, vector] of shard.records) cache.set(hash, vector);
    }
  }
  await cache.save();
}

/** The report once vectors are in: level warning, merged manifest id and MergeCompleted's embedding count. */
function withVectors(report: MergeReport, manifest: IndexManifest, semantic: SemanticResult): MergeReport {
  const id = manifestId(manifest);
  return {
    ...report,
    manifest_id: id,
    warnings: [...report.warnings, ...semantic.warnings.map((warning) => `${warning.code}: ${warning.message}`)],
    events: report.events.map((event) =>
      event.event === 'EVT-Index-MergeCompleted' ? { ...event, payload: { ...event.payload, merged_manifest_id: id, total_embeddings: manifest.stats.embeddings } } : event,
    ),
  };
}
