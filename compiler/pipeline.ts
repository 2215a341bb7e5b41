/**
 * The build: read → extract → link → enrich → embed → emit → pack. Each stage is a function of its
 * own module; this file only lists them in the order they run. What an earlier build left
 * (compiler/incremental/) comes in as `earlier` and is only handed to the stages, which use it to
 * skip work: the bytes never depend on it (docs/architecture.md).
 *
 * `compile` stops before any write and returns everything in memory (tests, eval, benchmarks);
 * `buildIndex` (what `kdd build` calls) compiles against the previous build and writes `.kdd-index/`
 * and `dist/`; `build` is a full `buildIndex`; `packIndexDir` packs committed artifacts.
 */
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createError } from '../model/errors.js';
import type { BuildWarning } from './diagnostics.js';
import { CACHE_DIR, recordCachePath } from './cache/record-cache.js';
import { saveCaches, type CacheFiles } from './cache/save.js';
import type { PackMemo } from './cache/pack-memo.js';
import { artifactStamps } from './cache/stamps.js';
import { embed, semanticStage, type SemanticOptions } from './embed/semantic.js';
import { emit } from './emit/emit.js';
import { clearInterruptedBuild, markBuildFinished, markBuildStarted } from './emit/in-progress.js';
import { artifactSizes, indexWeight } from './emit/sizes.js';
import { readIndexDir } from './emit/read-index-dir.js';
import { readEnrichments } from './enrich/artifact.js';
import { applyEnrichments, enrichManifest } from './enrich/edges.js';
import { indexedEvents } from './events.js';
import { faultPoint } from './fault.js';
import { readGitFacts } from './git.js';
import { changedSince } from './git-changes.js';
import { withGraph } from './graph/edge-facts.js';
import { linkRecords } from './graph/link.js';
import { compareCodeUnits } from '../model/order.js';
import { changesSince, sameGraphAs } from './incremental/changes.js';
import { FROM_SCRATCH, previousBuild, type Earlier } from './incremental/earlier.js';
import { keptBundle, rememberBundle } from './incremental/kept-bundle.js';
import { nodeTermSets, patchBundle, previousPack, rememberPack, type NodeTermSets } from './incremental/patch-bundle.js';
import { previousGraph } from './incremental/relink.js';
import { readSupply, reusedRecord } from './incremental/reuse.js';
import { extractTree } from './kinds/extract-tree.js';
import { makeManifest } from './manifest.js';
import { refuseMassDelete } from './mass-delete.js';
import type { BuildOptions, CompileOptions, IndexBuildOptions } from './options.js';
import { indexDigest } from './pack/digest.js';
import { writeBundle, writePointer } from './pack/dist.js';
import { packBundle, packPrepared, prepareNodes, type PackedBundle, type PreparedNodes } from './pack/pack.js';
import { startPhase } from './progress.js';
import { DEFAULT_MAX_FILE_BYTES, readSources } from './read.js';
import { indexBuildReport, sortWarnings, type CompileResult, type Compiled, type IndexBuildReport } from './report.js';

export type { BuildOptions, BuildMode, CompileOptions, IndexBuildOptions } from './options.js';
export type { BuildReport, CompileResult, Compiled, IndexBuildReport, SkippedFile } from './report.js';

/**
 * The stages up to the artifacts, in memory. With the default `earlier` (nothing before) it is L1
 * and writes nothing; `buildIndex` passes what the previous build left in `.kdd-index/`, and then
 * embedding may read and write the vector cache there.
 */
