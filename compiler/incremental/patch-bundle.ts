/**
 * A bundle put together from the previous one when only some nodes changed in place (same count,
 * same positions): the bytes of what did not change are copied from the previous bundle, the
 * changed nodes' light maps, chunk rows and postings are encoded, and both inverted indexes are
 * patched (./patch-index.ts) instead of assembled from 10k nodes' products. The output equals
 * `packBundle` of the same input byte for byte (test/compiler/patch-bundle.test.ts); anything the
 * patch does not cover (another node count, L2 vectors, a bundle it cannot read) returns null and
 * the build packs in full.
 *
 * What it starts from: the previous bundle in `dist/`, trusted as `keptBundle` trusts it (stamp or
 * hash, compiler/incremental/kept-bundle.ts), and `.kdd-index/.cache/last-pack`, the content key of
 * each node of that bundle by position (written after every pack, {@link rememberPack}).
 */
import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeUints, encodeUints } from '../../formats/bundle/columns.js';
import { lightNode } from '../../formats/bundle/nodes.js';
import { binHeader, msgpackPieces, packCopy } from '../../formats/bundle/write.js';
import { newPackr } from '../../formats/msgpack.js';
import { u32ToBytes } from '../../formats/bytes.js';
import type { SerializedTextIndex } from '../../runtime/search/bm25f.js';
import type { SerializedChunkIndex } from '../../runtime/search/chunk-index.js';
import { assembleTextIndex } from '../../runtime/search/bm25f.js';
import { writeAtomic } from '../atomic.js';
import { CACHE_DIR } from '../cache/record-cache.js';
import { checksum } from '../cache/checksum.js';
import { codeFingerprint } from '../cache/code-fingerprint.js';
import { chunkCount, type NodePack, type PackMemo } from '../cache/pack-memo.js';
import { packedParts, plainParts, type PackedBundle, type PackInput, type PreparedNodes } from '../pack/pack.js';
import { packedGraphPart } from '../cache/packed-node.js';
import { trustedBundle } from './kept-bundle.js';
import { arrayHeader, arrayItems, mapEntries, mapParts, valueAt, valueEnd } from './msgpack-spans.js';
import { patchChunkIndex, patchTextIndex, type Changes } from './patch-index.js';

const FORMAT = 'kdd-last-pack/3';
/** Past this share of changed nodes a full pack costs about the same: not worth the patch. */
const MAX_CHANGED_SHARE = 0.2;
/** Changes always patched, whatever the share (small trees). */
const FEW_CHANGES = 16;
/** The bundle's top-level keys and those of its node and chunk parts (formats/bundle/*.ts), in encoding order. */
const TOP = ['format', 'manifest', 'nodes', 'edges', 'layer_violations', 'dangling', 'unresolved_ids', 'search', 'chunk_search', 'chunks', 'vectors'];
const NODES = ['light', 'bodies', 'offsets'];
const CHUNKS = ['count', 'ids', 'full', 'node', 'position', 'section', 'start', 'end', 'embeddable'];
const COLUMNS = ['node', 'position', 'section', 'start', 'end', 'embeddable'] as const;

/** The previous bundle and the content key of each of its nodes. */
export interface PreviousPack {
  bytes: Uint8Array;
  keys: readonly string[];
  /** The terms of nodes whose products the pack memo's file does not hold, by content key ({@link rememberPack}). */
  terms?: ReadonlyMap<string, NodeTermSets>;
}

/**
 * The terms of one node's products with what each contributes, in its fields and in its chunks: all
 * the patch needs of a changed node's previous products to copy the postings of every term whose
 * contribution did not change without looking at them. `textTfs[i]` is `text[i]`'s tf (as a
 * `,`-joined list, in product order); `chunkTfs[i]` lists `chunks[i]`'s chunks (their place in the
 * node) with its tf there, as `chunk:tf` joined by `,`.
 */
export interface NodeTermSets {
  text: readonly string[];
  textTfs: readonly string[];
  chunks: readonly string[];
  chunkTfs: readonly string[];
}

interface LastPack {
  format: string;
  fingerprint: string;
  bundle: string;
  keys: readonly string[];
  terms: Record<string, NodeTermSets>;
}

export const lastPackPath = (indexDir: string) => join(indexDir, CACHE_DIR, 'last-pack');

