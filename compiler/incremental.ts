/**
 * Incremental build (UC-002, CMD-002, #6): re-extract only the files whose content hash differs
 * from the previous `.kdd-index/manifest.json`, reuse the other records as `.kdd-index/` holds them,
 * re-run the (pure, whole-tree) link pass, and rewrite only the artifacts that changed. The bundle is
 * a function of the records and the manifest, so it is byte-identical to a full rebuild of the
 * same tree. Deleted nodes leave tombstones for merges (BR-MERGE-001 delete-wins).
 */
import { existsSync, statSync } from 'node:fs';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { BUNDLE_FORMAT_VERSION } from '../formats/bundle/types.js';
import type { GraphEdge, IndexManifest } from '../model/graph.js';
import { INDEX_FORMAT_VERSION, indexedEvents, makeManifest, report, sortWarnings, type BuildOptions, type BuildReport, type CompileResult, type SkippedFile } from './pipeline.js';
import { chunkNode } from './embed/chunk.js';
import { semanticStage, type SemanticResult } from './embed/semantic.js';
import { warning, type BuildWarning } from './diagnostics.js';
import { forEachLimited, isTempFile, writeAtomic, writeIfChanged, writeManyIfChanged } from './atomic.js';
import { canonical, stableJson } from '../formats/canonical.js';
import { readPointer, writeDist, type BundlePointer } from './pack/dist.js';
import { edgesJsonl, nodeFilePath, nodeFileText, patchEdgesJsonl, writeIndexDir, type IndexDirWrite } from './emit/index-dir.js';
import { bundleHash, packBundle } from './pack/pack.js';
import { parseManifest, readIndexDir, readNodeFiles, type OnCorrupt } from './emit/read-index-dir.js';
import { codeFingerprint } from './cache/code-fingerprint.js';
import { packMemoPath, readPackMemo, writePackMemo } from './cache/pack-memo.js';
import { CACHE_DIR, readRecordCache, recordCachePath, restoreGraph, writeRecordCache, type ArtifactStamp, type CachedGraph } from './cache/record-cache.js';
import { readTombstones, writeTombstones, sortTombstones, type IndexContent, type Tombstone } from './emit/tombstones.js';
import { now, type DomainEvent } from './events.js';
import { faultPoint } from './fault.js';
import { createError, isKddError } from '../model/errors.js';
import { createHash } from 'node:crypto';
import { readGitFacts } from './git.js';
import { changedSince, trustedSources, type GitRange } from './git-changes.js';
import { linkRecords, relinkRecords, sameLinkInputs, sameNodeEntry, type Graph } from './graph/link.js';
import { compareCodeUnits } from '../model/order.js';
import { extractDocument } from './kinds/extract.js';
import type { DocumentRecord } from '../model/records.js';
import { readEnrichments, type EnrichmentSet } from './enrich/artifact.js';
import { applyEnrichments, enrichManifest, type AppliedEnrichments } from './enrich/edges.js';
import { DEFAULT_MAX_FILE_BYTES, readSource, scanSpecs, type ScannedFile, type ScanResult, type SourceStamp } from './read.js';

/** `auto`: incremental when a compatible `.kdd-index/` exists, else full. `full` re-extracts every file. */
export type BuildMode = 'auto' | 'incremental' | 'full';

export interface IndexBuildOptions extends BuildOptions {
  /** Default `auto`. `incremental` behaves like `auto` (UC-002 FA-1: no index ⇒ full build). */
  mode?: BuildMode;
  /**
   * Record cache file (compiler/cache/record-cache.ts), or false to neither read nor write one.
   * Default: `recordCachePath(indexDir)`, in the index's git-ignored `.cache/` folder.
   */
  recordCache?: string | false;
  /** CMD-002: take the changed files from `git diff` over this range instead of hashing every file. */
  since?: GitRange;
  /** Lifts the mass-delete guard (`--allow-mass-delete`, docs/integrity.md). Default false. */
  allowMassDelete?: boolean;
}

/** What changed since the previous index (paths relative to the specs root, node ids for tombstones). */
export interface IndexChanges {
  /** New spec files (not in the previous manifest's `sources`). */
  added: string[];
  /** Files whose content hash changed (one EVT-KDDDocument-Stale each). */
  modified: string[];
  /** Files of the previous manifest that are gone. */
  deleted: string[];
  /** Files that went through extraction in this run (all of them in a full build). */
  reindexed: string[];
  /** Node ids that got a tombstone in this run / whose tombstone was lifted because they reappeared. */
  tombstoned: string[];
  revived: string[];
}

export interface IndexBuildReport extends BuildReport {
  mode: 'incremental' | 'full';
  /** Why a full build ran (`--full`, no previous index, format changed), or null. */
  full_reason: string | null;
  changes: IndexChanges;
  /** Tombstones now in `.kdd-index/tombstones.jsonl`. */
  tombstones: number;
  /** True when nothing changed and the existing bundle was kept without repacking. */
  bundle_reused: boolean;
}