export async function compile(options: CompileOptions & SemanticOptions & Pick<IndexBuildOptions, 'allowMassDelete'>, earlier: Earlier = FROM_SCRATCH): Promise<Compiled> {
  const root = resolve(options.specsDir);
  const tell = options.onProgress;
  const reading = startPhase(tell, 'read');
  const [read, git] = await Promise.all([readSources(root, options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES, readSupply(earlier, options.changedFiles), tell && reading.step), readGitFacts(root)]);
  reading.end(read.files.length + read.warnings.length);

  const extracting = startPhase(tell, 'extract', read.files.length);
  const mismatched: BuildWarning[] = [];
  // Records read from committed node files with no local cache to vouch for them are checked against their specs (docs/integrity.md).
  const verify = earlier.unverified ? { extract: (await import('./kinds/extract.js')).extractDocument, onMismatch: (w: BuildWarning) => mismatched.push(w) } : null;
  const extracted = await extractTree(read.files, git.commitTimes, (file, indexedAt) => reusedRecord(earlier, file, indexedAt, verify), tell && extracting.step);
  extracting.end();

  // L3 (#9): agent edges and summaries from `.kdd-index/enrichments/`, current ones only.
  const enrichments = earlier.indexDir ? await readEnrichments(earlier.indexDir) : undefined;
  faultPoint('link');
  const linking = startPhase(tell, 'link', extracted.records.length);
  const before = previousGraph(earlier, extracted.records, enrichments);
  const enriched = applyEnrichments(before.graph ?? linkRecords(extracted.records, git.firstCommitTimes), enrichments);
  linking.end();

  const { graph } = enriched;
  const manifest = enrichManifest(makeManifest(graph, extracted.records, git, options.indexedBy ?? null), enriched.applied);
  const since = await changesSince(earlier, read.files, graph, extracted.reindexed, git.headTime);
  const compiled: Compiled = {
    manifest,
    records: extracted.records,
    graph,
    warnings: sortWarnings([...earlier.warnings, ...mismatched, ...read.warnings, ...extracted.warnings, ...graph.warnings, ...enriched.warnings]),
    skipped: [...read.warnings.map((w) => ({ file: w.file, reason: w.code })), ...extracted.skipped].sort((a, b) => compareCodeUnits(a.file, b.file)),
    events: [...since.events, ...extracted.events, ...indexedEvents(graph, extracted.extracted, extracted.durations, manifest)],
    files: read.files.length + read.warnings.length,
    changes: since.changes,
    tombstones: since.tombstones,
    touched: new Set(extracted.extracted),
    stamps: new Map(read.files.flatMap((file) => (file.stamp ? [[file.path, file.stamp] as const] : []))),
    sameGraph: sameGraphAs(earlier, before.sameLinks, manifest),
    relinked: before.relinked,
    vectors: null,
  };
  // Before anything is written (embedding writes the vector cache): a build that would wipe the index is refused (docs/integrity.md).
  if (!options.allowMassDelete) refuseMassDelete(earlier.previous, compiled);
  return embed(compiled, earlier.indexDir, options, tell);
}

/** `kdd build`: compile against what the last build left, then write `.kdd-index/` and `dist/`. */
export async function buildIndex(options: IndexBuildOptions): Promise<IndexBuildReport> {
  const started = performance.now();
  const indexDir = resolve(options.indexDir ?? '.kdd-index');
  const outDir = resolve(options.outDir ?? 'dist');
  const tell = options.onProgress;
  await requireSpecsDir(resolve(options.specsDir));
  const cacheFiles: CacheFiles = { records: options.recordCache ?? recordCachePath(indexDir), pack: null };
  // With git telling which specs changed (--since), specs are not stat-ed: none to take ahead.
  const statSpecs = options.since || options.changedFiles ? undefined : resolve(options.specsDir);
  const earlier = await previousBuild(indexDir, options.mode ?? 'auto', cacheFiles.records, statSpecs);
  await clearInterruptedBuild(indexDir);
  const changedFiles = options.since ? await changedSince(resolve(options.specsDir), options.since) : options.changedFiles;
  const compiled = await compile({ ...options, changedFiles }, earlier);

  await markBuildStarted(indexDir);
  const emitting = startPhase(tell, 'emit', compiled.graph.nodes.length);
  const written = await emit(indexDir, compiled, earlier);
  emitting.end();
  const artifacts = artifactStamps(indexDir, compiled, written, earlier.nodeStamps);
  const weight = indexWeight(resolve(options.specsDir), Object.keys(compiled.manifest.sources), compiled.stamps, indexDir, artifacts);

  // The bundle is kept only when it is provably the one this index describes: same digest of what
  // the pack reads, and its bytes still hash to its name (a torn or edited bundle is packed again).
  // A kept version whose git time moved leaves the node files as they are (docs/decisions/index-times.md)
  // but changes the digest (it covers every node's indexed_at), so the bundle is packed again.
  const digest = indexDigest(compiled);
  const checked = join(indexDir, CACHE_DIR, 'bundles.json');
  const kept = earlier.fullReason === null && written.written.length === 0 && written.removed.length === 0 ? await keptBundle(outDir, digest, checked) : null;
  let memo: PackMemo | undefined;
  let packed: PackedBundle | null = null;
  let prepared: PreparedNodes | null = null;
  if (!kept) {
    // The pack memo loads (and is read) only when there is a bundle to pack: a build where nothing
    // changed keeps the previous bundle and never needs it.
    const { createPackMemo, packMemoPath, readPackMemo, PackMemoCorrupt } = await import('./cache/pack-memo.js');
    cacheFiles.pack = options.recordCache === false ? null : packMemoPath(indexDir);
    memo = cacheFiles.pack ? await readPackMemo(cacheFiles.pack) : undefined;
    faultPoint('pack');
    const packing = startPhase(tell, 'pack', compiled.graph.nodes.length);
    // Not a spread: that would read the graph's edges, which a patch with the cached graph never needs (compiler/graph/edge-facts.ts).
    const input = withGraph(compiled.graph, { manifest: compiled.manifest, vectors: compiled.vectors });
    // Nodes changed in place: the previous bundle is patched instead of packed again (same bytes).
    const previous = earlier.fullReason === null ? await previousPack(indexDir, outDir, checked) : null;
    const pack = (with_: PackMemo | undefined): PackedBundle => {
      // The graph's texts are released as the pack goes: after it, the record cache stores the
      // nodes' packed bodies and the report counts nodes, so nothing here reads them again.
      prepared = prepareNodes(input, with_, true);
      return (previous && patchBundle(previous, input, prepared, with_)) || packPrepared(input, prepared);
    };
    try {
      packed = pack(memo);
    } catch (error) {
      // A memo entry that does not decode (its file is checked only as a whole): pack without it, and save a sound one.
      if (!(error instanceof PackMemoCorrupt)) throw error;
      memo = memo && createPackMemo();
      packed = pack(memo);
    }
    packing.end();
  }
  const writing = startPhase(tell, 'write', 1);
  // The bundle goes to disk before the caches are encoded, so its bytes (65 MB at 10,800 documents)
  // are let go of before theirs are made. A bundle no pointer names is never read, and the one the
  // pointer names stays until the pointer moves (docs/integrity.md).
  const bundle = packed && (await writeBundle(outDir, packed));
  packed = null;
  // From here only the nodes' keys are needed, and the memo is handed over: the per-node products
  // become garbage once the memo is written, before the record cache is encoded.
  const packedKeys = (prepared as PreparedNodes | null)?.packed.map((p) => p.key) ?? [];
  const unsaved = memo && prepared ? await unsavedTermSets(memo, prepared) : {};
  prepared = null;
  const pending = { memo };
  memo = undefined;
  // Caches before the pointer: once kdd.json changes the build is over, for readers and hot swap alike.
  await saveCaches(indexDir, cacheFiles, compiled, earlier, artifacts, pending, kept !== null);
  const pointer = kept ?? (await writePointer(outDir, bundle!, compiled.manifest, digest, weight));
  if (!kept) await Promise.all([rememberBundle(checked, outDir, pointer), cacheFiles.pack && rememberPack(indexDir, pointer.bundle, packedKeys, unsaved)]);
  await markBuildFinished(indexDir);
  writing.end();
  return indexBuildReport(compiled, earlier.fullReason, pointer, written, kept !== null, artifactSizes(weight, pointer.bytes), performance.now() - started);
}