/** The previous bundle of `outDir` with its node keys, when the record of the last pack names it and its bytes can be trusted. */
export async function previousPack(indexDir: string, outDir: string, checked: string): Promise<PreviousPack | null> {
  const record = await readFile(lastPackPath(indexDir), 'utf8').then(checkedRecord, () => null);
  if (!record || record.format !== FORMAT || record.fingerprint !== codeFingerprint() || !Array.isArray(record.keys)) return null;
  const bytes = await trustedBundle(outDir, record.bundle, checked, (path, size) => bundleWithoutBodies(path, size));
  return bytes ? { bytes, keys: record.keys, terms: termSetsOf(record.terms) } : null;
}

/**
 * The record in `text` when its checksum holds. The term sets steer which postings the patch looks
 * at, so a byte changed in them must not go unseen (a changed key or name only costs a full pack).
 */
function checkedRecord(text: string): LastPack | null {
  try {
    const { crc, ...record } = JSON.parse(text) as LastPack & { crc: unknown };
    return crc === checksum([Buffer.from(JSON.stringify(inOrder(record)))]) ? record : null;
  } catch {
    return null;
  }
}

/** The record's fields in the order they are written and checked. */
function inOrder(record: LastPack): LastPack {
  return { format: record.format, fingerprint: record.fingerprint, bundle: record.bundle, keys: record.keys, terms: record.terms };
}

/** The term sets of a last-pack record that are well formed (any other is only a slower patch). */
function termSetsOf(terms: unknown): Map<string, NodeTermSets> {
  const sets = new Map<string, NodeTermSets>();
  const strings = (list: unknown): list is string[] => Array.isArray(list) && list.every((term) => typeof term === 'string');
  if (terms === null || typeof terms !== 'object') return sets;
  for (const [key, value] of Object.entries(terms)) {
    const { text, textTfs, chunks, chunkTfs } = (value ?? {}) as Partial<NodeTermSets>;
    if (strings(text) && strings(textTfs) && strings(chunks) && strings(chunkTfs) && text.length === textTfs.length && chunks.length === chunkTfs.length) sets.set(key, { text, textTfs, chunks, chunkTfs });
  }
  return sets;
}

/** The terms of `pack`, whose ids index `terms`. */
export function nodeTermSets(pack: NodePack, terms: readonly string[]): NodeTermSets {
  const text = new Map<string, string>();
  const chunks = new Map<string, string>();
  const note = (into: Map<string, string>, term: string, what: string) => into.set(term, into.has(term) ? `${into.get(term)},${what}` : what);
  for (let k = 0; k < pack.terms.length; k += 2) note(text, terms[pack.terms[k]!]!, String(pack.terms[k + 1]));
  let from = 0;
  pack.chunkEnds.forEach((end, chunk) => {
    for (let q = from; q < end; q += 2) note(chunks, terms[pack.chunkTerms[q]!]!, `${chunk}:${pack.chunkTerms[q + 1]}`);
    from = end;
  });
  return { text: [...text.keys()], textTfs: [...text.values()], chunks: [...chunks.keys()], chunkTfs: [...chunks.values()] };
}

/** First read of a bundle's head: at 10,800 documents the node bodies start at ~4.8 MB. */
const HEAD_BYTES = 8 << 20;

/**
 * The bundle at `path` (`size` bytes) with its node bodies left out: the `nodes.bodies` binary keeps
 * its header, with length 0, and everything after it follows. Still a well-formed bundle of the same
 * layout, and every part the patch copies from is there byte for byte; the bodies (35 MB of 62 at
 * 10,800 documents) come from the record cache, so they are neither read nor held twice.
 */
