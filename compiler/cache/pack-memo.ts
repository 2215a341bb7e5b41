/**
 * Pack cache: the per-node products of the pack stage, so a one-document edit re-tokenises and
 * re-chunks one node instead of all of them (compiler/pack/pack.ts `packBundle(input, { memo })`).
 *
 * Per node, keyed by the SHA-256 of the node's canonical JSON as packed (enrichment section
 * included), so an entry is valid for any tree and any position of the node:
 * - the text-index terms ({@link NodeTerms}: tokens per field, `[term, field << 12 | tf]` pairs);
 * - its exact-match keys;
 * - its chunks (`chunkAll`: id, position, section, start, end, embeddable) and each chunk's
 *   `[term, tf]` pairs for the chunk index.
 * Term ids index one vocabulary shared by every entry. Postings are assembled from these lists
 * (`assembleTextIndex`, `assembleChunkIndex`), which give the bytes a cold build gives.
 *
 * On disk: one file `.kdd-index/.cache/pack` (git-ignored folder, see record-cache.ts). A build
 * reads its header (vocabulary, keys, lengths, one CRC per entry) and only the entries it decodes
 * (a one-edit build: the edited nodes' previous products, a few kilobytes of 40 MB at 10,800
 * documents); it is rewritten atomically with the entries the last pack used, those read from it
 * copied back byte for byte. Never the source of truth: a missing, unreadable or foreign file
 * (format, or written by other code: compiler/cache/code-fingerprint.ts) is ignored.
 */
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { newPackr } from '../../formats/msgpack.js';
import type { NodeTerms } from '../../runtime/search/bm25f.js';
import { TermIds } from '../../runtime/search/term-ids.js';
import { rememberTermOrder, termOrder } from '../../runtime/search/postings.js';
import { bytesToU32, ownedBytes } from '../../formats/bytes.js';
import { writeAtomicParts, writeIfChanged } from '../atomic.js';
import { checksum } from './checksum.js';
import { codeFingerprint } from './code-fingerprint.js';
import { worthRewriting } from './rewrite-policy.js';
import { CACHE_DIR } from './record-cache.js';

const FORMAT = 'kdd-pack-cache/5';

/** Pack products of one node (position-independent). `terms`: `[term, field << 12 | tf]` pairs. */
export interface NodePack extends NodeTerms {
  lens: number[];
  terms: Uint32Array;
  keys: string[];
  /** Chunk ids (chunkAll order). */
  chunkIds: string[];
  /** Per chunk: position, section, start, end, embeddable (0/1). */
  chunkRows: number[];
  /** Every chunk's `[term, tf]` pairs, concatenated; chunk i's end in `chunkEnds[i]`. */
  chunkTerms: Uint32Array;
  chunkEnds: number[];
}

export interface PackMemo {
  vocab: TermIds;
  entries: Map<string, NodePack>;
  /** Keys the last pack used (what is saved). */
  used: Set<string>;
  /** Entries computed since the memo was created or read; entries it was read with. */
  added: number;
  stored: number;
}

export function createPackMemo(): PackMemo {
  return { vocab: new TermIds(), entries: new Map(), used: new Set(), added: 0, stored: 0 };
}

export function packMemoPath(indexDir: string): string {
  return join(indexDir, CACHE_DIR, 'pack');
}

/**
 * The products of the node with content key `key` (compiler/cache/packed-node.ts), computed by
 * `compute` and stored when missing; marks the entry used. The pack stage supplies `compute`
 * (compiler/pack/node-pack.ts), so the memo depends on no stage.
 */
export function memoNodePack(memo: PackMemo, key: string, compute: () => NodePack): NodePack {
  let pack = memo.entries.get(key);
  if (!pack) memo.entries.set(key, (pack = compute())), memo.added++;
  memo.used.add(key);
  return pack;
}

/** An entry's light part: key, lens, terms length, exact keys, chunk ids, chunk rows, chunk ends. */
type StoredMeta = [key: string, lens: number[], terms: number, keys: string[], chunkIds: string[], chunkRows: number[], chunkEnds: number[]];

