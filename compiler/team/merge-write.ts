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
 *
 * Caches, for a server that merges the same indexes again after every push (none of them is ever
 * the source of truth; the bundle bytes never depend on them):
 * - an input folder's record cache (`.kdd-index/.cache/records`, written by its build) replaces
 *   reading its node files when it belongs to the folder's current `manifest.json` (compiler/team/merge-inputs.ts);
 * - the merge's pack memo (`<cacheDir>/merge-pack`, compiler/cache/pack-memo.ts; `cacheDir` defaults
 *   to `<outDir>/.cache`) holds each packed node's tokens and chunks by content, so only nodes no
 *   earlier merge packed are tokenised and chunked;
 * - for git inputs, the blob cache (`<cacheDir>/git-blobs`, compiler/cache/blob-cache.ts) holds the
 *   record of every node file by blob id, so only the node files a push changed are read from git.
 * The cache folder carries a `.gitignore` (`*`), and `kdd serve` never serves dot-paths, so it stays
 * private to the machine that merges.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createError } from '../../model/errors.js';
import type { IndexManifest } from '../../model/graph.js';
import { decodeShard, VectorCache } from '../embed/cache.js';
import { modelSlug, parseEmbedderId } from '../embed/embedder.js';
import { semanticStage, type SemanticResult } from '../embed/semantic.js';
import { writeDist, type BundlePointer } from '../pack/dist.js';
import { writeIndexDir } from '../emit/index-dir.js';
import { openBlobCache, type BlobCache } from '../cache/blob-cache.js';
import { packBundle } from '../pack/pack.js';
import { readPackMemo, writePackMemo, type PackMemo } from '../cache/pack-memo.js';
import { worthRewriting } from '../cache/rewrite-policy.js';
import { CACHE_DIR, recordCachePath, removeRecordCache, writeRecordCache } from '../cache/record-cache.js';
import { stableJson } from '../../formats/canonical.js';
import { writeTombstones } from '../emit/tombstones.js';
import { manifestId, mergeIndexes, type ConflictStrategy, type MergeReport, type MergeResult, type MergeSource } from './merge.js';
import { loadMergeSource, readIndexFromGit } from './merge-inputs.js';

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
  /**
   * Folder of the merge's own caches (pack memo, git blob cache), or false to neither read nor write
   * them. Default `<outDir>/.cache`, where the next merge into the same `outDir` finds them. The
   * inputs' own record caches are read either way.
   */
  cacheDir?: string | false;
}

export interface MergeWriteReport extends MergeReport {
  bundle: BundlePointer;
  index_dir: { written: number; removed: number } | null;
  cache: MergeCacheReport;
  /** Where the time went, ms: reading the inputs (and the memo), merging and re-linking, the L2 step, packing, writing. */
  stages_ms: MergeStages;
}

export interface MergeStages {
  read: number;
  merge: number;
  vectors: number;
  pack: number;
  write: number;
}

/** What the caches saved this merge (they never change the bytes). */
export interface MergeCacheReport {
  /** The merge's cache folder, or null with `cacheDir: false`. */
  dir: string | null;
  /** Inputs whose records came from their record cache instead of their node files. */
  record_caches: string[];
  /** Git inputs: node files (distinct blobs) taken from the blob cache / read from git. */
  git_blob_hits: number;
  git_blob_misses: number;
  /** Packed nodes whose tokens and chunks came from the memo / had to be computed. */
  memo_hits: number;
  memo_misses: number;
}

/** The pack memo's file inside the merge's cache folder. */
export const MERGE_MEMO_FILE = 'merge-pack';
/** The git blob cache's file inside the merge's cache folder (merges of refs only). */
export const BLOB_CACHE_FILE = 'git-blobs';

/** The cache folder a merge into `outDir` uses by default. */
export function defaultMergeCacheDir(outDir: string): string {
  return join(outDir, CACHE_DIR);
}