export async function bundleWithoutBodies(path: string, size: number, firstRead = HEAD_BYTES): Promise<Uint8Array | null> {
  const file = await open(path, 'r');
  const read = async (into: Uint8Array, at: number, length: number, position: number) => {
    for (let done = 0; done < length; ) {
      const { bytesRead } = await file.read(into, at + done, length - done, position + done);
      if (bytesRead === 0) throw new RangeError('the bundle is shorter than its pointer says');
      done += bytesRead;
    }
  };
  try {
    const unpackr = newPackr();
    for (let length = Math.min(size, firstRead); ; length = Math.min(size, length * 4)) {
      const head = new Uint8Array(length);
      await read(head, 0, length, 0);
      // The bodies' bin header: where it starts, and how wide its length is.
      let at = -1;
      let width: number | undefined;
      try {
        at = valueAt(head, 0, ['nodes', 'bodies'], unpackr);
        width = ({ 0xc4: 1, 0xc5: 2, 0xc6: 4 } as Record<number, number>)[head[at]!];
        if (width === undefined) return null;
        if (at + 1 + width > length) throw new RangeError('bin header is truncated');
      } catch (error) {
        if (error instanceof RangeError && length < size) continue;
        throw error;
      }
      const view = new DataView(head.buffer, at + 1, width);
      const bodies = width === 1 ? view.getUint8(0) : width === 2 ? view.getUint16(0) : view.getUint32(0);
      const cut = at + 1 + width;
      if (cut + bodies > size) return null;
      const bytes = new Uint8Array(size - bodies);
      bytes.set(head.subarray(0, cut));
      bytes.fill(0, at + 1, cut);
      await read(bytes, cut, size - cut - bodies, cut + bodies);
      return bytes;
    }
  } finally {
    await file.close();
  }
}

/**
 * Records which node (content key) sits at each position of the bundle just written, and the term
 * sets of the nodes whose products the pack memo's file will not hold (`unsaved`: the memo leaves a
 * few new entries out, compiler/cache/rewrite-policy.ts). Without them, editing the same spec twice
 * in a row would find the first edit's products nowhere and check every term's postings.
 */
export async function rememberPack(indexDir: string, bundle: string, keys: readonly string[], unsaved: Record<string, NodeTermSets> = {}): Promise<void> {
  const text = JSON.stringify(inOrder({ format: FORMAT, fingerprint: codeFingerprint(), bundle, keys, terms: unsaved }));
  // A cache like the others: failing to write it only means a full pack next time.
  await writeAtomic(lastPackPath(indexDir), `${text.slice(0, -1)},"crc":${checksum([Buffer.from(text)])}}`).catch(() => undefined);
}

/** The bundle of `input` from the previous one, or null when the patch does not apply. */
export function patchBundle(previous: PreviousPack, input: PackInput, prepared: PreparedNodes, memo?: PackMemo): PackedBundle | null {
  const { packed } = prepared;
  const n = packed.length;
  if (input.vectors || previous.keys.length !== n) return null;
  const changedNodes: number[] = [];
  for (let i = 0; i < n; i++) if (packed[i]!.key !== previous.keys[i]) changedNodes.push(i);
  if (changedNodes.length > Math.max(FEW_CHANGES, n * MAX_CHANGED_SHARE)) return null;
  try {
    // The terms of the changed nodes' previous products, when the memo or the last pack's record still holds them.
    const before = changedNodes.map((i) => {
      const key = previous.keys[i]!;
      const pack = memo?.entries.get(key);
      return pack ? nodeTermSets(pack, prepared.terms) : previous.terms?.get(key);
    });
    return packedParts(splice(previous.bytes, input, prepared, changedNodes, before));
  } catch {
    // Bytes that do not read as this code's bundle: pack in full.
    return null;
  }
}

