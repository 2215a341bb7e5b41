/**
 * Record cache for incremental builds: every record of `.kdd-index/` in one binary file, plus the
 * size/mtime/ctime stamp of every spec file, so a build of a 10k tree reads one file instead of 10k
 * node files and hashes only the specs whose stamp moved.
 *
 * Built so that an unchanged record costs next to nothing, read or written:
 * - a record is stored as its light part (node without `sections` / `indexed_fields`, content key),
 *   its raw links and its node body exactly as the bundle stores it. Reading decodes the light part
 *   only; links and text decode on first access (runtime/bundle-codec.ts `withLazyBody`), and the
 *   pack stage takes the key and body as they are (compiler/emit/packed-node.ts). An edit to one
 *   spec of 10k never decodes the other 9,999 texts.
 * - the three parts of a record read from the cache are remembered as bytes and written back verbatim.
 * - the graph the records linked to (edges in the bundle's column encoding, dangling links, layer
 *   violations, link warnings) rides along: when no record's link input changed, the next build
 *   takes it from here instead of linking again (compiler/incremental.ts).
 *
 * Layout: u32 (LE) header length, msgpack header, then per record its light part, links and body.
 *
 * Never the source of truth: it is keyed by the SHA-256 of the `manifest.json` it was written
 * with and by the code that wrote it (compiler/emit/code-fingerprint.ts), and a missing, unreadable
 * or stale cache is ignored (the build reads `.kdd-index/`).
 * It lives in `.kdd-index/.cache/`, which carries its own `.gitignore` (`*`): never committed,
 * and gone with the index folder, so temporary index folders leave nothing behind.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Packr } from 'msgpackr';
import { decodeEdges, defineLazy, lightNode, newPackr, withLazyBody, type EncodedEdges } from '../../runtime/bundle-codec.js';
import type { DanglingLink, GraphNode, LayerViolation } from '../../runtime/model.js';
import type { BuildWarning } from '../diagnostics.js';
import { compare, type Graph } from '../graph/link.js';
import type { DocumentRecord, RawLink } from '../kinds/extract.js';
import type { SourceStamp } from '../read.js';
import { writeAtomicParts, writeIfChanged } from './atomic.js';
import { checksum } from './checksum.js';
import { codeFingerprint } from './code-fingerprint.js';
import { packedEdges, packedNode, rememberPackedEdges, rememberPackedNode } from './packed-node.js';

const CACHE_FORMAT = 'kdd-record-cache/3';

/** The link stage's output as the cache stores it. */
export interface CachedGraph {
  edges: EncodedEdges;
  dangling: DanglingLink[];
  layer_violations: LayerViolation[];
  warnings: BuildWarning[];
}

export interface RecordCache {
  /** The node files' records, sorted by source path (what `readIndexDir` returns). */
  records: DocumentRecord[];
  /** Spec path → stamp of the bytes the index was built from. */
  stamps: Map<string, SourceStamp>;
  /** Index-relative path → size and times of whole-tree artifacts as the build that wrote the cache left them. */
  artifacts: Map<string, ArtifactStamp>;
  /** The graph `linkRecords(records)` gave, or null when it was not stored (enrichments applied). */
  graph: CachedGraph | null;
}

export interface ArtifactStamp {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

interface Header {
  format: string;
  /** compiler/emit/code-fingerprint.ts: bodies, keys and the graph were made by this code. */
  code: string;
  /** SHA-256 of the `manifest.json` text the records belong to. */
  manifest: string;
  /** Per spec: path, size, mtimeMs, ctimeMs, hash. */
  stamps: [string, number, number, number, string][];
  /** Per artifact: index-relative path, size, mtimeMs, ctimeMs. */
  artifacts: [string, number, number, number][];
  /** Per record: byte length of its light part, of its links, then of its body. */
  lengths: number[];
  graph: CachedGraph | null;
  /** compiler/emit/checksum.ts of every byte after the header. */
  crc: number;
}

/** Light part of a record as stored: `[light node, content key]`. */
type StoredLight = [Record<string, unknown>, string];

/** The stored light part and links of each record read from (or written to) a cache. */
const stored = new WeakMap<DocumentRecord, { light: Uint8Array; links: Uint8Array }>();

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
    if (header?.format !== CACHE_FORMAT || header.code !== codeFingerprint() || header.manifest !== manifestKey(manifestText) || !Array.isArray(header.lengths) || !Array.isArray(header.stamps) || !Array.isArray(header.artifacts)) return null;
    if (header.crc !== checksum([view.subarray(4 + headerLength)])) return null;
    const records: DocumentRecord[] = [];
    let at = 4 + headerLength;
    for (let i = 0; i < header.lengths.length; i += 3) {
      const light = view.subarray(at, (at += header.lengths[i]!));
      const links = view.subarray(at, (at += header.lengths[i + 1]!));
      const body = view.subarray(at, (at += header.lengths[i + 2]!));
      if (at > view.length) return null;
      const [item, key] = unpackr.unpack(light) as StoredLight;
      const node = withLazyBody(item, body);
      rememberPackedNode(node, key, body);
      const record = lazyLinks(node, links, unpackr);
      stored.set(record, { light, links });
      records.push(record);
    }
    if (at !== view.length) return null;
    const stamps = new Map(header.stamps.map(([path, size, mtimeMs, ctimeMs, hash]) => [path, { size, mtimeMs, ctimeMs, hash }]));
    const artifacts = new Map(header.artifacts.map(([path, size, mtimeMs, ctimeMs]) => [path, { size, mtimeMs, ctimeMs }]));
    return { records, stamps, artifacts, graph: isCachedGraph(header.graph) ? header.graph : null };
  } catch {
    return null;
  }
}