export interface IncrementalCompileResult extends CompileResult {
  changes: IndexChanges;
  tombstones: Tombstone[];
  /** Records whose node file must be written: re-extracted (a new version of the source). */
  touched: ReadonlySet<DocumentRecord>;
  /** Trusted stamps of the spec files as this run saw them (for the record cache). */
  stamps: ReadonlyMap<string, SourceStamp>;
  /**
   * True when every record gives the link stage the same input as the previous index's record for
   * its path (and the same enrichments apply): the graph, hence the edge files, cannot have changed.
   */
  sameGraph: boolean;
  /**
   * Set when the graph came from the previous one with the nodes in `changed` linked again: the
   * previous edges, so the edge file can be patched instead of written out whole.
   */
  relinked: { previous: readonly GraphEdge[]; changed: ReadonlySet<string> } | null;
}

interface Previous {
  content: IndexContent | null;
  /** Null when the previous records can be reused. */
  fullReason: string | null;
  /** Stamps of the specs the previous index was built from, when the record cache was fresh. */
  stamps: ReadonlyMap<string, SourceStamp> | null;
  /** Stamps of the edge files as the previous build left them, when the record cache was fresh. */
  artifacts: ReadonlyMap<string, ArtifactStamp> | null;
  /** The previous graph, when the record cache was fresh and held it. */
  graph: CachedGraph | null;
  /** Node files that are not as the previous build left them (edited, deleted): written again. */
  distrusted: ReadonlySet<string>;
  /** Stamps of the node files that are as the previous build left them (kept for the next cache). */
  nodeStamps: ReadonlyMap<string, ArtifactStamp>;
  /** INDEX_FILE_CORRUPT for each previous artifact that could not be used. */
  warnings: BuildWarning[];
}

/** What the record cache adds to the previous index (compiler/cache/record-cache.ts). */
export interface PreviousCache {
  /** Stamps of the specs the previous index was built from. */
  stamps?: ReadonlyMap<string, SourceStamp>;
  /** The graph the previous records linked to. */
  graph?: CachedGraph | null;
}

/** The `kdd build` entry: picks incremental or full, writes `.kdd-index/` and `dist/`, reports. */
export async function buildIndex(options: IndexBuildOptions): Promise<IndexBuildReport> {
  const started = performance.now();
  const indexDir = resolve(options.indexDir ?? '.kdd-index');
  const outDir = resolve(options.outDir ?? 'dist');
  await requireSpecsDir(resolve(options.specsDir));
  const cacheFile = options.recordCache ?? recordCachePath(indexDir);
  const previous = await loadPrevious(indexDir, options.mode ?? 'auto', cacheFile);
  // A build that did not get to its end may have left temp files (never artifacts: they would be
  // committed). The marker spares every other build a listing of 10k node files.
  const marker = join(indexDir, CACHE_DIR, 'build-in-progress');
  if (existsSync(marker)) await removeTempFiles(indexDir);
  const reuse = previous.fullReason === null;
  const changedFiles = options.since ? await changedSince(resolve(options.specsDir), options.since) : options.changedFiles;
  const compiled = await compileIncremental({ ...options, changedFiles }, previous.content, reuse, indexDir, { stamps: previous.stamps ?? undefined, graph: previous.graph });
  // Before anything is written: a build that would wipe the index is refused (docs/integrity.md).
  if (!options.allowMassDelete) refuseMassDelete(previous.content, compiled);
  const semantic = await semanticStage(compiled.graph, compiled.manifest, indexDir, options, true);
  const result = withSemantic({ ...compiled, warnings: sortWarnings([...previous.warnings, ...compiled.warnings]) }, semantic);
  await writeAtomic(marker, `${process.pid}\n`);
  await writeIfChanged(join(indexDir, CACHE_DIR, '.gitignore'), '*\n'); // the marker is never committed
  // Tombstones before the manifest: a build killed after the manifest dropped a deleted file, but
  // before its tombstone was written, would leave the next build nothing to detect the deletion by.
  const tombstonesWritten = await writeTombstones(indexDir, result.tombstones);
  const written = reuse ? await writeTouched(indexDir, result, previous.content!, previous.artifacts, previous.distrusted) : await writeIndexDir(indexDir, result.manifest, result.records, result.graph);
  if (tombstonesWritten) written.written.push('tombstones.jsonl');
  // The bundle is kept only when it is provably the one this index describes: same digest of what
  // the pack reads, and its bytes still hash to its name (a torn or edited bundle is packed again).
  const digest = indexDigest(result);
  const checked = join(indexDir, CACHE_DIR, 'bundles.json');
  // A kept version whose git time moved leaves the node files as they are (docs/decisions/index-times.md)
  // but changes the digest (it covers every node's indexed_at), so the bundle is packed again.
  const kept = reuse && written.written.length === 0 && written.removed.length === 0 ? await currentPointer(outDir, digest, checked) : null;
  // Pack cache (compiler/cache/pack-memo.ts): per-node pack products, next to the record cache.
  const packFile = cacheFile === false ? null : packMemoPath(indexDir);
  const memo = kept === null && packFile ? await readPackMemo(packFile) : undefined;
  if (!kept) faultPoint('pack');
  const packed = kept ? null : packBundle({ ...result.graph, manifest: result.manifest, vectors: semantic.vectors }, { memo });
  // Caches before the pointer: once kdd.json changes the build is over, for readers and hot swap alike.
  // They are an optimisation: failing to write one must not fail the build.
  const caches = Promise.all([
    memo && packFile ? writePackMemo(packFile, memo).catch(() => undefined) : undefined,
    cacheFile && (kept === null || !sameStamps(previous.stamps, result.stamps))
      ? readFile(join(indexDir, 'manifest.json'), 'utf8').then((text) => writeCache(cacheFile, result, artifactStamps(indexDir, result, written, previous.nodeStamps), text)).catch(() => undefined)
      : undefined,
  ]);
  const pointer = kept ? (await caches, kept) : await writeDist(outDir, packed!, result.manifest, caches, digest);
  if (!kept) await rememberBundle(checked, outDir, pointer);
  await rm(marker, { force: true });
  return {
    ...report(result, pointer, written, performance.now() - started),
    mode: reuse ? 'incremental' : 'full',
    full_reason: previous.fullReason,
    changes: result.changes,
    tombstones: result.tombstones.length,
    bundle_reused: kept !== null,
  };
}