function splice(bytes: Uint8Array, input: PackInput, { packed, packs, terms }: PreparedNodes, changedNodes: number[], before: readonly (NodeTermSets | undefined)[]): Uint8Array[] {
  const packr = newPackr();
  const n = packed.length;
  // One walk over the bytes: the node and chunk parts' entries, and the spans of their two long
  // arrays (10,800 light maps, 77,000 chunk ids at 10,800 documents), are kept as they are passed.
  const partsOf = new Map<string, Map<string, { start: number; end: number }>>();
  const itemsOf = new Map<string, Uint32Array>();
  const top = mapEntries(bytes, 0, packr, (key, start) => {
    if (key !== 'nodes' && key !== 'chunks') return valueEnd(bytes, start);
    const entries = mapEntries(bytes, start, packr, (inner, at) => {
      if (!(key === 'nodes' ? inner === 'light' : inner === 'ids')) return valueEnd(bytes, at);
      const items = arrayItems(bytes, at);
      itemsOf.set(key, items);
      return items[items.length - 1]!;
    });
    partsOf.set(key, entries);
    return entries.size > 0 ? [...entries.values()].at(-1)!.end : valueEnd(bytes, start);
  });
  if (!sameKeys(top, TOP)) throw new Error('another bundle layout');
  const span = (entry: { start: number; end: number }) => bytes.subarray(entry.start, entry.end);
  const value = (entry: { start: number; end: number }) => packr.unpack(span(entry)) as unknown;
  const nodesPart = partsOf.get('nodes')!;
  const chunksPart = partsOf.get('chunks')!;
  if (!sameKeys(nodesPart, NODES) || !sameKeys(chunksPart, CHUNKS) || !itemsOf.has('nodes') || !itemsOf.has('chunks')) throw new Error('another bundle layout');

  // Where each node's chunks sit before and after.
  const oldCount = value(chunksPart.get('count')!) as number;
  const oldNode = decodeUints(value(chunksPart.get('node')!), oldCount, 'chunk node');
  const oldStart = new Uint32Array(n + 1);
  for (let c = 0, i = 0; i <= n; i++) {
    while (c < oldCount && oldNode[c]! < i) c++;
    oldStart[i] = c;
  }
  const changed = new Uint8Array(n);
  for (const i of changedNodes) changed[i] = 1;
  const chunkStart = new Uint32Array(n + 1);
  for (let i = 0; i < n; i++) {
    const count = chunkCount(packs[i]!);
    if (!changed[i] && count !== oldStart[i + 1]! - oldStart[i]!) throw new Error('an unchanged node has other chunks');
    chunkStart[i + 1] = chunkStart[i]! + count;
  }
  const chunkMap = new Int32Array(oldCount).fill(-1);
  for (let i = 0; i < n; i++) if (!changed[i]) for (let c = oldStart[i]!; c < oldStart[i + 1]!; c++) chunkMap[c] = c - oldStart[i]! + chunkStart[i]!;
  const changes: Changes = { nodes: changedNodes, changed, chunkMap, chunkStart, affected: affectedTerms(changedNodes, before, packs, terms, (i) => chunkStart[i + 1]! - chunkStart[i]! !== oldStart[i + 1]! - oldStart[i]!) };

  const nodes = packed.map((p) => p.node);
  const plain = plainParts(input, nodes);
  const search = value(top.get('search')!) as SerializedTextIndex;
  const text = patchTextIndex(search, packs, terms, changes) ?? assembleTextIndex(packs, terms, packs.map((pack) => pack.keys));
  const chunkSearch = patchChunkIndex(value(top.get('chunk_search')!) as SerializedChunkIndex, packs, terms, changes);

  // Unchanged runs of an array's items are copied from the previous bytes; changed nodes' items encoded.
  const splicedItems = (items: Uint32Array, starts: Uint32Array, encode: (node: number) => Uint8Array[]): Uint8Array[] => {
    const parts: Uint8Array[] = [];
    let run = 0;
    for (const i of [...changedNodes, n]) {
      if (starts[run]! < starts[i]!) parts.push(bytes.subarray(items[starts[run]!]!, items[starts[i]!]!));
      if (i < n) parts.push(...encode(i)), (run = i + 1);
    }
    return parts;
  };
  const positions = Uint32Array.from({ length: n + 1 }, (_, i) => i);
  const light = splicedItems(itemsOf.get('nodes')!, positions, (i) => [packCopy(packr, lightNode(nodes[i]!))]);
  const bodyOffsets = new Array<number>(n + 1);
  bodyOffsets[0] = 0;
  packed.forEach((p, i) => (bodyOffsets[i + 1] = bodyOffsets[i]! + p.body.length));

  // Chunk ids without their node prefix (`full`: positions of ids stored whole), and the columns.
  const full: number[] = [];
  for (const old of value(chunksPart.get('full')!) as number[]) if (chunkMap[old]! >= 0) full.push(chunkMap[old]!);
  const ids = splicedItems(itemsOf.get('chunks')!, oldStart, (i) =>
    packs[i]!.chunkIds.map((id, k) => {
      const prefix = `${nodes[i]!.id}#`;
      if (id.startsWith(prefix)) return packCopy(packr, id.slice(prefix.length));
      full.push(chunkStart[i]! + k);
      return packCopy(packr, id);
    }),
  );
  full.sort((a, b) => a - b);
  const total = chunkStart[n]!;
  // Unchanged nodes keep their positions, so their rows (node position included) are copied as they
  // are, one run between changed nodes at a time (a copy per node was most of the patch's CPU).
  const columns = COLUMNS.map((name, column) => {
    const before = (name === 'node' ? oldNode : decodeUints(value(chunksPart.get(name)!), oldCount, `chunk ${name}`)) as Uint32Array;
    const after = new Uint32Array(total);
    let run = 0;
    for (const i of [...changedNodes, n]) {
      after.set(before.subarray(oldStart[run]!, oldStart[i]!), chunkStart[run]!);
      if (i === n) break;
      for (let k = 0; k < chunkStart[i + 1]! - chunkStart[i]!; k++) after[chunkStart[i]! + k] = column === 0 ? i : packs[i]!.chunkRows[k * 5 + column - 1]!;
      run = i + 1;
    }
    return asBin(encodeUints(after));
  });

  const values: Record<string, Uint8Array | Uint8Array[]> = {
    format: packCopy(packr, plain.format),
    manifest: packCopy(packr, plain.manifest),
    nodes: mapParts(packr, NODES, [[arrayHeader(packr, n), ...light], [binHeader(bodyOffsets[n]!), ...packed.map((p) => p.body)], asBin(u32ToBytes(bodyOffsets))]),
    edges: packedGraphPart(plain.edges, () => packCopy(packr, plain.edges)),
    layer_violations: packedGraphPart(input.layer_violations, () => packCopy(packr, plain.layer_violations)),
    dangling: packedGraphPart(input.dangling, () => packCopy(packr, plain.dangling)),
    unresolved_ids: packedGraphPart(input.unresolved_ids, () => packCopy(packr, plain.unresolved_ids)),
    search: msgpackPieces(text, packr, 1),
    chunk_search: msgpackPieces(chunkSearch, packr, 1),
    chunks: mapParts(packr, CHUNKS, [packCopy(packr, total), [arrayHeader(packr, total), ...ids], packCopy(packr, full), ...columns]),
    vectors: packCopy(packr, null),
  };
  const keys = [...top.keys()];
  return mapParts(packr, keys, keys.map((key) => values[key]!));
}