/** Shape check (the edge columns themselves are checked when decoded, compiler/incremental.ts). */
function isCachedGraph(value: unknown): value is CachedGraph {
  const graph = value as Partial<CachedGraph> | null | undefined;
  return !!graph && typeof graph.edges === 'object' && graph.edges !== null && Array.isArray(graph.dangling) && Array.isArray(graph.layer_violations) && Array.isArray(graph.warnings);
}

/** A record whose links decode on first access (links of a record nobody links again stay bytes). */
function lazyLinks(node: GraphNode, bytes: Uint8Array, unpackr: Packr): DocumentRecord {
  // A getter added to a fresh object, not an object literal with one: that would be a slow
  // (dictionary-mode) object.
  const record = { node } as DocumentRecord;
  defineLazy(record, 'links', () => unpackr.unpack(bytes) as RawLink[]);
  return record;
}

/** The graph `cached` describes, over `records` (whose link input is the one it was linked from). */
export function restoreGraph(records: readonly DocumentRecord[], cached: CachedGraph): Graph {
  const nodes = records.map((record) => record.node).sort((a, b) => compare(a.id, b.id));
  const { edges } = decodeEdges(cached.edges, nodes);
  rememberPackedEdges(edges, cached.edges);
  return { nodes, edges, dangling: cached.dangling, layer_violations: cached.layer_violations, warnings: cached.warnings };
}

/**
 * Writes the cache for the index just written: `records` are the node files' records (winners),
 * sorted by source path; `stamps` the trusted stamps of this build's scan; `artifacts` the stamps
 * of the edge files just written, which lets the next build trust them without reading them;
 * `graph` what the records linked to (null when enrichments added edges of their own).
 */
export async function writeRecordCache(
  file: string,
  manifestText: string,
  records: readonly DocumentRecord[],
  stamps: ReadonlyMap<string, SourceStamp>,
  artifacts: ReadonlyMap<string, ArtifactStamp> = new Map(),
  graph: Graph | null = null,
): Promise<void> {
  const packr = newPackr();
  const copy = (value: unknown) => Uint8Array.prototype.slice.call(packr.pack(value));
  const parts: Uint8Array[] = [];
  const lengths: number[] = [];
  for (const record of records) {
    const packed = packedNode(record.node);
    let pieces = stored.get(record);
    if (pieces === undefined) stored.set(record, (pieces = { light: copy([lightNode(packed.node), packed.key] satisfies StoredLight), links: copy(record.links) }));
    parts.push(pieces.light, pieces.links, packed.body);
    lengths.push(pieces.light.length, pieces.links.length, packed.body.length);
  }
  const header: Header = {
    format: CACHE_FORMAT,
    code: codeFingerprint(),
    manifest: manifestKey(manifestText),
    stamps: [...stamps].map(([path, s]) => [path, s.size, s.mtimeMs, s.ctimeMs, s.hash]),
    artifacts: [...artifacts].map(([path, a]) => [path, a.size, a.mtimeMs, a.ctimeMs]),
    lengths,
    graph: graph && {
      edges: packedEdges(graph.edges, graph.nodes),
      dangling: graph.dangling,
      layer_violations: graph.layer_violations,
      warnings: graph.warnings,
    },
    crc: checksum(parts),
  };
  const head = packr.pack(header);
  const length = new Uint8Array(4);
  new DataView(length.buffer).setUint32(0, head.length, true);
  await writeAtomicParts(file, [length, head, ...parts]);
  // Keep the cache out of git wherever it is written (a committed .kdd-index/ must not carry it).
  await writeIfChanged(join(dirname(file), '.gitignore'), '*\n');
}