/** SPECS_NOT_FOUND unless `root` is a folder: a typo must not read as "every document deleted". */
async function requireSpecsDir(root: string): Promise<void> {
  const info = await stat(root).catch((error: NodeJS.ErrnoException) => error);
  if (info instanceof Error) throw createError('SPECS_NOT_FOUND', { path: root, detail: info.code ?? info.message });
  if (!info.isDirectory()) throw createError('SPECS_NOT_FOUND', { path: root, detail: 'a file, not a folder' });
}

/**
 * The mass-delete guard (docs/integrity.md, docs/decisions/integrity-guards.md): a build may not
 * delete every document of a non-empty index, nor more than {@link MASS_DELETE_SHARE} of one holding
 * at least {@link MASS_DELETE_MIN}. An empty or wrong specs folder (a typo, another project's tree)
 * would otherwise commit and sync an index of tombstones. `--allow-mass-delete` lifts it.
 */
export const MASS_DELETE_SHARE = 0.5;
export const MASS_DELETE_MIN = 10;

function refuseMassDelete(previous: IndexContent | null, result: IncrementalCompileResult): void {
  const total = previous?.records.length ?? 0;
  const deleted = result.changes.tombstoned.length;
  if (total === 0 || deleted === 0) return;
  const all = deleted >= total;
  const most = total >= MASS_DELETE_MIN && deleted > total * MASS_DELETE_SHARE;
  if (!all && !most) return;
  const rule = all ? 'every indexed document would go' : `more than ${MASS_DELETE_SHARE * 100}% of an index of ${MASS_DELETE_MIN} or more`;
  throw createError('MASS_DELETE_REFUSED', { deleted, total, rule });
}

/**
 * What the bundle is a function of, hashed: the manifest (every source hash, level, model,
 * enrichments), each node's source file and git time (a duplicate id's winner, `indexed_at`) and
 * the code that packs. `kdd.json` records it; a pointer with another digest is stale.
 */
function indexDigest(result: IncrementalCompileResult): string {
  const hash = createHash('sha256').update(codeFingerprint()).update('\0').update(stableJson(result.manifest));
  for (const node of result.graph.nodes) hash.update(`\0${node.id}\0${node.source_file}\0${node.indexed_at ?? ''}`);
  return hash.digest('hex');
}

/**
 * Stamps of the edge files and of every node file the index holds after this build (winners only),
 * for the record cache. A node file this build neither wrote nor found changed keeps the stamp it
 * was checked against: only the files just written are stat-ed again.
 */
function artifactStamps(dir: string, result: IncrementalCompileResult, written: IndexDirWrite, checked: ReadonlyMap<string, ArtifactStamp>): Map<string, ArtifactStamp> {
  const winners = new Map(result.graph.nodes.map((node) => [node.id, node]));
  const paths = result.records.filter((record) => winners.get(record.node.id) === record.node).map(nodeFilePath);
  const rewritten = new Set(written.written);
  const stale = paths.filter((path) => rewritten.has(path) || !checked.has(path));
  const stamps = stampFiles(dir, [...EDGE_FILES, ...stale]);
  for (const path of paths) if (!stamps.has(path) && checked.has(path)) stamps.set(path, checked.get(path)!);
  return stamps;
}