/** The term sets of the products the memo's file will not hold once saved (at most a few: compiler/cache/rewrite-policy.ts). */
async function unsavedTermSets(memo: PackMemo, { packed, packs, terms }: PreparedNodes): Promise<Record<string, NodeTermSets>> {
  const { memoRewritten, readFromFile } = await import('./cache/pack-memo.js');
  const unsaved: Record<string, NodeTermSets> = {};
  if (memoRewritten(memo)) return unsaved;
  packs.forEach((pack, i) => {
    if (!readFromFile(pack)) unsaved[packed[i]!.key] = nodeTermSets(pack, terms);
  });
  return unsaved;
}

/** A full build: every file re-extracted, `.kdd-index/` and `dist/` written. */
export async function build(options: BuildOptions): Promise<IndexBuildReport> {
  return buildIndex({ ...options, mode: 'full' });
}

/** The pack stage over an in-memory result (no vectors: `compile` is L1). */
export function packCompiled(result: CompileResult): PackedBundle {
  return packBundle({ ...result.graph, manifest: result.manifest });
}

/**
 * `.kdd-index/` → bundle with no specs at hand (servers that receive committed indexes): link →
 * enrich → embed → pack over the committed artifacts. Equal artifacts give an equal bundle: the pack
 * is a function of the artifacts alone, vectors included (read from the committed vector cache; the
 * model is needed only for chunks missing from it, and the cache is not written).
 */
export async function packIndexDir(indexDir: string, options: SemanticOptions = {}): Promise<PackedBundle> {
  const dir = resolve(indexDir);
  const { manifest, records } = await readIndexDir(dir);
  const { graph } = applyEnrichments(linkRecords(records), await readEnrichments(dir));
  const level = manifest.index_level === 'L1' ? 'L1' : options.level ?? 'L2';
  const embedder = options.embedder ?? manifest.embedding_model?.replace(/@[^@]*$/, '') ?? undefined;
  const semantic = await semanticStage(graph, manifest, dir, { ...options, level, embedder }, false);
  return packBundle({ ...graph, manifest: semantic.manifest, vectors: semantic.vectors });
}

/** SPECS_NOT_FOUND unless `root` is a folder: a typo must not read as "every document deleted". */
async function requireSpecsDir(root: string): Promise<void> {
  const info = await stat(root).catch((error: NodeJS.ErrnoException) => error);
  if (info instanceof Error) throw createError('SPECS_NOT_FOUND', { path: root, detail: info.code ?? info.message });
  if (!info.isDirectory()) throw createError('SPECS_NOT_FOUND', { path: root, detail: 'a file, not a folder' });
}
