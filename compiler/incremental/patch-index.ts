/**
 * The previous bundle's two inverted indexes, patched for the nodes that changed in place (same
 * node count, same positions): postings of changed nodes are dropped and theirs added again, every
 * other posting is copied. The output equals `assembleTextIndex` / `assembleChunkIndex` over the new
 * products, byte for byte (test/compiler/patch-bundle.test.ts); a case the patch does not cover
 * returns null and the caller assembles in full.
 */
import { bytesToU16, bytesToU32, u16ToBytes, u32ToBytes } from '../../formats/bytes.js';
import type { SerializedTextIndex } from '../../runtime/search/bm25f.js';
import { forEachPosting, type SerializedChunkIndex } from '../../runtime/search/chunk-index.js';
import type { NodePack } from '../cache/pack-memo.js';

/** Which nodes changed, and where their chunks sit before and after. */
export interface Changes {
  /** Changed node positions, ascending. */
  nodes: readonly number[];
  /** 1 at each changed node position. */
  changed: Uint8Array;
  /** New chunk position of each old chunk, or -1 (a chunk of a changed node). */
  chunkMap: Int32Array;
  /** First new chunk of each node (nodes + 1 entries). */
  chunkStart: Uint32Array;
  /**
   * Terms the changed nodes had or have (in their fields, in their chunks), when their previous
   * products are known (the pack memo holds them): every other term's postings are copied in runs
   * without looking at them (chunk terms: only when no chunk moved). Null: each term's postings are checked.
   */
  affected: { text: ReadonlySet<string>; chunks: ReadonlySet<string> | null } | null;
}

/** Term → flat `[item, tf, item, tf, …]`, items ascending: the postings the changed nodes add. */
type Additions = Map<string, number[]>;

/**
 * The text index of the new products from the previous one, or null when a changed node's exact
 * keys (id, title, file name, aliases) moved: the key table is then built in full.
 */
export function patchTextIndex(previous: SerializedTextIndex, packs: readonly NodePack[], terms: readonly string[], changes: Changes): SerializedTextIndex | null {
  const fields = previous.fields.length;
  if (previous.nodes !== packs.length || previous.lens.byteLength !== packs.length * fields * 2 || !sameKeys(previous, packs, changes)) return null;
  const added: Additions = new Map();
  for (const doc of changes.nodes) {
    const list = packs[doc]!.terms;
    for (let k = 0; k < list.length; k += 2) push(added, terms[list[k]!]!, doc, list[k + 1]!);
  }
  const lens = bytesToU16(previous.lens);
  for (const doc of changes.nodes) for (let f = 0; f < fields; f++) lens[doc * fields + f] = packs[doc]!.lens[f]!;
  const docs = bytesToU32(previous.docs);
  const tfs = bytesToU16(previous.tfs);
  const offsets = bytesToU32(previous.offsets);
  const { changed } = changes;
  let extra = 0;
  for (const list of added.values()) extra += list.length >> 1;
  const outDocs = new Uint32Array(docs.length + extra);
  const outTfs = new Uint16Array(docs.length + extra);
  const out = patchPostings(previous.terms, offsets, added, changes.affected?.text, (from, to, at) => (outDocs.set(docs.subarray(from, to), at), outTfs.set(tfs.subarray(from, to), at)), (from, to, pending, at) => {
    let n = at;
    let next = 0;
    for (let q = from; q < to; q++) {
      const doc = docs[q]!;
      if (changed[doc]) continue;
      while (next < pending.length && pending[next]! < doc) (outDocs[n] = pending[next]!), (outTfs[n++] = pending[next + 1]!), (next += 2);
      outDocs[n] = doc;
      outTfs[n++] = tfs[q]!;
    }
    while (next < pending.length) (outDocs[n] = pending[next]!), (outTfs[n++] = pending[next + 1]!), (next += 2);
    return n;
  });
  return { ...previous, terms: out.terms, offsets: leBytes(out.offsets), docs: leBytes(outDocs.subarray(0, out.end)), tfs: leBytes(outTfs.subarray(0, out.end)), lens: leBytes(lens) };
}