/** Temp files a killed build left anywhere in `dir` (never artifacts: they would be committed). */
async function removeTempFiles(dir: string): Promise<void> {
  const paths = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
  await forEachLimited(paths.filter(isTempFile), (path) => rm(join(dir, path), { force: true }));
}

/** The manifest and events after the L2 step: level, model, embedding counts, any degradation warning. */
function withSemantic(result: IncrementalCompileResult, semantic: SemanticResult): IncrementalCompileResult {
  if (semantic.manifest === result.manifest && semantic.warnings.length === 0) return result;
  const events = result.events.map((event) =>
    event.event === 'EVT-KDDDocument-Indexed'
      ? { ...event, payload: { ...event.payload, index_level: semantic.manifest.index_level, embedding_count: semantic.counts.get(event.payload.node_id) ?? 0 } }
      : event,
  );
  return { ...result, manifest: semantic.manifest, events, warnings: sortWarnings([...result.warnings, ...semantic.warnings]) };
}

async function loadPrevious(indexDir: string, mode: BuildMode, cacheFile: string | false): Promise<Previous> {
  const none = { stamps: null, artifacts: null, graph: null, distrusted: new Set<string>(), nodeStamps: new Map<string, ArtifactStamp>() };
  const text = await readFile(join(indexDir, 'manifest.json'), 'utf8').catch(() => null);
  if (text === null) return { ...none, content: null, fullReason: 'no previous index', warnings: [] };
  const warnings: BuildWarning[] = [];
  const corrupt = (file: string, detail: string) => warnings.push(warning('INDEX_FILE_CORRUPT', { file: `${basename(indexDir)}/${file}`, detail }));
  let manifest: IndexManifest;
  try {
    manifest = parseManifest(text, 'manifest.json');
  } catch (error) {
    if (!isKddError(error)) throw error;
    corrupt('manifest.json', String(error.params.detail));
    // The node files and tombstones are still read: deletions keep their tombstones.
    const content = await readIndexLeniently(indexDir, corrupt);
    return { ...none, content, fullReason: 'previous manifest.json unreadable', warnings };
  }
  if (manifest.version !== INDEX_FORMAT_VERSION) {
    return { ...none, content: null, fullReason: `index format ${manifest.version} differs from ${INDEX_FORMAT_VERSION}`, warnings };
  }
  const fullReason = mode === 'full' ? 'full build requested' : null;
  // Even a forced full build reads the previous index: deletions still need tombstones and events.
  const cached = cacheFile ? await readRecordCache(cacheFile, text) : null;
  const tombstones = await readTombstones(indexDir, corrupt);
  if (cached) {
    const { distrusted, nodeStamps } = checkNodeFiles(indexDir, cached.records, cached.artifacts);
    return { content: { manifest, records: cached.records, tombstones }, fullReason, stamps: cached.stamps, artifacts: cached.artifacts, graph: cached.graph, distrusted, nodeStamps, warnings };
  }
  const { records } = await readIndexDir(indexDir, corrupt);
  return { ...none, content: { manifest, records, tombstones }, fullReason, warnings };
}

/** Records and tombstones of an index whose manifest is lost, under a manifest rebuilt from the records. */
async function readIndexLeniently(indexDir: string, corrupt: OnCorrupt): Promise<IndexContent> {
  const records = await readNodeFiles(indexDir, corrupt);
  // Only what a full build reads of a previous manifest: the sources (Stale events) and the level (Deleted events).
  const sources = Object.fromEntries(records.map((record) => [record.node.source_file, record.node.source_hash]));
  const manifest = { version: INDEX_FORMAT_VERSION, index_level: 'L1', sources } as IndexManifest;
  return { manifest, records, tombstones: await readTombstones(indexDir, corrupt) };
}

/**
 * Node files of `records` whose size or times moved since the build that wrote the record cache
 * stamped them (or that are gone): someone edited, deleted or checked out an older one. The cached
 * record is the truth (it was made from the specs); the file is written again from it.
 */
function checkNodeFiles(indexDir: string, records: readonly DocumentRecord[], known: ReadonlyMap<string, ArtifactStamp>): { distrusted: Set<string>; nodeStamps: Map<string, ArtifactStamp> } {
  const paths = records.map(nodeFilePath);
  const nodeStamps = stampFiles(indexDir, paths);
  const distrusted = new Set<string>();
  for (const path of paths) {
    if (!sameStamp(known.get(path), nodeStamps.get(path))) {
      distrusted.add(path);
      nodeStamps.delete(path);
    }
  }
  return { distrusted, nodeStamps };
}

function sameStamp(a: ArtifactStamp | undefined, b: ArtifactStamp | undefined): boolean {
  return a !== undefined && b !== undefined && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
}

