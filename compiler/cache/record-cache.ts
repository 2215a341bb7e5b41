/**
 * Record cache for incremental builds: every record of `.kdd-index/` in one binary file, plus the
 * size/mtime/ctime stamp of every spec file, so a build of a 10k tree reads one file instead of 10k
 * node files and hashes only the specs whose stamp moved.
 *
 * Built so that an unchanged record costs next to nothing, read or written:
 * - a record is stored as its light part (node without `sections` / `indexed_fields`, content key),
 *   its raw links and its node body exactly as the bundle stores it. Reading decodes the light part
 *   only; links and text decode on first access (formats/bundle/nodes.ts `withLazyBody`), and the
 *   pack stage takes the key and body as they are (compiler/cache/packed-node.ts). An edit to one
 *   spec of 10k never decodes the other 9,999 texts.
 * - the three parts of a record read from the cache are remembered as bytes and written back verbatim.
 * - the graph the records linked to (edges in the bundle's column encoding, dangling links, layer
 *   violations, link warnings) rides along: when no record's link input changed, the next build
 *   takes it from here instead of linking again (compiler/incremental/relink.ts).
 *
 * Layout: two files. `records` is a u32 (LE) header length and the msgpack header (stamps, graph,
 * where each record's entry lies); `records.entries` holds the entries, each a record's light part,
 * links and body end to end (compiler/cache/record-entries.ts), in an append-only file
 * (compiler/cache/entry-file.ts). A build that reused most records appends the entries of the few it
 * made and rewrites only the header (~6 MB at 10,800 documents, against ~56 MB for the whole); the
 * file is written anew once the entries no record uses any more pass a quarter of those in use.
 *
 * Never the source of truth: it is keyed by the SHA-256 of the `manifest.json` it was written
 * with and by the code that wrote it (compiler/cache/code-fingerprint.ts), and a missing, unreadable
 * or stale cache is ignored (the build reads `.kdd-index/`).
 * It lives in `.kdd-index/.cache/`, which carries its own `.gitignore` (`*`): never committed,
 * and gone with the index folder, so temporary index folders leave nothing behind.
 */
import { createHash } from 'node:crypto';
import type { Packr } from 'msgpackr';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { EncodedEdges } from '../../formats/bundle/edges.js';
import { newPackr } from '../../formats/msgpack.js';
import type { DanglingLink, GraphEdge, LayerViolation } from '../../model/graph.js';
import type { BuildWarning } from '../diagnostics.js';
import { deferEdges, graphPackedEdges } from '../graph/edge-facts.js';
import type { Graph } from '../graph/link.js';
import { compareCodeUnits } from '../../model/order.js';
import type { DocumentRecord } from '../../model/records.js';
import type { SourceStamp } from '../read.js';
import { checksum } from './checksum.js';
import { codeFingerprint } from './code-fingerprint.js';
import { appendEntryFile, readEntryFile, TAG_LENGTH, writeEntryFile, type EntryFileState } from './entry-file.js';
import { knownPackedGraphPart, rememberPackedGraphPart } from './packed-node.js';
import { readStampColumns, stampColumns, type StampColumns } from './stamp-columns.js';
import { entryLength, entryParts, exactJson, loadRecord, parseJson, readFramed, storeRecord, writeFramed, type StoredRecord } from './record-entries.js';

const CACHE_FORMAT = 'kdd-record-cache/7';

/** The link stage's output as the cache stores it. */
export interface CachedGraph {
  edges: EncodedEdges;
  dangling: DanglingLink[];
  unresolved_ids: DanglingLink[];
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
  /** compiler/cache/code-fingerprint.ts: bodies, keys and the graph were made by this code. */
  code: string;
  /** SHA-256 of the `manifest.json` text the records belong to. */
  manifest: string;
  /** Per spec: path, size, mtimeMs, ctimeMs, hash (compiler/cache/stamp-columns.ts). */
  stamps: StampColumns;
  /** Per artifact: index-relative path, size, mtimeMs, ctimeMs. */
  artifacts: StampColumns;
  /** The entry file's tag, valid length and CRC (compiler/cache/entry-file.ts). */
  entries: EntryFileState;
  /** Per record, four u32 (LE): where its entry starts in the entry file, then the byte length of its light part, of its links and of its body. */
  index: Uint8Array;
  /**
   * The {@link CachedGraph} in two parts: its edge columns (msgpack) and the rest (dangling links,
   * unresolved ids, layer violations, warnings: plain strings and lists, as UTF-8 JSON, which a
   * fresh process decodes in a fraction of msgpackr's time). A build whose graph is the one it
   * read here writes both back instead of encoding 110k edges and 5k violations again.
   */
  graph: Uint8Array | null;
  links: Uint8Array | null;
  /**
   * The bundle's bytes of the graph's layer violations, dangling links and unresolved ids, when the
   * build that wrote the cache made them (compiler/cache/packed-node.ts `packedGraphPart`), else null.
   */
  lists: Uint8Array[] | null;
  /** compiler/cache/checksum.ts of the graph's two parts, its lists' bytes and the index (the entries have their own). */
  crc: number;
}

