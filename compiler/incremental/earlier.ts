/**
 * What an earlier build left, read once at the start of `kdd build` and handed to the stages
 * (compiler/pipeline.ts): the previous index (for diffs, tombstones and events, even on `--full`)
 * and, when the record cache is fresh, the spec stamps, the records, the linked graph and the
 * stamps of the artifacts it wrote. Nothing here decides a byte of the output: a missing or corrupt
 * piece only means more work (docs/integrity.md).
 */
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { IndexManifest } from '../../model/graph.js';
import type { DocumentRecord } from '../../model/records.js';
import { isKddError } from '../../model/errors.js';
import { readRecordCache, type ArtifactStamp, type CachedGraph } from '../cache/record-cache.js';
import { sameStamp, stampFiles } from '../cache/stamps.js';
import { warning, type BuildWarning } from '../diagnostics.js';
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
  /** The previous index: diffs, tombstones, Stale/Deleted events. Read even on `--full`. */
  content: IndexContent | null;
  /** Previous records by source path. */
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
  /** INDEX_FILE_CORRUPT for each previous artifact that could not be used. */
  warnings: BuildWarning[];
}

/** Nothing before: what `compile()` builds from. */
export const FROM_SCRATCH: Earlier = earlier(null, { content: null, fullReason: 'no previous index', warnings: [] });

type Found = Pick<Earlier, 'content' | 'fullReason' | 'warnings'> & Partial<Pick<Earlier, 'stamps' | 'artifacts' | 'graph' | 'distrusted' | 'nodeStamps' | 'unverified'>>;

function earlier(indexDir: string | null, found: Found): Earlier {
  return {
    indexDir,
    stamps: null,
    artifacts: null,
    graph: null,
    distrusted: new Set(),
    nodeStamps: new Map(),
    unverified: false,
    ...found,
    byPath: new Map((found.content?.records ?? []).map((record) => [record.node.source_file, record])),
  };
}

/** What the last build left in `indexDir` (and its record cache `cacheFile`, unless false). */
export async function previousBuild(indexDir: string, mode: BuildMode, cacheFile: string | false): Promise<Earlier> {
  return earlier(indexDir, await loadPrevious(indexDir, mode, cacheFile));
}

async function loadPrevious(indexDir: string, mode: BuildMode, cacheFile: string | false): Promise<Found> {
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
  const cached = cacheFile ? await readRecordCache(cacheFile, text) : null;
  const tombstones = await readTombstones(indexDir, corrupt);
  if (cached) {
    const { distrusted, nodeStamps } = checkNodeFiles(indexDir, cached.records, cached.artifacts);
    return { content: { manifest, records: cached.records, tombstones }, fullReason, stamps: cached.stamps, artifacts: cached.artifacts, graph: cached.graph, distrusted, nodeStamps, warnings };
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
