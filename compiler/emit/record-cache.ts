/**
 * Record cache for incremental builds: the node files of `.kdd-index/` concatenated into one file,
 * plus the size/mtime/ctime stamp of every spec file, so a build of a 10k tree reads one file
 * instead of 10k and hashes only the specs whose stamp moved.
 *
 * Never the source of truth: it is keyed by the SHA-256 of the `manifest.json` it was written
 * with, and a missing, unreadable or stale cache is ignored (the build reads `.kdd-index/`).
 * It lives in `.kdd-index/.cache/`, which carries its own `.gitignore` (`*`): never committed,
 * and gone with the index folder, so temporary index folders leave nothing behind.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { DocumentRecord } from '../kinds/extract.js';
import type { SourceStamp } from '../read.js';
import { writeAtomic, writeIfChanged } from './atomic.js';
import { nodeFileText } from './index-dir.js';
import { parseNodeFile } from './read-index-dir.js';

const CACHE_FORMAT = 'kdd-record-cache/1';

export interface RecordCache {
  /** The node files' records, sorted by source path (what `readIndexDir` returns). */
  records: DocumentRecord[];
  /** Spec path → stamp of the bytes the index was built from. */
  stamps: Map<string, SourceStamp>;
}

interface Header {
  format: string;
  /** SHA-256 of the `manifest.json` text the records belong to. */
  manifest: string;
  /** Length (UTF-16 code units) of each node-file text that follows the header line. */
  lengths: number[];
  /** Spec path → [size, mtimeMs, ctimeMs, hash]. */
  stamps: Record<string, [number, number, number, string]>;
}

/** Folder of the index's local, git-ignored caches. */
export const CACHE_DIR = '.cache';

/** Where the cache of `indexDir` lives. */
export function recordCachePath(indexDir: string): string {
  return join(indexDir, CACHE_DIR, 'records');
}

export function manifestKey(manifestText: string): string {
  return createHash('sha256').update(manifestText).digest('hex');
}

/** The cached records when the cache was written with this exact `manifest.json`, else null. */
export async function readRecordCache(file: string, manifestText: string): Promise<RecordCache | null> {
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) return null;
  try {
    const end = text.indexOf('\n');
    const header = JSON.parse(text.slice(0, end)) as Header;
    if (header.format !== CACHE_FORMAT || header.manifest !== manifestKey(manifestText)) return null;
    const records: DocumentRecord[] = [];
    let at = end + 1;
    for (const length of header.lengths) {
      records.push(parseNodeFile(text.slice(at, at + length)));
      at += length;
    }
    if (at !== text.length) return null;
    const stamps = new Map(Object.entries(header.stamps).map(([path, [size, mtimeMs, ctimeMs, hash]]) => [path, { size, mtimeMs, ctimeMs, hash }]));
    return { records, stamps };
  } catch {
    return null;
  }
}

/**
 * Writes the cache for the index just written: `records` are the node files' records (winners),
 * sorted by source path; `stamps` the trusted stamps of this build's scan.
 */
export async function writeRecordCache(file: string, manifestText: string, records: readonly DocumentRecord[], stamps: ReadonlyMap<string, SourceStamp>): Promise<void> {
  const texts = records.map(nodeFileText);
  const header: Header = {
    format: CACHE_FORMAT,
    manifest: manifestKey(manifestText),
    lengths: texts.map((text) => text.length),
    stamps: Object.fromEntries([...stamps].map(([path, s]) => [path, [s.size, s.mtimeMs, s.ctimeMs, s.hash]])),
  };
  await writeAtomic(file, `${JSON.stringify(header)}\n${texts.join('')}`);
  // Keep the cache out of git wherever it is written (a committed .kdd-index/ must not carry it).
  await writeIfChanged(join(dirname(file), '.gitignore'), '*\n');
}