/** The record cache for the index just written: its node files' records, the specs' and the edge files' stamps. */
/** `manifestText`: the manifest as on disk, which the cache is checked against (git facts alone do not rewrite it). */
async function writeCache(file: string, result: IncrementalCompileResult, artifacts: ReadonlyMap<string, ArtifactStamp>, manifestText: string): Promise<void> {
  const winners = new Map(result.graph.nodes.map((node) => [node.id, node]));
  const records = result.records.filter((record) => winners.get(record.node.id) === record.node);
  // A cache is an optimisation: failing to write one must not fail the build.
  // A graph with agent edges is not a function of the records alone: only a plain one is kept.
  const graph = result.manifest.enrichments ? null : result.graph;
  await writeRecordCache(file, manifestText, records, result.stamps, artifacts, graph).catch(() => undefined);
}

/** The whole-tree files a link pass writes. */
const EDGE_FILES = ['edges/edges.jsonl', 'edges/dangling.jsonl'];

/** Size and times of each of `paths` under `dir` that exists (synchronous: 10k stats in tens of ms). */
function stampFiles(dir: string, paths: readonly string[]): Map<string, ArtifactStamp> {
  const stamps = new Map<string, ArtifactStamp>();
  for (const path of paths) {
    const info = statSync(join(dir, path), { throwIfNoEntry: false });
    if (info) stamps.set(path, { size: info.size, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs });
  }
  return stamps;
}

/** Whether every file of `paths` is still as the previous build stamped it. */
function unchangedFiles(dir: string, paths: readonly string[], known: ReadonlyMap<string, ArtifactStamp> | null): boolean {
  if (!known) return false;
  const now = stampFiles(dir, paths);
  return paths.every((path) => sameStamp(known.get(path), now.get(path)));
}

function sameStamps(a: ReadonlyMap<string, SourceStamp> | null, b: ReadonlyMap<string, SourceStamp>): boolean {
  if (!a || a.size !== b.size) return false;
  for (const [path, x] of b) {
    const y = a.get(path);
    if (!y || y.size !== x.size || y.mtimeMs !== x.mtimeMs || y.ctimeMs !== x.ctimeMs || y.hash !== x.hash) return false;
  }
  return true;
}

/**
 * The compile stage of an incremental build, in memory. `reuse` false re-extracts everything but
 * still diffs against `previous` (Stale/Deleted events, tombstones).
 */
export async function compileIncremental(
  options: BuildOptions,
  previous: IndexContent | null,
  reuse: boolean,
  indexDir?: string,
  cache: PreviousCache = {},
): Promise<IncrementalCompileResult> {
  const root = resolve(options.specsDir);
  const maxBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const prior = new Map((previous?.records ?? []).map((record) => [record.node.source_file, record]));
  const trusted = reuse && options.changedFiles ? trustedSources(prior, options.changedFiles) : undefined;
  const [scan, git] = await Promise.all([scanSpecs(root, maxBytes, reuse ? cache.stamps : undefined, trusted), readGitFacts(root)]);
  const deletedAt = git.headTime;
  const read = await withTexts(root, maxBytes, scan, (file) => reuse && prior.get(file.path)?.node.source_hash === file.hash);
  const warnings: BuildWarning[] = [...read.warnings];
  const skipped: SkippedFile[] = read.warnings.map((w) => ({ file: w.file, reason: w.code }));
  const records: DocumentRecord[] = [];
  const extracted: DocumentRecord[] = [];
  const touched = new Set<DocumentRecord>();
  const events: DomainEvent[] = [];
  const durations = new Map<DocumentRecord, number>();
  const reindexed: string[] = [];
  read.files.forEach((file, index) => {
    const indexedAt = git.commitTimes.get(file.path) ?? null;
    const old = reuse ? prior.get(file.path) : undefined;
    if (old && old.node.source_hash === file.hash) {
      // Same bytes, same path ⇒ same record (extraction is pure); only the git time can move. The
      // bundle takes the new time; the node file keeps the one it was written with, so a commit
      // of that file (through the pre-commit hook, or a fresh clone) leaves .kdd-index/ as it is.
      const record = old.node.indexed_at === indexedAt ? old : { node: { ...old.node, indexed_at: indexedAt }, links: old.links };
      records.push(record);
    } else {
      const started = performance.now();
      faultPoint('extract');
      // withTexts read every file that reaches this branch.
      const outcome = extractDocument({ path: file.path, text: file.text ?? '', hash: file.hash }, { indexedAt });
      warnings.push(...outcome.warnings);
      if (outcome.status === 'skipped') skipped.push({ file: file.path, reason: outcome.reason });
      else {
        const { node } = outcome.record;
        records.push(outcome.record);
        extracted.push(outcome.record);
        touched.add(outcome.record);
        reindexed.push(file.path);
        durations.set(outcome.record, performance.now() - started);
        events.push(
          { event: 'EVT-KDDDocument-Detected', payload: { source_path: file.path, source_hash: file.hash, kind: node.kind, layer: node.layer, detected_at: now() } },
          { event: 'EVT-KDDDocument-Parsed', payload: { document_id: node.doc_id, source_path: file.path, kind: node.kind, ...outcome.facts, parsed_at: now() } },
        );
      }
    }
    options.onProgress?.(index + 1, read.files.length);
  });
  // L3 (#9): agent edges and summaries from `.kdd-index/enrichments/`, current ones only.
  const enrichments = indexDir ? await readEnrichments(indexDir) : undefined;
  faultPoint('link');
  const { enriched, sameLinks, relinked } = graphOf(records, reuse ? previous : null, prior, enrichments, cache.graph ?? null, git.firstCommitTimes);
  const graph = enriched.graph;
  warnings.push(...graph.warnings, ...enriched.warnings);
  const manifest = enrichManifest(makeManifest(graph, records, git, options.indexedBy ?? null), enriched.applied);
  const sameGraph = sameLinks && stableJson(manifest.enrichments ?? null) === stableJson(previous!.manifest.enrichments ?? null);
  const diff = diffSources(previous, read.files, prior);
  const tombstoned = tombstones(previous, graph, deletedAt);
  const docIds = new Map((previous?.records ?? []).map((record) => [record.node.id, record.node.doc_id]));
  events.unshift(...diff.events, ...(await deletedEvents(tombstoned.added, docIds, indexDir, previous)));
  events.push(...indexedEvents(graph, extracted, durations, manifest));
  return {
    manifest,
    records,
    graph,
    warnings: sortWarnings(warnings),
    skipped: skipped.sort((a, b) => compareCodeUnits(a.file, b.file)),
    events,
    files: read.files.length + read.warnings.length,
    changes: { ...diff.changes, reindexed, tombstoned: tombstoned.added.map((t) => t.node_id), revived: tombstoned.revived },
    tombstones: tombstoned.all,
    touched,
    stamps: new Map(read.files.flatMap((file) => (file.stamp ? [[file.path, file.stamp] as const] : []))),
    sameGraph,
    relinked,
  };
}