export async function mergeAndWrite(options: MergeWriteOptions): Promise<MergeWriteReport> {
  const started = performance.now();
  const stages: MergeStages = { read: 0, merge: 0, vectors: 0, pack: 0, write: 0 };
  let mark = started;
  const lap = (stage: keyof MergeStages) => {
    const now = performance.now();
    stages[stage] += Math.round(now - mark);
    mark = now;
  };
  const cacheDir = options.cacheDir === false ? null : (options.cacheDir ?? defaultMergeCacheDir(options.outDir));
  const memoFile = cacheDir === null ? null : join(cacheDir, MERGE_MEMO_FILE);
  const refs = options.refs ?? [];
  // The caches are read while the inputs are: the reads overlap. A missing or unusable cache is an empty one.
  const opening = cacheDir !== null && refs.length > 0 ? openBlobCache(join(cacheDir, BLOB_CACHE_FILE)) : Promise.resolve(undefined);
  const [memo, blobs, fromPaths, fromGit] = await Promise.all([
    memoFile === null ? undefined : readPackMemo(memoFile),
    opening,
    Promise.all(options.paths.map((path) => loadMergeSource(path))),
    opening.then((cache) => Promise.all(refs.map((ref) => readIndexFromGit(options.repo ?? '.', ref, options.indexPath, cache)))),
  ]);
  const inputs = [...fromPaths, ...fromGit];
  lap('read');
  if (options.indexDir && inputs.some((input) => input.edges)) {
    throw createError('INVALID_PARAMS', { field: 'index-dir', reason: 'a merged .kdd-index/ needs .kdd-index/ or git inputs (bundles carry no raw links)' });
  }
  const merged = mergeIndexes(inputs, { strategy: options.strategy, requestedBy: options.requestedBy });
  lap('merge');
  let indexDir: MergeWriteReport['index_dir'] = null;
  try {
    const semantic = await mergedVectors(merged, inputs.map((input) => input.manifest), options.paths, options.indexDir, options.modelsDir);
    const manifest = semantic?.manifest ?? merged.manifest;
    lap('vectors');
    if (options.indexDir) {
      const written = await writeIndexDir(options.indexDir, manifest, merged.records, merged.graph);
      if (await writeTombstones(options.indexDir, merged.tombstones)) written.written.push('tombstones.jsonl');
      await refreshRecordCache(options.indexDir, manifest, merged);
      indexDir = { written: written.written.length, removed: written.removed.length };
      lap('write');
    }
    const packed = packBundle({ ...merged.graph, manifest, vectors: semantic?.vectors ?? null }, { memo });
    const cache = cacheReport(cacheDir, inputs, memo, blobs);
    lap('pack');
    // Before the pointer, as builds do: once kdd.json changes the merge is over. A cache that cannot
    // be written only costs the next merge time, so its failure never fails this one.
    if (memo && memoFile) await writePackMemo(memoFile, memo).catch(() => undefined);
    if (blobs && worthRewriting(blobs.stored, blobs.hits, blobs.misses)) await blobs.save().catch(() => undefined);
    const bundle = await writeDist(options.outDir, packed, manifest);
    lap('write');
    const report = semantic ? withVectors(merged.report, manifest, semantic) : merged.report;
    return { ...report, bundle, index_dir: indexDir, cache, stages_ms: stages, duration_ms: Math.round(performance.now() - started) };
  } catch (error) {
    throw createError('OUTPUT_WRITE_FAILED', { output_path: options.outDir, detail: (error as Error).message }, { cause: error });
  }
}

function cacheReport(dir: string | null, inputs: readonly MergeSource[], memo: PackMemo | undefined, blobs: BlobCache | undefined): MergeCacheReport {
  const misses = memo?.added ?? 0;
  return {
    dir,
    record_caches: inputs.filter((input) => input.cached).map((input) => input.source),
    git_blob_hits: blobs?.hits ?? 0,
    git_blob_misses: blobs?.misses ?? 0,
    memo_hits: memo ? memo.used.size - misses : 0,
    memo_misses: misses,
  };
}

/**
 * A merged `.kdd-index/` gets the record cache of what was just written (so it is a fast merge input
 * in turn), never keeps one of a previous index: a cache left there could match a manifest that
 * happens to be unchanged while node files were rewritten. No spec stamps: a build in that folder
 * hashes every spec once. Failing to write it removes the old one and does not fail the merge.
 */
async function refreshRecordCache(indexDir: string, manifest: IndexManifest, merged: MergeResult): Promise<void> {
  const file = recordCachePath(indexDir);
  const winners = new Map(merged.graph.nodes.map((node) => [node.id, node]));
  const records = merged.records.filter((record) => winners.get(record.node.id) === record.node);
  await writeRecordCache(file, stableJson(manifest), records, new Map()).catch(() => removeRecordCache(file).catch(() => undefined));
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