/**
 * The chunk index of the new products from the previous one. A term the changed chunks neither had
 * nor have, whose chunks kept their positions, keeps its bytes; the others are decoded and written
 * again as gap varints, as `assembleChunkIndex` writes them.
 */
export function patchChunkIndex(previous: SerializedChunkIndex, packs: readonly NodePack[], terms: readonly string[], changes: Changes): SerializedChunkIndex {
  const added: Additions = new Map();
  let extra = 0;
  for (const node of changes.nodes) {
    const pack = packs[node]!;
    let from = 0;
    pack.chunkEnds.forEach((end, k) => {
      for (let q = from; q < end; q += 2) push(added, terms[pack.chunkTerms[q]!]!, changes.chunkStart[node]! + k, Math.min(pack.chunkTerms[q + 1]!, 255)), extra++;
      from = end;
    });
  }
  const postings = previous.postings;
  const offsets = bytesToU32(previous.offsets);
  const { chunkMap } = changes;
  let out = new Uint8Array(postings.length + extra * 6 + 16);
  let b = 0;
  let last = 0;
  /** Grows the output to hold `until` bytes (runs are copied ahead of `b`: keep everything). */
  const room = (until: number) => {
    if (out.length >= until) return;
    const grown = new Uint8Array(Math.max(out.length * 2, until));
    grown.set(out);
    out = grown;
  };
  const put = (chunk: number, tf: number) => {
    room(b + 8);
    let gap = chunk - last;
    last = chunk;
    while (gap >= 0x80) {
      out[b++] = (gap & 0x7f) | 0x80;
      gap >>>= 7;
    }
    out[b++] = gap;
    out[b++] = tf;
  };
  const patched = patchPostings(previous.terms, offsets, added, changes.affected?.chunks, (from, to, at) => (room(at + to - from), out.set(postings.subarray(from, to), at)), (from, to, pending, at) => {
    b = at;
    if (pending.length === 0 && keepsPositions(postings, from, to, chunkMap)) {
      room(b + to - from);
      out.set(postings.subarray(from, to), b);
      return b + (to - from);
    }
    last = 0;
    let next = 0;
    forEachPosting(postings, from, to, (chunk, tf) => {
      const moved = chunkMap[chunk]!;
      if (moved < 0) return;
      while (next < pending.length && pending[next]! < moved) put(pending[next]!, pending[next + 1]!), (next += 2);
      put(moved, tf);
    });
    while (next < pending.length) put(pending[next]!, pending[next + 1]!), (next += 2);
    return b;
  });
  return { ...previous, chunks: changes.chunkStart[packs.length]!, terms: patched.terms, offsets: leBytes(patched.offsets), postings: out.slice(0, patched.end) };
}

/**
 * Consecutive slices of the previous postings that go out unchanged, copied with one call once the
 * run ends (the slices of consecutive unaffected terms are adjacent on both sides).
 */
class Run {
  private from = 0;
  private to = 0;
  private at = 0;
  constructor(private readonly copy: (from: number, to: number, at: number) => void) {}

  /** Adds the slice `[from, to)`, to land at output position `at`; returns the output position after it. */
  add(from: number, to: number, at: number): number {
    if (this.to !== from || this.to === this.from) this.flush(), (this.from = from), (this.at = at);
    this.to = to;
    return at + (to - from);
  }

  flush(): void {
    if (this.to > this.from) this.copy(this.from, this.to, this.at);
    this.from = this.to = 0;
  }
}

/**
 * The new postings, term by term (code-unit order, {@link walkTerms}): a previous term outside
 * `affected` keeps its slice `offsets[k]..offsets[k+1]`, copied with its unaffected neighbours by
 * one `copy(from, to, at)`; every other term goes through `write(from, to, pending, at)`, which
 * writes the postings that stay merged with the added ones at output position `at` and returns
 * the end. Terms left without postings are dropped.
 */