/**
 * The graph of `records`, from the cheapest source that gives the same graph. Linking reads nothing
 * but the records' link input, so when every node is as in `previous` (ids, titles, aliases, kinds,
 * layers, files: links resolve as before), the cached graph is reused as it is (no links changed)
 * or with the records whose links changed linked again. Anything else, or enrichments in play:
 * the whole link pass.
 */
function graphOf(
  records: readonly DocumentRecord[],
  previous: IndexContent | null,
  prior: ReadonlyMap<string, DocumentRecord>,
  enrichments: EnrichmentSet | undefined,
  cached: CachedGraph | null,
  firstCommitTimes: ReadonlyMap<string, string>,
): { enriched: AppliedEnrichments; sameLinks: boolean; relinked: IncrementalCompileResult['relinked'] } {
  const sameNodes =
    previous !== null &&
    records.length === previous.records.length &&
    records.every((record) => {
      const old = prior.get(record.node.source_file);
      return old !== undefined && sameNodeEntry(record, old);
    });
  const changed = sameNodes ? records.filter((record) => !sameLinkInputs(record, prior.get(record.node.source_file)!)) : null;
  const sameLinks = changed !== null && changed.length === 0;
  const unenriched = !previous?.manifest.enrichments && (!enrichments || (enrichments.enrichments.length === 0 && enrichments.warnings.length === 0));
  const before = changed && unenriched && cached ? restoreOrNull(records, cached) : null;
  if (!before) return { enriched: applyEnrichments(linkRecords(records, firstCommitTimes), enrichments), sameLinks, relinked: null };
  if (sameLinks) return { enriched: { graph: before, warnings: [], applied: [] }, sameLinks, relinked: null };
  const ids = new Set(changed!.map((record) => record.node.id));
  return { enriched: { graph: relinkRecords(records, before, ids), warnings: [], applied: [] }, sameLinks, relinked: { previous: before.edges, changed: ids } };
}

/** The cached graph over `records`, or null when the cache turns out unreadable (the graph is then linked anew). */
function restoreOrNull(records: readonly DocumentRecord[], cached: CachedGraph): Graph | null {
  try {
    return restoreGraph(records, cached);
  } catch {
    return null;
  }
}

/**
 * Reads the bytes of scanned files whose stamp matched (text null) but that need extracting after
 * all (`reusable` false: no previous record with that hash, e.g. a duplicate id's losing file).
 */
async function withTexts(root: string, maxBytes: number, scan: ScanResult, reusable: (file: ScannedFile) => boolean): Promise<ScanResult> {
  const missing = scan.files.filter((file) => file.text === null && !reusable(file));
  if (missing.length === 0) return scan;
  const loaded = new Map<string, ScannedFile | BuildWarning>();
  await forEachLimited(missing, async (file) => {
    const source = await readSource(root, file.path, maxBytes);
    loaded.set(file.path, 'hash' in source ? { ...source, stamp: source.hash === file.hash ? file.stamp : null } : source);
  });
  const files: ScannedFile[] = [];
  const warnings = [...scan.warnings];
  for (const file of scan.files) {
    const replaced = loaded.get(file.path) ?? file;
    if ('hash' in replaced) files.push(replaced);
    else warnings.push(replaced);
  }
  return { files, warnings };
}