interface Header {
  format: string;
  fingerprint: string;
  /**
   * The vocabulary, then every entry's key, each `\n`-joined as UTF-8 (terms are letter and digit
   * runs, keys base64: no newline in either). Split natively, 57,000 terms and 10,800 keys cost a
   * fresh process a few milliseconds, where msgpackr decoded them one string at a time; both are
   * covered by the CRC.
   */
  terms: Uint8Array;
  keys: Uint8Array;
  /** Vocabulary size right after the last compaction: the next one waits until it has grown by a quarter. */
  base: number;
  /** Term ids in term order (u32 LE), so the next pack does not sort the vocabulary again. */
  order?: Uint8Array;
  /** Per entry: byte length of its light part (unpadded), of its term ids, then its chunk count. */
  lengths: number[];
  /** Per entry: compiler/cache/checksum.ts of its bytes (u32 LE), checked when the entry is read. */
  crcs: Uint8Array;
  /** compiler/cache/checksum.ts of `terms`, `keys` and `crcs`. */
  crc: number;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const pad4 = (n: number) => (n + 3) & ~3;

const utf8 = new TextDecoder();
const utf8Encoder = new TextEncoder();
const lines = (bytes: Uint8Array) => (bytes.length === 0 ? [] : utf8.decode(bytes).split('\n'));
/** Vocabulary size after the last compaction, per memo read from a file. */
const compactedAt = new WeakMap<PackMemo, number>();

/**
 * The memo saved in `file`, or an empty one when there is none (or it does not fit this code).
 *
 * Layout: u32 (LE) header length, msgpack {@link Header}, zero padding to a multiple of 4, then per
 * entry its msgpack light part padded to a multiple of 4 and its u32 (LE) term ids (`terms` then
 * `chunkTerms`). Only the header is read here; each entry is read when first decoded
 * ({@link EntrySource}), so its id columns start 4-byte aligned in a buffer of their own.
 */
export async function readPackMemo(file: string): Promise<PackMemo> {
  try {
    const source = EntrySource.open(file);
    if (source === null) return createPackMemo();
    const header = source.header as Header;
    if (header?.format !== FORMAT || header.fingerprint !== codeFingerprint() || !(header.terms instanceof Uint8Array) || !(header.keys instanceof Uint8Array) || !(header.crcs instanceof Uint8Array) || !Array.isArray(header.lengths)) return createPackMemo();
    if (header.crc !== checksum([header.terms, header.keys, header.crcs])) return createPackMemo();
    const terms = lines(header.terms);
    const keys = lines(header.keys);
    const crcs = bytesToU32(header.crcs);
    // A valid order (strictly increasing) also proves the terms distinct: the vocabulary then finds
    // them by binary search in it, without a map of all of them.
    const stored = header.order instanceof Uint8Array && header.order.length === terms.length * 4 ? bytesToU32(header.order) : null;
    const order = stored && isTermOrder(terms, stored) ? stored : null;
    const vocab = new TermIds(terms, order ?? undefined);
    if (vocab.size !== terms.length || keys.length * 3 !== header.lengths.length || crcs.length !== keys.length) return createPackMemo();
    const limit = vocab.size;
    if (order) rememberTermOrder(vocab.terms, order);
    const memo: PackMemo = { vocab, entries: new Map(), used: new Set(), added: 0, stored: 0 };
    const unpackr = newPackr();
    let at = source.start;
    for (let i = 0; i < header.lengths.length; i += 3) {
      const metaLength = header.lengths[i]!;
      const idsLength = header.lengths[i + 1]!;
      const chunks = header.lengths[i + 2]!;
      if (!Number.isInteger(metaLength) || metaLength < 0 || !Number.isInteger(idsLength) || idsLength < 0 || !Number.isInteger(chunks) || idsLength % 4 !== 0) return createPackMemo();
      const length = pad4(metaLength) + idsLength;
      const key = keys[i / 3]!;
      memo.entries.set(key, new StoredPack(key, source, at, length, crcs[i / 3]!, metaLength, chunks, limit, unpackr));
      at += length;
    }
    if (at !== source.size) return createPackMemo();
    memo.stored = memo.entries.size;
    compactedAt.set(memo, typeof header.base === 'number' ? header.base : limit);
    return memo;
  } catch {
    return createPackMemo();
  }
}

/**
 * Where the entries of a memo file are read from: a few entries with a positioned read each; past
 * {@link EntrySource.FEW} (a full pack, a compaction, a memo written back), the whole file once.
 */
class EntrySource {
  /** Entries read one by one before the whole file is read instead. */
  static readonly FEW = 8;
  private reads = 0;
  private bytes: Uint8Array | null = null;