function patchPostings(
  joined: string,
  offsets: Uint32Array,
  added: Additions,
  affected: ReadonlySet<string> | null | undefined,
  copy: (from: number, to: number, at: number) => void,
  write: (from: number, to: number, pending: readonly number[], at: number) => number,
): { terms: string; offsets: Uint32Array; end: number } {
  const ends: number[] = [0];
  let end = 0;
  const run = new Run(copy);
  const terms = walkTerms(joined, added, (term, k, pending) => {
    if (k >= 0 && affected && !affected.has(term)) {
      ends.push((end = run.add(offsets[k]!, offsets[k + 1]!, end)));
      return true;
    }
    run.flush();
    const next = write(k < 0 ? 0 : offsets[k]!, k < 0 ? 0 : offsets[k + 1]!, pending, end);
    if (next === end) return false;
    ends.push((end = next));
    return true;
  });
  run.flush();
  return { terms, offsets: Uint32Array.from(ends), end };
}

/** Whether every chunk of the postings `[from, to)` keeps its position. */
function keepsPositions(postings: Uint8Array, from: number, to: number, chunkMap: Int32Array): boolean {
  let kept = true;
  forEachPosting(postings, from, to, (chunk) => {
    if (chunkMap[chunk] !== chunk) kept = false;
  });
  return kept;
}

function push(added: Additions, term: string, item: number, tf: number): void {
  const list = added.get(term);
  if (list) list.push(item, tf);
  else added.set(term, [item, tf]);
}

/**
 * Visits the previous terms (sorted, `\n`-joined; `k` = position) and the added ones not among them
 * (`k` = -1) in code-unit order, with each term's added postings. `visit` returns whether the term
 * still has postings; the kept terms, `\n`-joined, are returned.
 */
function walkTerms(joined: string, added: Additions, visit: (term: string, k: number, pending: readonly number[]) => boolean): string {
  const previous = joined === '' ? [] : joined.split('\n');
  const fresh = [...added.keys()].filter((term) => !has(previous, term)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const none: number[] = [];
  const kept: string[] = [];
  let i = 0;
  let j = 0;
  while (i < previous.length || j < fresh.length) {
    const term = j >= fresh.length || (i < previous.length && previous[i]! < fresh[j]!) ? previous[i]! : fresh[j]!;
    const k = term === previous[i] ? i++ : (j++, -1);
    if (visit(term, k, added.get(term) ?? none)) kept.push(term);
  }
  return kept.join('\n');
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Little-endian bytes of a u16/u32 array (formats/bytes.ts): a view on little-endian machines. */
function leBytes(values: Uint16Array | Uint32Array): Uint8Array {
  if (!LITTLE_ENDIAN) return values instanceof Uint16Array ? u16ToBytes(values) : u32ToBytes(values);
  return new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
}

/** Binary search in a sorted list (code-unit order). */
function has(sorted: readonly string[], term: string): boolean {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] === term) return true;
    if (sorted[mid]! < term) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/** Whether each changed node has, in the previous exact-key table, exactly the keys it has now. */
function sameKeys(previous: SerializedTextIndex, packs: readonly NodePack[], changes: Changes): boolean {
  if (previous.keys === undefined || !previous.key_offsets || !previous.key_nodes) return false;
  const keys = previous.keys === '' ? [] : previous.keys.split('\n');
  const offsets = bytesToU32(previous.key_offsets);
  const nodes = bytesToU32(previous.key_nodes);
  const before = new Map<number, Set<string>>(changes.nodes.map((doc) => [doc, new Set()]));
  for (let k = 0; k < keys.length; k++) for (let q = offsets[k]!; q < offsets[k + 1]!; q++) before.get(nodes[q]!)?.add(keys[k]!);
  return changes.nodes.every((doc) => {
    const now = packs[doc]!.keys;
    const was = before.get(doc)!;
    return now.length === was.size && now.every((key) => was.has(key));
  });
}
