/**
 * Merge inputs from where they live (CMD-005 over git): a `.kdd-index/` folder, a bundle (a
 * `.msgpack` file or a `dist/` folder with `kdd.json`), or a `.kdd-index/` committed on a git ref,
 * read with `git ls-tree` + `git cat-file --batch` without checking anything out.
 *
 * A folder whose record cache (`.cache/records`, compiler/cache/record-cache.ts) was written with its
 * current `manifest.json` is read from that one file instead of its node files: same records, and
 * their canonical form, content key and bundle body come with them, so the pack stage neither
 * canonicalises nor re-encodes them. Any other cache (missing, stale, corrupt) is ignored.
 */
import { readFile, stat } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { decodeBundle } from '../../formats/bundle/bundle.js';
import '../../formats/native-strings.js';
import { createError } from '../../model/errors.js';
import { POINTER_FILE, readPointer } from '../pack/dist.js';
import type { BlobCache } from '../cache/blob-cache.js';
import { readIndexDir } from '../emit/read-index-dir.js';
import { MANIFEST_FILE, parseManifest } from '../../formats/index-dir/manifest.js';
import { parseNodeFile } from '../../formats/index-dir/node-file.js';
import { readRecordCache, recordCachePath } from '../cache/record-cache.js';
import { readTombstones, type IndexContent } from '../emit/tombstones.js';
import { parseTombstones, TOMBSTONES_FILE } from '../../formats/index-dir/tombstones.js';
import { compareCodeUnits } from '../../model/order.js';
import type { DocumentRecord } from '../../model/records.js';
import { catFiles, git } from '../git.js';
import { bundleSource, type MergeSource } from './merge.js';


const exists = (path: string) =>
  stat(path).then(
    (info) => info,
    () => null,
  );

/** A folder holding `manifest.json` (a `.kdd-index/`), a `dist/` folder, or a bundle file. */
export async function loadMergeSource(path: string, label = path): Promise<MergeSource> {
  const info = await exists(path);
  if (info?.isFile()) return bundleSource(decodeBundle(await readFile(path)), label);
  if (info?.isDirectory()) {
    if (await exists(join(path, MANIFEST_FILE))) return { source: label, ...(await readIndexForMerge(path)) };
    if (await exists(join(path, POINTER_FILE))) {
      const pointer = await readPointer(path);
      if (pointer) return bundleSource(decodeBundle(await readFile(join(path, pointer.bundle))), label);
    }
  }
  throw createError('MANIFEST_NOT_FOUND', { path });
}

/**
 * `.kdd-index/` as a merge reads it: the records from the record cache when it belongs to this exact
 * `manifest.json` (`cached: true`), else from the node files; the tombstones always from
 * `tombstones.jsonl` (the cache does not hold them).
 */
export async function readIndexForMerge(dir: string): Promise<IndexContent & { cached: boolean }> {
  const manifestText = await readFile(join(dir, MANIFEST_FILE), 'utf8');
  const manifest = parseManifest(manifestText, join(dir, MANIFEST_FILE));
  const [cache, tombstones] = await Promise.all([readRecordCache(recordCachePath(dir), manifestText), readTombstones(dir)]);
  if (cache) return { manifest, records: cache.records, tombstones, cached: true };
  return { ...(await readIndexDir(dir)), tombstones, cached: false };
}

/**
 * `.kdd-index/` as committed on `ref` (a branch, tag or commit) in the repository at `repo`.
 * `indexPath` is relative to the repository root. With `blobs` (compiler/cache/blob-cache.ts), node
 * files whose blob the cache holds are not read from git nor parsed again, and the others are added.
 */
export async function readIndexFromGit(repo: string, ref: string, indexPath = '.kdd-index', blobs?: BlobCache): Promise<MergeSource> {
  const prefix = posix.normalize(indexPath).replace(/\/+$/, '');
  const label = `git:${ref}:${prefix}`;
  let listing: string;
  try {
    listing = await git(repo, ['ls-tree', '-r', '-z', ref, '--', prefix]);
  } catch (error) {
    throw createError('MANIFEST_NOT_FOUND', { path: label, detail: (error as Error).message });
  }
  // `<mode> SP <type> SP <object id> TAB <path>` per entry.
  const entries = listing
    .split('\0')
    .map((line) => {
      const tab = line.indexOf('\t');
      const [, type, oid] = line.slice(0, tab).split(' ');
      return { type, oid: oid!, path: line.slice(tab + 1) };
    })
    .filter((entry) => entry.type === 'blob' && entry.path.startsWith(`${prefix}/`));
  let manifestOid: string | null = null;
  let tombstonesOid: string | null = null;
  const nodeFiles: { oid: string; path: string; record?: DocumentRecord }[] = [];
  for (const { oid, path } of entries) {
    const rel = path.slice(prefix.length + 1);
    if (rel === MANIFEST_FILE) manifestOid = oid;
    else if (rel === TOMBSTONES_FILE) tombstonesOid = oid;
    else if (rel.startsWith('nodes/') && rel.endsWith('.json')) nodeFiles.push({ oid, path: rel, record: blobs?.get(oid) });
  }
  if (manifestOid === null) throw createError('MANIFEST_NOT_FOUND', { path: label });
  const missing = nodeFiles.filter((file) => file.record === undefined);
  const wanted = [manifestOid, ...(tombstonesOid === null ? [] : [tombstonesOid]), ...missing.map((file) => file.oid)];
  const [manifestText, ...rest] = await catFiles(repo, wanted);
  const named = (path: string) => `${label}/${path}`;
  const tombstones = tombstonesOid === null ? [] : corruptAs(named(TOMBSTONES_FILE), () => parseTombstones(rest.shift()!));
  missing.forEach((file, index) => {
    file.record = corruptAs(named(file.path), () => parseNodeFile(rest[index]!));
    blobs?.set(file.oid, file.record);
  });
  const records = nodeFiles.map((file) => file.record!).sort((a, b) => compareCodeUnits(a.node.source_file, b.node.source_file));
  return { source: label, manifest: parseManifest(manifestText!, named(MANIFEST_FILE)), records, tombstones };
}

/** `parse()`, or INDEX_CORRUPT naming `file` when its text is not what it should be. */
function corruptAs<T>(file: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw createError('INDEX_CORRUPT', { file, detail: (error as Error).message });
  }
}