  private constructor(
    private readonly file: string,
    /** The file's size when its header was read: a file of another size is not the one the header describes. */
    readonly size: number,
    /** Where the entries start. */
    readonly start: number,
    readonly header: unknown,
  ) {}

  /** The file's header, or null when there is no file or it is not framed so. */
  static open(file: string): EntrySource | null {
    let fd: number;
    try {
      fd = openSync(file, 'r');
    } catch {
      return null;
    }
    try {
      const size = fstatSync(fd).size;
      const prefix = new Uint8Array(4);
      if (size < 4 || readSync(fd, prefix, 0, 4, 0) !== 4) return null;
      const headerLength = new DataView(prefix.buffer).getUint32(0, true);
      if (4 + headerLength > size) return null;
      const head = new Uint8Array(headerLength);
      if (readSync(fd, head, 0, headerLength, 4) !== headerLength) return null;
      return new EntrySource(file, size, pad4(4 + headerLength), newPackr().unpack(head));
    } finally {
      closeSync(fd);
    }
  }

  /**
   * The `length` bytes at `at`, in a buffer of their own (aligned), or a view of the whole file once
   * read. A file gone, unreadable or of another size throws {@link PackMemoCorrupt}: the build packs
   * without the memo, as for any entry that does not fit.
   */
  read(at: number, length: number): Uint8Array {
    try {
      if (this.bytes === null && ++this.reads > EntrySource.FEW) this.readAll();
      if (this.bytes !== null) return this.bytes.subarray(at, at + length);
      const out = new Uint8Array(length);
      const fd = openSync(this.file, 'r');
      try {
        if (fstatSync(fd).size !== this.size || readSync(fd, out, 0, length, at) !== length) throw new PackMemoCorrupt();
      } finally {
        closeSync(fd);
      }
      return out;
    } catch (error) {
      throw error instanceof PackMemoCorrupt ? error : new PackMemoCorrupt();
    }
  }

  private readAll(): void {
    const bytes = readFileSync(this.file);
    if (bytes.length !== this.size) throw new PackMemoCorrupt();
    // Aligned plain view (msgpackr treats Node Buffers specially; Uint32Array views need alignment).
    this.bytes = bytes.byteOffset % 4 === 0 ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) : Uint8Array.prototype.slice.call(bytes);
  }
}

/** Whether `order` lists every id of `terms` once, by increasing term. */
function isTermOrder(terms: readonly string[], order: Uint32Array): boolean {
  for (let k = 0; k < order.length; k++) {
    if (order[k]! >= terms.length) return false;
    if (k > 0 && !(terms[order[k - 1]!]! < terms[order[k]!]!)) return false;
  }
  return true;
}

/**
 * An entry of the file, read and decoded on first access: a one-edit build reads the products of the
 * few nodes it changed, not of 10,800 (their decoding, checks and garbage were a sixth of that
 * build). An entry whose bytes fail their CRC, or whose decoded parts do not fit together or with
 * the header (the lengths and keys are not covered by the entries' CRCs), or index past the
 * vocabulary, throws {@link PackMemoCorrupt} when first read, and the build packs again with an
 * empty memo (compiler/pipeline.ts).
 */
