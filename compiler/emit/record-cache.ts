/**
 * Record cache for incremental builds: every record of `.kdd-index/` in one binary file, plus the
 * size/mtime/ctime stamp of every spec file, so a build of a 10k tree reads one file instead of 10k
 * node files and hashes only the specs whose stamp moved.
 *
 * Built so that an unchanged record costs next to nothing, read or written:
 * - a record is stored as its light part (node without `sections` / `indexed_fields`, raw links,
 *   content key) and its node body exactly as the bundle stores it. Reading decodes the light part
 *   only; the text decodes on first access (runtime/bundle-codec.ts `withLazyBody`), and the pack
 *   stage takes the key and body as they are (compiler/emit/packed-node.ts). An edit to one spec of
 *   10k never decodes the other 9,999 texts.
 * - both parts of a record read from the cache are remembered as bytes and written back verbatim.
 *
 * Layout: u32 (LE) header length, msgpack header, then per record its light part and its body.
 *
 * Never the source of truth: it is keyed by the SHA-256 of the `manifest.json` it was written
 * with, and a missing, unreadable or stale cache is ignored (the build reads `.kdd-index/`).
 * It lives in `.kdd-index/.cache/`, which carries its own `.gitignore` (`*`): never committed,
 * and gone with the index folder, so temporary index folders leave nothing behind.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { lightNode, newPackr, withLazyBody } from '../../runtime/bundle-codec.js';
import type { DocumentRecord, RawLink } from '../kinds/extract.js';
import type { SourceStamp } from '../read.js';
import { writeAtomic, writeIfChanged } from './atomic.js';
import { packedNode, rememberPackedNode } from './packed-node.js';

const CACHE_FORMAT = 'kdd-record-cache/2';

export interface RecordCache {
  /** The node files' records, sorted by source path (what `readIndexDir` returns). */
  records: DocumentRecord[];
  /** Spec path → stamp of the bytes the index was built from. */
  stamps: Map<string, SourceStamp>;
  /** Index-relative path → size and times of whole-tree artifacts as the build that wrote the cache left them. */
  artifacts: Map<string, ArtifactStamp>;
}

export interface ArtifactStamp {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

interface Header {
  format: string;
  /** SHA-256 of the `manifest.json` text the records belong to. */
  manifest: string;
  /** Per spec: path, size, mtimeMs, ctimeMs, hash. */
  stamps: [string, number, number, number, string][];
  /** Per artifact: index-relative path, size, mtimeMs, ctimeMs. */
  artifacts: [string, number, number, number][];
  /** Per record: byte length of its light part, then of its body. */
  lengths: number[];
}

/** Light part of a record as stored: `[light node, links, content key]`. */
type StoredLight = [Record<string, unknown>, RawLink[], string];

/** The stored light part of each record read from (or written to) a cache. */
const storedLight = new WeakMap<DocumentRecord, Uint8Array>();

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
  const bytes = await readFile(file).catch(() => null);
  if (bytes === null || bytes.length < 4) return null;
  try {
    // A plain view: msgpackr treats Node Buffers specially (see runtime/bundle-format.ts).
    const view = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const headerLength = new DataView(view.buffer, view.byteOffset, 4).getUint32(0, true);
    const unpackr = newPackr();
    const header = unpackr.unpack(view.subarray(4, 4 + headerLength)) as Header;
    if (header?.format !== CACHE_FORMAT || header.manifest !== manifestKey(manifestText) || !Array.isArray(header.lengths) || !Array.isArray(header.stamps) || !Array.isArray(header.artifacts)) return null;
    const records: DocumentRecord[] = [];
    let at = 4 + headerLength;
    for (let i = 0; i < header.lengths.length; i += 2) {
      const light = view.subarray(at, (at += header.lengths[i]!));
      const body = view.subarray(at, (at += header.lengths[i + 1]!));
      if (at > view.length) return null;
      const [item, links, key] = unpackr.unpack(light) as StoredLight;
      const node = withLazyBody(item, body);
      rememberPackedNode(node, key, body);
      const record = { node, links };
      storedLight.set(record, light);
      records.push(record);
    }
    if (at !== view.length) return null;
    const stamps = new Map(header.stamps.map(([path, size, mtimeMs, ctimeMs, hash]) => [path, { size, mtimeMs, ctimeMs, hash }]));
    const artifacts = new Map(header.artifacts.map(([path, size, mtimeMs, ctimeMs]) => [path, { size, mtimeMs, ctimeMs }]));
    return { records, stamps, artifacts };
  } catch {
    return null;
  }
}

/**
 * Writes the cache for the index just written: `records` are the node files' records (winners),
 * sorted by source path; `stamps` the trusted stamps of this build's scan; `artifacts` the stamps
 * of the edge files just written, which lets the next build trust them without reading them.
 */
export async function writeRecordCache(
  file: string,
  manifestText: string,
  records: readonly DocumentRecord[],
  stamps: ReadonlyMap<string, SourceStamp>,
  artifacts: ReadonlyMap<string, ArtifactStamp> = new Map(),
): Promise<void> {
  const packr = newPackr();
  const parts: Uint8Array[] = [];
  const lengths: number[] = [];
  for (const record of records) {
    const packed = packedNode(record.node);
    let light = storedLight.get(record);
    if (light === undefined) {
      const value: StoredLight = [lightNode(packed.node), record.links, packed.key];
      storedLight.set(record, (light = Uint8Array.prototype.slice.call(packr.pack(value))));
    }
    parts.push(light, packed.body);
    lengths.push(light.length, packed.body.length);
  }
  const header: Header = {
    format: CACHE_FORMAT,
    manifest: manifestKey(manifestText),
    stamps: [...stamps].map(([path, s]) => [path, s.size, s.mtimeMs, s.ctimeMs, s.hash]),
    artifacts: [...artifacts].map(([path, a]) => [path, a.size, a.mtimeMs, a.ctimeMs]),
    lengths,
  };
  const head = packr.pack(header);
  let total = 4 + head.length;
  for (const part of parts) total += part.length;
  const out = new Uint8Array(total);
  new DataView(out.buffer).setUint32(0, head.length, true);
  out.set(head, 4);
  let at = 4 + head.length;
  for (const part of parts) out.set(part, at), (at += part.length);
  await writeAtomic(file, out);
  // Keep the cache out of git wherever it is written (a committed .kdd-index/ must not carry it).
  await writeIfChanged(join(dirname(file), '.gitignore'), '*\n');
}