/** The stored parts of each record read from (or written to) a cache. */
const stored = new WeakMap<DocumentRecord, StoredRecord>();

/** Folder of the index's local, git-ignored caches. */
export const CACHE_DIR = '.cache';

/** Where the cache of `indexDir` lives (its header; the entries are beside it: {@link entriesPath}). */
export function recordCachePath(indexDir: string): string {
  return join(indexDir, CACHE_DIR, 'records');
}

/** The entry file of the cache whose header is `file`. */
export function entriesPath(file: string): string {
  return `${file}.entries`;
}

/** Removes the cache `file` and its entries. */
export async function removeRecordCache(file: string): Promise<void> {
  await Promise.all([file, entriesPath(file)].map((path) => rm(path, { force: true })));
}

export function manifestKey(manifestText: string): string {
  return createHash('sha256').update(manifestText).digest('hex');
}

/**
 * The cached records when the cache was written with this exact `manifest.json`, else null.
 * `whileReading` is handed the spec and artifact stamps of a header that passed its checks while
 * the entries are being read: synchronous work done there overlaps that read.
 */
export async function readRecordCache(file: string, manifestText: string, whileReading?: (stamps: RecordCache['stamps'], artifacts: RecordCache['artifacts']) => void): Promise<RecordCache | null> {
  const framed = await readFramed(file);
  if (framed === null) return null;
  const header = framed.header as Header | null;
  try {
    if (header?.format !== CACHE_FORMAT || header.code !== codeFingerprint() || header.manifest !== manifestKey(manifestText) || !(header.index instanceof Uint8Array) || framed.payload.length !== 0) return null;
    const graphPart: GraphParts | null = header.graph instanceof Uint8Array && header.links instanceof Uint8Array ? [header.graph, header.links] : null;
    const lists = graphPart && Array.isArray(header.lists) && header.lists.length === LISTS.length && header.lists.every((bytes) => bytes instanceof Uint8Array) ? header.lists : null;
    if (header.crc !== checksum([...(graphPart ?? []), ...(lists ?? []), header.index])) return null;
    const state = entryFileState(header.entries);
    const stamps = readStampColumns(header.stamps, true);
    const artifacts = readStampColumns(header.artifacts, false);
    if (state === null || stamps === null || artifacts === null) return null;
    const reading = readEntryFile(entriesPath(file), state);
    whileReading?.(stamps, artifacts);
    const bytes = await reading;
    const entries = bytes && entriesAt(bytes, header.index);
    if (!entries) return null;
    origins.set(bytes!.buffer, { path: entriesPath(file), state, bytes: bytes! });
    const unpackr = newPackr();
    const records = entries.map((entry) => {
      const record = loadRecord(entry, unpackr, 'on-access');
      stored.set(record, entry);
      return record;
    });
    const graph = graphPart ? ({ edges: unpackr.unpack(graphPart[0]), ...(parseJson(graphPart[1]) as object) } as unknown) : null;
    if (!isCachedGraph(graph)) return { records, stamps, artifacts, graph: null };
    graphBytes.set(graph, graphPart!);
    // The edge columns' bytes are the bundle's too: msgpack of the same columns by the same encoder (formats/msgpack.ts).
    rememberPackedGraphPart(graph.edges, graphPart![0]);
    if (lists) LISTS.forEach((key, i) => rememberPackedGraphPart(graph[key], lists[i]!));
    return { records, stamps, artifacts, graph };
  } catch {
    return null;
  }
}

/**
 * msgpackr keeps a view of the last buffer it decoded (a module variable, shared by every decoder)
 * until the next decode, so the record cache's whole file stays alive after its records are let go
 * of, or after the cache was refused on its header. Decoding one `nil` byte lets the file go.
 */
export function releaseDecodedBytes(): void {
  newPackr().unpack(NIL);
}

const NIL = Uint8Array.of(0xc0);