/** A byte array as msgpack `bin`, without copying it. */
function asBin(bytes: Uint8Array): Uint8Array[] {
  return [binHeader(bytes.length), bytes];
}

/**
 * The terms whose postings the changed nodes change: those whose tf in a changed node's fields, or
 * whose chunks and tfs in its chunks, differ between its previous products (`before`) and its new
 * ones (a term it gained or lost included). Every other term's postings are the same bytes (same
 * positions, same tfs) and are copied. Null when a previous product is unknown; chunk terms null
 * when some changed node's chunk count moved (`moved`): the chunks after it moved too.
 */
function affectedTerms(changedNodes: readonly number[], before: readonly (NodeTermSets | undefined)[], packs: readonly NodePack[], terms: readonly string[], moved: (node: number) => boolean): Changes['affected'] {
  if (before.some((sets) => sets === undefined)) return null;
  const text = new Set<string>();
  const chunks = new Set<string>();
  const differing = (into: Set<string>, was: readonly string[], wasTfs: readonly string[], now: readonly string[], nowTfs: readonly string[]) => {
    const old = new Map(was.map((term, i) => [term, wasTfs[i]!]));
    now.forEach((term, i) => {
      if (old.get(term) !== nowTfs[i]) into.add(term);
      old.delete(term);
    });
    for (const term of old.keys()) into.add(term);
  };
  changedNodes.forEach((node, i) => {
    const was = before[i]!;
    const now = nodeTermSets(packs[node]!, terms);
    differing(text, was.text, was.textTfs, now.text, now.textTfs);
    differing(chunks, was.chunks, was.chunkTfs, now.chunks, now.chunkTfs);
  });
  return { text, chunks: changedNodes.some(moved) ? null : chunks };
}

function sameKeys(entries: ReadonlyMap<string, unknown>, expected: readonly string[]): boolean {
  return entries.size === expected.length && expected.every((key) => entries.has(key));
}
