/**
 * `kdd merge` as one library call: load the inputs (folders, bundles, git refs), merge them in
 * memory, write the bundle (`dist`-style, atomically) and optionally the merged `.kdd-index/`.
 */
import { createError } from '../runtime/errors.js';
import { writeDist, type BundlePointer } from './emit/dist.js';
import { writeIndexDir } from './emit/index-dir.js';
import { packBundle } from './emit/pack.js';
import { writeTombstones } from './emit/tombstones.js';
import { mergeIndexes, type ConflictStrategy, type MergeReport } from './merge.js';
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
    if (options.indexDir) {
      const written = await writeIndexDir(options.indexDir, merged.manifest, merged.records, merged.graph);
      if (await writeTombstones(options.indexDir, merged.tombstones)) written.written.push('tombstones.jsonl');
      indexDir = { written: written.written.length, removed: written.removed.length };
    }
    const bundle = await writeDist(options.outDir, packBundle({ ...merged.graph, manifest: merged.manifest }), merged.manifest);
    return { ...merged.report, bundle, index_dir: indexDir, duration_ms: Math.round(performance.now() - started) };
  } catch (error) {
    throw createError('OUTPUT_WRITE_FAILED', { output_path: options.outDir, detail: (error as Error).message }, { cause: error });
  }
}