/** Shape check (the edge columns themselves are checked when decoded, compiler/incremental/relink.ts). */
function isCachedGraph(value: unknown): value is CachedGraph {
  const graph = value as Partial<CachedGraph> | null | undefined;
  return !!graph && typeof graph.edges === 'object' && graph.edges !== null && Array.isArray(graph.dangling) && Array.isArray(graph.unresolved_ids) && Array.isArray(graph.layer_violations) && Array.isArray(graph.warnings);
}

/**
 * The graph `cached` describes, over `records` (whose link input is the one it was linked from). Its
 * edges are made when first read (compiler/graph/edge-facts.ts); their columns are checked now.
 */
export function restoreGraph(records: readonly DocumentRecord[], cached: CachedGraph): Graph {
  const nodes = records.map((record) => record.node).sort((a, b) => compareCodeUnits(a.id, b.id));
  const placeholder: GraphEdge[] = [];
  const graph = deferEdges({ nodes, edges: placeholder, dangling: cached.dangling, unresolved_ids: cached.unresolved_ids, layer_violations: cached.layer_violations, warnings: cached.warnings }, cached.edges);
  restored.set(graph, cached);
  return graph;
}

/** The graph's lists whose bundle bytes the cache keeps, in the order stored. */
const LISTS = ['layer_violations', 'dangling', 'unresolved_ids'] as const;

/** A cached graph's two parts: its edges' msgpack and the rest's JSON. */
type GraphParts = [edges: Uint8Array, rest: Uint8Array];

/** The bytes each graph read from a cache was decoded from. */
const graphBytes = new WeakMap<CachedGraph, GraphParts>();
/** The cached graph each restored graph was made from. */
const restored = new WeakMap<Graph, CachedGraph>();

/**
 * The cache's encoding of `graph`: the bytes it was read from when it is a restored graph whose
 * parts are still the very ones read (edges encode to the cached columns: same ids, same order,
 * compiler/incremental/relink.ts), else encoded now; null when a part would not come back exactly
 * from JSON (the next build links again).
 */
function encodedGraph(graph: Graph, packr: Packr): GraphParts | null {
  const cached = restored.get(graph);
  const bytes = cached && graphBytes.get(cached);
  if (
    bytes &&
    graphPackedEdges(graph, graph.nodes) === cached.edges &&
    graph.dangling === cached.dangling &&
    graph.unresolved_ids === cached.unresolved_ids &&
    graph.layer_violations === cached.layer_violations &&
    graph.warnings === cached.warnings
  )
    return bytes;
  const rest = exactJson({ dangling: graph.dangling, unresolved_ids: graph.unresolved_ids, layer_violations: graph.layer_violations, warnings: graph.warnings });
  if (!rest) return null;
  // A copy: the packer reuses its buffer.
  return [Uint8Array.prototype.slice.call(packr.pack(graphPackedEdges(graph, graph.nodes))), rest];
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
  const entries = records.map((record) => {
    let entry = stored.get(record);
    if (entry === undefined) stored.set(record, (entry = storeRecord(record, packr)));
    return entry;
  });
  const placed = await placeEntries(entriesPath(file), entries);
  const graphPart = graph && encodedGraph(graph, packr);
  const known = graphPart && LISTS.map((key) => knownPackedGraphPart(graph![key]));
  const lists = known && known.every((bytes) => bytes !== undefined) ? (known as Uint8Array[]) : null;
  const header: Header = {
    format: CACHE_FORMAT,
    code: codeFingerprint(),
    manifest: manifestKey(manifestText),
    stamps: stampColumns(stamps),
    artifacts: stampColumns(artifacts),
    entries: placed.state,
    index: placed.index,
    graph: graphPart && graphPart[0],
    links: graphPart && graphPart[1],
    lists,
    crc: checksum([...(graphPart ?? []), ...(lists ?? []), placed.index]),
  };
  await writeFramed(file, header, []);
}

/** An entry file a cache was read from, as it is on disk now (appends move its state on). */
interface Origin {
  path: string;
  state: EntryFileState;
  /** Its bytes as read: the entries read from it are views of them. */
  bytes: Uint8Array;
}

/** By the buffer of the bytes read: an entry is from that file when its parts are views of them. */
const origins = new WeakMap<ArrayBufferLike, Origin>();

/** Entry files are written anew when more of their bytes than this share of the entries in use belong to no record. */
const MAX_WASTE = 1 / 4;

/**
 * Puts `entries` in the entry file `path`: when most of them were read from that very file, only the
 * others are appended to it; otherwise (first write, another file, too much waste) it is written anew.
 * Returns its new state and the header's index of the entries, in the order given.
 */
