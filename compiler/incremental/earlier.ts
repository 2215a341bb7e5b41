/**
 * What an earlier build left, read once at the start of `kdd build` and handed to the stages
 * (compiler/pipeline.ts): a summary of the previous index (for diffs, tombstones and events, even
 * on `--full`) and, when this build may reuse them, its records and, when the record cache is fresh,
 * the spec stamps, the linked graph and the stamps of the artifacts it wrote. Nothing here decides a
 * byte of the output: a missing or corrupt piece only means more work (docs/integrity.md).
 *
 * A full build keeps only the summary: the records (lazy views into the record cache's bytes, or
 * every node file parsed with its body) are garbage before extract, instead of being held through
 * the build (docs/decisions/build-speed.md, "a full rebuild over an existing index").
 */
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { IndexManifest } from '../../model/graph.js';
import type { Tombstone } from '../../formats/index-dir/tombstones.js';
import type { DocumentRecord } from '../../model/records.js';
import { isKddError } from '../../model/errors.js';
import { readRecordCache, releaseDecodedBytes, type ArtifactStamp, type CachedGraph } from '../cache/record-cache.js';
import { checkStamps, folderPrefix, NOTHING_CHECKED, stillStamped, type StampCheck } from '../cache/stamps.js';
import { warning, type BuildWarning } from '../diagnostics.js';
import { chunkNode } from '../embed/chunk.js';
import { INDEX_FORMAT_VERSION, MANIFEST_FILE, parseManifest, readableIndexFormat } from '../../formats/index-dir/manifest.js';
import { nodeFilePath } from '../../formats/index-dir/node-file.js';
import { readIndexDir, readNodeFiles, type OnCorrupt } from '../emit/read-index-dir.js';
import { readTombstones, type IndexContent } from '../emit/tombstones.js';
import type { BuildMode } from '../options.js';
import type { SourceStamp } from '../read.js';

export interface Earlier {
  /** `.kdd-index/` of this build (enrichments, vector cache, the previous edge file), or null: `compile()` in memory. */
  indexDir: string | null;
  /** Why every file is extracted again (`--full`, no index, another format), or null: unchanged records are reused. */
  fullReason: string | null;
  /** What every build reads of the previous index: diffs, tombstones, Stale/Deleted events, the mass-delete guard. Read even on `--full`. */
  previous: PreviousIndex | null;
  /** The previous index with its records, when this build may reuse them; null in a full build. */
  content: IndexContent | null;
  /** Previous records by source path (empty in a full build). */
  byPath: ReadonlyMap<string, DocumentRecord>;
  /**
   * True when the previous records were read from the committed node files, not from the local
   * record cache (a fresh clone, a pull, a deleted cache): anyone may have edited them, so a record
   * is reused only after its spec, extracted again, says the same (compiler/incremental/reuse.ts).
   */
  unverified: boolean;
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
  /** The specs the record cache stamped, checked against their stamps while its entries were read, or null. */
  specStats: StampCheck | null;
  /** INDEX_FILE_CORRUPT for each previous artifact that could not be used. */
  warnings: BuildWarning[];
}

/** What a build reads of one node of the previous index, whatever its mode. */
export interface PreviousNode {
  readonly id: string;
  readonly doc_id: string;
  readonly source_file: string;
  readonly source_hash: string;
  /** Its embeddable chunks (the vectors it had) when the previous index was L2 or more; 0 at L1. */
  readonly chunks: number;
}

/** The previous index as tombstones, events and the mass-delete guard read it. */
export interface PreviousIndex {
  manifest: IndexManifest;
  /** In the previous index's record order. */
  nodes: readonly PreviousNode[];
  tombstones: Tombstone[];
}

/** Nothing before: what `compile()` builds from. */
export const FROM_SCRATCH: Earlier = earlier(null, { content: null, fullReason: 'no previous index', warnings: [] });

type Found = Pick<Earlier, 'content' | 'fullReason' | 'warnings'> & Partial<Pick<Earlier, 'stamps' | 'artifacts' | 'graph' | 'distrusted' | 'nodeStamps' | 'unverified' | 'specStats'>>;

function earlier(indexDir: string | null, found: Found): Earlier {
  const base = { indexDir, stamps: null, artifacts: null, graph: null, distrusted: new Set<string>(), nodeStamps: new Map<string, ArtifactStamp>(), unverified: false, specStats: null };
  if (found.fullReason === null) {
    const content = found.content;
    return { ...base, ...found, previous: content && summarize(content, true), byPath: new Map((content?.records ?? []).map((record) => [record.node.source_file, record])) };
  }
  // A full build reuses nothing: of the previous records only their summary is kept, and the
  // record cache's graph, stamps and bytes are let go of with them. Its node file stamps stay
  // (compiler/cache/stamps.ts `artifactStamps` keeps them for files this build leaves as they are).
  const previous = found.content && summarize(found.content, false);
  return { ...base, fullReason: found.fullReason, warnings: found.warnings, nodeStamps: found.nodeStamps ?? base.nodeStamps, content: null, previous, byPath: new Map() };
}

/**
 * `lazyChunks`: the records are kept anyway (an incremental build), so a node's chunks are counted
 * only if a Deleted event asks; otherwise they are counted now, while the records are at hand.
 */