function diffSources(previous: IndexContent | null, files: readonly { path: string; hash: string }[], prior: ReadonlyMap<string, DocumentRecord>) {
  const before = previous?.manifest.sources ?? {};
  const current = new Map(files.map((file) => [file.path, file.hash]));
  const changes = { added: [] as string[], modified: [] as string[], deleted: [] as string[] };
  const events: DomainEvent[] = [];
  for (const [path, hash] of current) {
    const previousHash = before[path];
    if (previousHash === undefined) changes.added.push(path);
    else if (previousHash !== hash) {
      changes.modified.push(path);
      const documentId = prior.get(path)?.node.doc_id ?? path;
      events.push({ event: 'EVT-KDDDocument-Stale', payload: { document_id: documentId, source_path: path, previous_hash: previousHash, current_hash: hash, detected_at: now() } });
    }
  }
  for (const path of Object.keys(before).sort(compareCodeUnits)) if (!current.has(path)) changes.deleted.push(path);
  return { changes, events };
}

/** Every node of the previous index that is gone gets a tombstone; a reappearing id lifts it. */
function tombstones(previous: IndexContent | null, graph: Graph, deletedAt: string | null) {
  const present = new Set(graph.nodes.map((node) => node.id));
  const byId = new Map<string, Tombstone>();
  const revived: string[] = [];
  for (const tombstone of previous?.tombstones ?? []) {
    if (present.has(tombstone.node_id)) revived.push(tombstone.node_id);
    else byId.set(tombstone.node_id, tombstone);
  }
  const added: Tombstone[] = [];
  for (const { node } of previous?.records ?? []) {
    if (present.has(node.id)) continue;
    const tombstone: Tombstone = { node_id: node.id, source_file: node.source_file, source_hash: node.source_hash, deleted_at: deletedAt };
    byId.set(node.id, tombstone);
    added.push(tombstone);
  }
  return { all: sortTombstones([...byId.values()]), added: sortTombstones(added), revived: revived.sort(compareCodeUnits) };
}

/** EVT-KDDDocument-Deleted, with the edge count the previous `edges.jsonl` held for each node. */
async function deletedEvents(deleted: readonly Tombstone[], docIds: ReadonlyMap<string, string>, indexDir: string | undefined, previous: IndexContent | null): Promise<DomainEvent[]> {
  if (deleted.length === 0) return [];
  // The vectors a deleted node had: its embeddable chunks, when the previous index was L2.
  const gone = new Set(deleted.map((tombstone) => tombstone.node_id));
  const embeddings = new Map(
    previous && previous.manifest.index_level !== 'L1'
      ? previous.records.filter((record) => gone.has(record.node.id)).map((record) => [record.node.id, chunkNode(record.node).length] as const)
      : [],
  );
  const counts = new Map(deleted.map((tombstone) => [tombstone.node_id, 0]));
  const text = indexDir ? await readFile(join(indexDir, 'edges', 'edges.jsonl'), 'utf8').catch(() => '') : '';
  for (const line of text.split('\n')) {
    if (!line) continue;
    const edge = JSON.parse(line) as { from_node: string; to_node: string };
    for (const id of new Set([edge.from_node, edge.to_node])) if (counts.has(id)) counts.set(id, counts.get(id)! + 1);
  }
  return deleted.map((tombstone) => ({
    event: 'EVT-KDDDocument-Deleted' as const,
    payload: {
      document_id: docIds.get(tombstone.node_id) ?? tombstone.node_id,
      source_path: tombstone.source_file,
      node_id: tombstone.node_id,
      edge_count: counts.get(tombstone.node_id) ?? 0,
      embedding_count: embeddings.get(tombstone.node_id) ?? 0,
      deleted_at: now(),
    },
  }));
}

/**
 * Writes what differs from the previous `.kdd-index/`: node files of touched or new winners, removal
 * of node files whose node is gone, and the three whole-tree files when their text changed. Equal to
 * what `writeIndexDir` would leave, without reading back 10k unchanged node files.
 */