async function placeEntries(path: string, entries: readonly StoredRecord[]): Promise<{ state: EntryFileState; index: Uint8Array }> {
  const first = entries.find((entry) => origins.get(entry.light.buffer)?.path === path);
  const origin = first && origins.get(first.light.buffer);
  const offsets = entries.map((entry) => (origin ? offsetIn(origin, entry) : -1));
  const fresh = offsets.flatMap((offset, i) => (offset < 0 ? [entries[i]!] : []));
  const size = (list: readonly StoredRecord[]) => list.reduce((sum, entry) => sum + entryLength(entry), 0);
  const reused = size(entries) - size(fresh);
  let state: EntryFileState | null = null;
  if (origin && reused > 0 && origin.state.length - TAG_LENGTH - reused <= MAX_WASTE * size(entries)) {
    state = await appendEntryFile(path, origin.state, fresh.flatMap(entryParts));
    if (state) {
      // The appended entries follow the old valid bytes, in order.
      placeInOrder(entries, offsets, origin.state.length, (offset) => offset < 0);
      origin.state = state;
    }
  }
  if (!state) {
    state = await writeEntryFile(path, entries.flatMap(entryParts));
    placeInOrder(entries, offsets, TAG_LENGTH, () => true);
  }
  return { state, index: entryIndex(entries, offsets) };
}

/** Sets the offsets of the entries `chosen` picks as laid end to end from `start`, in order. */
function placeInOrder(entries: readonly StoredRecord[], offsets: number[], start: number, chosen: (offset: number) => boolean): void {
  let at = start;
  for (let i = 0; i < entries.length; i++) {
    if (!chosen(offsets[i]!)) continue;
    offsets[i] = at;
    at += entryLength(entries[i]!);
  }
}

/** Where `entry` starts in `origin`'s file, or -1 when it is not one of the entries read from it. */
function offsetIn(origin: Origin, entry: StoredRecord): number {
  const { light, links, body } = entry;
  const base = origin.bytes;
  if (light.buffer !== base.buffer || links.buffer !== base.buffer || body.buffer !== base.buffer) return -1;
  const offset = light.byteOffset - base.byteOffset;
  // Read entries are three adjacent views inside the valid bytes (entriesAt); anything else is written again.
  const adjacent = links.byteOffset === light.byteOffset + light.length && body.byteOffset === links.byteOffset + links.length;
  return adjacent && offset >= TAG_LENGTH && offset + entryLength(entry) <= base.length ? offset : -1;
}

/** Four u32 (LE) per entry: offset, then the lengths of its light part, links and body. */
function entryIndex(entries: readonly StoredRecord[], offsets: readonly number[]): Uint8Array {
  const index = new Uint8Array(entries.length * 16);
  const view = new DataView(index.buffer);
  entries.forEach((entry, i) => {
    const at = i * 16;
    // setUint32 wraps silently past 4 GiB: refuse instead (writeRecordCache's callers treat a throw as "no cache").
    if (offsets[i]! + entryLength(entry) > 0xffffffff) throw new RangeError('record cache entries past 4 GiB');
    view.setUint32(at, offsets[i]!, true);
    view.setUint32(at + 4, entry.light.length, true);
    view.setUint32(at + 8, entry.links.length, true);
    view.setUint32(at + 12, entry.body.length, true);
  });
  return index;
}

/** The entries `index` places in `bytes` (an entry file's valid bytes); null unless every one lies inside them. */
function entriesAt(bytes: Uint8Array, index: Uint8Array): StoredRecord[] | null {
  if (index.length % 16 !== 0) return null;
  const view = new DataView(index.buffer, index.byteOffset, index.length);
  const entries: StoredRecord[] = [];
  for (let at = 0; at < index.length; at += 16) {
    let offset = view.getUint32(at, true);
    const lengths = [view.getUint32(at + 4, true), view.getUint32(at + 8, true), view.getUint32(at + 12, true)];
    if (offset < TAG_LENGTH || offset + lengths[0]! + lengths[1]! + lengths[2]! > bytes.length) return null;
    const [light, links, body] = lengths.map((length) => bytes.subarray(offset, (offset += length)));
    entries.push({ light: light!, links: links!, body: body! });
  }
  return entries;
}

/** The header's description of the entry file, when it has that shape. */
function entryFileState(value: unknown): EntryFileState | null {
  const state = value as Partial<EntryFileState> | null | undefined;
  return state && state.tag instanceof Uint8Array && typeof state.length === 'number' && typeof state.crc === 'number' ? (state as EntryFileState) : null;
}