function summarize({ manifest, records, tombstones }: IndexContent, lazyChunks: boolean): PreviousIndex {
  const embedded = manifest.index_level !== 'L1';
  const nodes = records.map(({ node }): PreviousNode => {
    // Literals, not a spread of a shared part: a spread gave each of 10,800 summaries, kept through the build, a hidden class of its own.
    if (!embedded || !lazyChunks) return { id: node.id, doc_id: node.doc_id, source_file: node.source_file, source_hash: node.source_hash, chunks: embedded ? chunkNode(node).length : 0 };
    return {
      id: node.id,
      doc_id: node.doc_id,
      source_file: node.source_file,
      source_hash: node.source_hash,
      get chunks() {
        return chunkNode(node).length;
      },
    };
  });
  return { manifest, nodes, tombstones };
}

/**
 * What the last build left in `indexDir` (and its record cache `cacheFile`, unless false).
 * `specsDir`: where the specs are, so an incremental build can stat them while the cache's entries are read.
 */
export async function previousBuild(indexDir: string, mode: BuildMode, cacheFile: string | false, specsDir?: string): Promise<Earlier> {
  const found = earlier(indexDir, await loadPrevious(indexDir, mode, cacheFile, specsDir));
  // Past this point the record cache's bytes are held only through what this build keeps (none of
  // them in a full build, or after the cache was refused), not by the decoder.
  releaseDecodedBytes();
  return found;
}

async function loadPrevious(indexDir: string, mode: BuildMode, cacheFile: string | false, specsDir: string | undefined): Promise<Found> {
  const text = await readFile(join(indexDir, MANIFEST_FILE), 'utf8').catch(() => null);
  if (text === null) return { content: null, fullReason: 'no previous index', warnings: [] };
  const warnings: BuildWarning[] = [];
  const corrupt = (file: string, detail: string) => warnings.push(warning('INDEX_FILE_CORRUPT', { file: `${basename(indexDir)}/${file}`, detail }));
  let manifest: IndexManifest;
  try {
    manifest = parseManifest(text, MANIFEST_FILE);
  } catch (error) {
    if (!isKddError(error)) throw error;
    corrupt(MANIFEST_FILE, String(error.params.detail));
    // The node files and tombstones are still read: deletions keep their tombstones.
    const content = await readIndexLeniently(indexDir, corrupt);
    return { content, fullReason: 'previous manifest.json unreadable', warnings };
  }
  if (manifest.version !== INDEX_FORMAT_VERSION) {
    // Another format: every file is extracted and written again. One this code reads (an older
    // kdd's) is still read, so deletions since then keep their tombstones and events.
    warnings.push(warning('INDEX_FORMAT_CHANGED', { file: `${basename(indexDir)}/${MANIFEST_FILE}`, found: manifest.version, current: INDEX_FORMAT_VERSION }));
    const fullReason = `index format ${manifest.version} differs from ${INDEX_FORMAT_VERSION}`;
    if (!readableIndexFormat(manifest.version)) return { content: null, fullReason, warnings };
    const { records } = await readIndexDir(indexDir, corrupt);
    return { content: { manifest, records, tombstones: await readTombstones(indexDir, corrupt) }, fullReason, warnings };
  }
  const fullReason = mode === 'full' ? 'full build requested' : null;
  // Even a forced full build reads the previous index: deletions still need tombstones and events.
  // The node files and specs the cache stamped are stat-ed while the thread pool reads its entries
  // (50 MB at 10,800 documents), instead of after: same stats, same checks (a full build needs neither).
  let nodeStats: StampCheck = NOTHING_CHECKED;
  let specStats: StampCheck | null = null;
  const takeStats = (stamps: ReadonlyMap<string, SourceStamp>, artifacts: ReadonlyMap<string, ArtifactStamp>) => {
    if (fullReason !== null) return;
    nodeStats = checkStamps(indexDir, artifacts);
    if (specsDir) specStats = checkStamps(specsDir, stamps);
  };
  const cached = cacheFile ? await readRecordCache(cacheFile, text, takeStats) : null;
  const tombstones = await readTombstones(indexDir, corrupt);
  if (cached) {
    const { distrusted, nodeStamps } = checkNodeFiles(indexDir, cached.records, cached.artifacts, nodeStats);
    return { content: { manifest, records: cached.records, tombstones }, fullReason, stamps: cached.stamps, artifacts: cached.artifacts, graph: cached.graph, distrusted, nodeStamps, warnings, specStats };
  }
  const { records } = await readIndexDir(indexDir, corrupt);
  return { content: { manifest, records, tombstones }, fullReason, warnings, unverified: true };
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
function checkNodeFiles(indexDir: string, records: readonly DocumentRecord[], known: ReadonlyMap<string, ArtifactStamp>, checked: StampCheck): { distrusted: Set<string>; nodeStamps: Map<string, ArtifactStamp> } {
  const base = folderPrefix(indexDir);
  const nodeStamps = new Map<string, ArtifactStamp>();
  const distrusted = new Set<string>();
  for (const record of records) {
    const path = nodeFilePath(record);
    const stamp = known.get(path);
    // The cache's own stamp object when the file matches it (equal values): no second copy of 10,800 stamps kept through the build.
    if (stillStamped(base, path, stamp, checked)) nodeStamps.set(path, stamp!);
    else distrusted.add(path);
  }
  return { distrusted, nodeStamps };
}