class StoredPack implements NodePack {
  #decoded: NodePack | null = null;
  #entry: Uint8Array | null = null;
  constructor(
    /** The key the header lists it under: its light part must start with the same. */
    private readonly key: string,
    private readonly source: EntrySource,
    private readonly at: number,
    private readonly length: number,
    /** The CRC the header lists for its bytes (copied as it is when the entry is written back). */
    readonly crc: number,
    /** Unpadded length of its light part. */
    readonly metaLength: number,
    /** Chunk count as the header lists it (the patch reads it for every node). */
    readonly chunkCount: number,
    private readonly limit: number,
    private readonly unpackr: ReturnType<typeof newPackr>,
  ) {}
  get lens() { return this.decoded().lens; }
  get terms() { return this.decoded().terms; }
  get keys() { return this.decoded().keys; }
  get chunkIds() { return this.decoded().chunkIds; }
  get chunkRows() { return this.decoded().chunkRows; }
  get chunkTerms() { return this.decoded().chunkTerms; }
  get chunkEnds() { return this.decoded().chunkEnds; }

  /** Its bytes in the file, checked: written back verbatim while term ids keep their meaning (no compaction). */
  get entry(): Uint8Array {
    if (this.#entry) return this.#entry;
    const bytes = this.source.read(this.at, this.length);
    if (checksum([bytes]) !== this.crc) throw new PackMemoCorrupt();
    return (this.#entry = bytes);
  }

  private decoded(): NodePack {
    if (this.#decoded) return this.#decoded;
    const [key, lens, termCount, keys, chunkIds, chunkRows, chunkEnds] = this.unpackr.unpack(this.entry.subarray(0, this.metaLength)) as StoredMeta;
    const ids = u32View(this.entry.subarray(pad4(this.metaLength)));
    const terms = ids.subarray(0, termCount);
    const chunkTerms = ids.subarray(termCount);
    // Term ids must be in range (a corrupt entry would index past the vocabulary).
    let valid = key === this.key && terms.length % 2 === 0 && chunkIds.length === this.chunkCount && chunkIds.length * 5 === chunkRows.length && chunkEnds.length === chunkIds.length && (chunkEnds.at(-1) ?? 0) === chunkTerms.length;
    for (let k = 0; valid && k < ids.length; k += 2) if (ids[k]! >= this.limit) valid = false;
    if (!valid) throw new PackMemoCorrupt();
    return (this.#decoded = { lens, terms, keys, chunkIds, chunkRows, chunkTerms, chunkEnds });
  }
}

/** A memo entry read from a file turned out not to decode: the pack starts again without the memo. */
export class PackMemoCorrupt extends Error {
  constructor() {
    super('pack cache entry does not fit its file');
  }
}

/** How many chunks `pack` has, without decoding an entry read from the file. */
export function chunkCount(pack: NodePack): number {
  return pack instanceof StoredPack ? pack.chunkCount : pack.chunkIds.length;
}

function u32View(bytes: Uint8Array): Uint32Array {
  if (!LITTLE_ENDIAN) return bytesToU32(bytes);
  return new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >>> 2);
}

/** Whether {@link writePackMemo} writes `memo` (else the file keeps what it held). */
export function memoRewritten(memo: PackMemo): boolean {
  return worthRewriting(memo.stored, memo.used.size - memo.added, memo.added);
}

/** Whether `pack` was read from the memo's file (so the file still holds it when not rewritten). */
export function readFromFile(pack: NodePack): boolean {
  return pack instanceof StoredPack;
}

/** Saves the entries the last pack used (atomically); a vocabulary grown mostly stale is compacted. */
export async function writePackMemo(file: string, memo: PackMemo): Promise<void> {
  if (!memoRewritten(memo)) return;
  const kept = [...memo.used].filter((key) => memo.entries.has(key)).sort();
  let terms = memo.vocab.terms;
  let base = compactedAt.get(memo) ?? 0;
  let remap: Uint32Array | null = null;
  // Term ids only ever get added; entries that left free theirs. Look for stale ones (a pass over
  // every id) only once the vocabulary has grown by a quarter since it was last compacted.
  if (terms.length > base * 1.25) {
    const seen = new Uint8Array(terms.length);
    let count = 0;
    for (const key of kept) {
      const pack = memo.entries.get(key)!;
      for (const list of [pack.terms, pack.chunkTerms]) for (let k = 0; k < list.length; k += 2) if (!seen[list[k]!]) (seen[list[k]!] = 1), count++;
    }
    if (count < terms.length * 0.8) {
      remap = new Uint32Array(terms.length);
      const compact: string[] = [];
      for (let t = 0; t < terms.length; t++) if (seen[t]) remap[t] = compact.push(terms[t]!) - 1;
      terms = compact;
    }
    base = terms.length;
  }
  const packr = newPackr();
  const parts: Uint8Array[] = [];
  const lengths: number[] = [];
  const crcs = new Uint32Array(kept.length);
  kept.forEach((key, i) => {
    const pack = memo.entries.get(key)!;
    const stored = !remap && pack instanceof StoredPack ? pack : undefined;
    const entry = stored ? { parts: [stored.entry], metaLength: stored.metaLength, idsLength: stored.entry.length - pad4(stored.metaLength) } : encodeEntry(packr, key, pack, remap);
    parts.push(...entry.parts);
    lengths.push(entry.metaLength, entry.idsLength, chunkCount(pack));
    crcs[i] = stored ? stored.crc : checksum(entry.parts);
  });
  const crcBytes = ownedBytes(crcs);
  // Plain Uint8Arrays (not Buffers), as every binary this codec writes or reads (see formats/bundle/bundle.ts).
  const joinedTerms = utf8Encoder.encode(terms.join('\n'));
  const joinedKeys = utf8Encoder.encode(kept.join('\n'));
  const header = packr.pack({ format: FORMAT, fingerprint: codeFingerprint(), terms: joinedTerms, keys: joinedKeys, base, lengths, crcs: crcBytes, order: ownedBytes(termOrder(terms)), crc: checksum([joinedTerms, joinedKeys, crcBytes]) } satisfies Header);
  // u32 header length, header, zero padding to 4: entries start aligned.
  const head = new Uint8Array(pad4(4 + header.length));
  new DataView(head.buffer).setUint32(0, header.length, true);
  head.set(header, 4);
  await writeAtomicParts(file, [head, ...parts]);
  await writeIfChanged(join(dirname(file), '.gitignore'), '*\n');
}

/**
 * One entry's bytes as pieces: light part with its zero padding to 4, then its term ids (`terms`
 * then `chunkTerms`). On little-endian machines, unless renumbered by `remap`, the ids are byte
 * views of the products themselves: copying them made the whole memo (200 MB at 54,000 documents)
 * exist twice at the end of a full build.
 */
function encodeEntry(packr: ReturnType<typeof newPackr>, key: string, pack: NodePack, remap: Uint32Array | null): { parts: Uint8Array[]; metaLength: number; idsLength: number } {
  const meta = packr.pack([key, pack.lens, pack.terms.length, pack.keys, pack.chunkIds, pack.chunkRows, pack.chunkEnds] satisfies StoredMeta);
  const metaLength = meta.length;
  // A copy: the packer reuses its buffer.
  const head = new Uint8Array(pad4(metaLength));
  head.set(meta, 0);
  const idsLength = (pack.terms.length + pack.chunkTerms.length) * 4;
  if (LITTLE_ENDIAN && !remap) return { parts: [head, ownedBytes(pack.terms), ownedBytes(pack.chunkTerms)], metaLength, idsLength };
  const ids = new Uint32Array(pack.terms.length + pack.chunkTerms.length);
  ids.set(pack.terms, 0);
  ids.set(pack.chunkTerms, pack.terms.length);
  if (remap) for (let k = 0; k < ids.length; k += 2) ids[k] = remap[ids[k]!]!;
  return { parts: [head, ownedBytes(ids)], metaLength, idsLength };
}