async function writeTouched(dir: string, result: IncrementalCompileResult, previous: IndexContent, artifacts: ReadonlyMap<string, ArtifactStamp> | null, distrusted: ReadonlySet<string>): Promise<IndexDirWrite> {
  const winners = new Map(result.graph.nodes.map((node) => [node.id, node]));
  const current = new Map<string, DocumentRecord>();
  for (const record of result.records) if (winners.get(record.node.id) === record.node) current.set(nodeFilePath(record), record);
  const before = new Map(previous.records.map((record) => [nodeFilePath(record), record]));
  const files = new Map<string, string | Uint8Array>();
  // The same graph as last time, and edge files as the last build left them: nothing to write
  // there, and no 30 MB of JSON to produce (10k tree) only to find that out. A graph with some
  // nodes linked again: their lines are patched into the file the last build left.
  const trusted = (result.sameGraph || result.relinked !== null) && unchangedFiles(dir, EDGE_FILES, artifacts);
  if (!(result.sameGraph && trusted)) {
    const { relinked } = result;
    const old = relinked && trusted ? await readFile(join(dir, 'edges', 'edges.jsonl')).catch(() => null) : null;
    const patched = old && relinked ? patchEdgesJsonl(old, relinked.previous, result.graph.edges, relinked.changed) : null;
    files.set('edges/edges.jsonl', patched ?? edgesJsonl(result.graph.edges));
    files.set('edges/dangling.jsonl', result.graph.dangling.map((link) => `${JSON.stringify(canonical(link))}\n`).join(''));
  }
  // A record other than the file's previous one (re-extracted, new, or a duplicate id's new winner),
  // or a file that is not as the last build left it.
  for (const [path, record] of current) {
    // A version kept with only its git time moved is not rewritten (docs/decisions/index-times.md).
    const old = before.get(path);
    const sameVersion = old !== undefined && old.node.source_file === record.node.source_file && old.node.source_hash === record.node.source_hash && !result.touched.has(record);
    if (!sameVersion || distrusted.has(path)) files.set(path, nodeFileText(record));
  }
  const written = await writeManyIfChanged(dir, [...files.entries()].sort(([a], [b]) => compareCodeUnits(a, b)));
  const removed = [...before.keys()].filter((path) => !current.has(path)).sort(compareCodeUnits);
  await forEachLimited(removed, (path) => {
    faultPoint('remove');
    return rm(join(dir, path), { force: true });
  });
  // The manifest follows the content: git facts alone (newest commit time, commit) do not rewrite it.
  if (written.length > 0 || removed.length > 0 || stableJson(withoutGitFacts(result.manifest)) !== stableJson(withoutGitFacts(previous.manifest))) {
    written.push(...(await writeManyIfChanged(dir, [['manifest.json', stableJson(result.manifest)]])));
  }
  return { written: written.sort(compareCodeUnits), removed };
}

const withoutGitFacts = (manifest: IndexManifest): IndexManifest => ({ ...manifest, indexed_at: null, git_commit: null });

/**
 * The existing pointer, if it was written for this exact index (`index_digest`) and names a bundle
 * of this format whose bytes are on disk whole: their hash is the one in its name, or the file
 * still has the size and times it had when this index's last build wrote or checked it (`checked`,
 * a local cache: hashing a 60 MB bundle on every unchanged build would cost a fifth of it).
 */
async function currentPointer(outDir: string, digest: string, checked: string): Promise<BundlePointer | null> {
  const pointer = await readPointer(outDir);
  if (!pointer || pointer.format !== BUNDLE_FORMAT_VERSION || pointer.index_digest !== digest) return null;
  const path = join(outDir, pointer.bundle);
  const known = (await readBundleStamps(checked))[bundleKey(checked, outDir)];
  const now = statSync(path, { throwIfNoEntry: false });
  if (known?.bundle === pointer.bundle && now && now.size === pointer.bytes && sameStamp(known, now)) return pointer;
  const bytes = await readFile(path).catch(() => null);
  if (!bytes || bytes.byteLength !== pointer.bytes || bundleHash(bytes) !== pointer.hash) return null;
  await rememberBundle(checked, outDir, pointer);
  return pointer;
}

/** Out folder → the stamp of its bundle. */
type BundleStamps = Record<string, ArtifactStamp & { bundle: string }>;

/** Out folders are named relative to the cache file: no machine path lands in the index folder. */
const bundleKey = (file: string, outDir: string) => relative(dirname(file), outDir).split(sep).join('/');

async function readBundleStamps(file: string): Promise<BundleStamps> {
  const stamps = await readFile(file, 'utf8').then((text) => JSON.parse(text) as unknown, () => null);
  return stamps && typeof stamps === 'object' ? (stamps as BundleStamps) : {};
}

/** Records the stamp of the bundle `pointer` names in `outDir`, as written or checked just now. */
async function rememberBundle(file: string, outDir: string, pointer: BundlePointer): Promise<void> {
  const info = statSync(join(outDir, pointer.bundle), { throwIfNoEntry: false });
  if (!info) return;
  const stamps = await readBundleStamps(file);
  stamps[bundleKey(file, outDir)] = { bundle: pointer.bundle, size: info.size, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs };
  // An optimisation like the other caches: failing to write it must not fail the build.
  await writeAtomic(file, `${JSON.stringify(stamps)}\n`).catch(() => undefined);
}
