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
   * Terms whose contribution the changed nodes changed (in their fields, in their chunks: a tf, a
   * chunk, a term gained or lost), when their previous products are known (the pack memo or the
   * last pack's record holds them): every other term's postings are copied in runs without looking
   * at them (chunk terms: only when no chunk moved). Null: each term's postings are checked.
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
  // A term outside `affected` contributes what it did before: its postings are copied as they are.
  const affected = changes.affected?.text;
  for (const doc of changes.nodes) {
    const list = packs[doc]!.terms;
    for (let k = 0; k < list.length; k += 2) if (!affected || affected.has(terms[list[k]!]!)) push(added, terms[list[k]!]!, doc, list[k + 1]!);
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
  // Known only when no chunk moved: a term outside it has the same chunks and tfs as before, and keeps its bytes.
  const affected = changes.affected?.chunks;
  let extra = 0;
  for (const node of changes.nodes) {
    const pack = packs[node]!;
    let from = 0;
    pack.chunkEnds.forEach((end, k) => {
      for (let q = from; q < end; q += 2) {
        const term = terms[pack.chunkTerms[q]!]!;
        if (!affected || affected.has(term)) push(added, term, changes.chunkStart[node]! + k, Math.min(pack.chunkTerms[q + 1]!, 255)), extra++;
      }
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
  /** Copies the previous bytes `[from, to)` to the output's end. */
  const copy = (from: number, to: number) => {
    if (to <= from) return;
    room(b + to - from);
    out.set(postings.subarray(from, to), b);
    b += to - from;
  };
  const patched = patchPostings(previous.terms, offsets, added, changes.affected?.chunks, (from, to, at) => (room(at + to - from), out.set(postings.subarray(from, to), at)), (from, to, pending, at) => {
    b = at;
    last = 0;
    let next = 0;
    // A posting that keeps its chunk, after the same chunk as before and with nothing added before
    // it, has the same gap: such runs are copied as they are, the rest written again. Most of a
    // long list is one run when no chunk moved.
    let run = from;
    let previousChunk = 0;
    forEachPosting(postings, from, to, (chunk, tf, start, end) => {
      const moved = chunkMap[chunk]!;
      const after = previousChunk;
      previousChunk = chunk;
      if (moved === chunk && last === after && !(next < pending.length && pending[next]! < moved)) {
        last = chunk;
        return;
      }
      copy(run, start);
      run = end;
      if (moved < 0) return;
      while (next < pending.length && pending[next]! < moved) put(pending[next]!, pending[next + 1]!), (next += 2);
      put(moved, tf);
    });
    copy(run, to);
    while (next < pending.length) put(pending[next]!, pending[next + 1]!), (next += 2);
    return b;
  });
  return { ...previous, chunks: changes.chunkStart[packs.length]!, terms: patched.terms, offsets: leBytes(patched.offsets), postings: out.slice(0, patched.end) };
}

/**
 * The new postings, term by term in code-unit order: a previous term outside `affected` keeps its
 * slice `offsets[k]..offsets[k+1]`; every other term goes through `write(from, to, pending, at)`,
 * which writes the postings that stay merged with the added ones at output position `at` and
 * returns the end. Terms left without postings are dropped.
 *
 * With `affected` known, only its terms and the added ones are looked up (binary search in the
 * previous `\n`-joined list): the runs of previous terms between them go out as one copy of their
 * postings, one slice of the term text and their offsets shifted, without a string per term
 * (57,000 terms at 10,800 documents, for the few hundred one edited spec touches). Without it,
 * every previous term is visited.
 */
function patchPostings(
  joined: string,
  offsets: Uint32Array,
  added: Additions,
  affected: ReadonlySet<string> | null | undefined,
  copy: (from: number, to: number, at: number) => void,
  write: (from: number, to: number, pending: readonly number[], at: number) => number,
): { terms: string; offsets: Uint32Array; end: number } {
  const starts = lineStarts(joined);
  const count = starts.length - 1;
  if (count !== offsets.length - 1) throw new Error('terms and offsets disagree');
  const visits = affected ? lookedUp(joined, starts, [...new Set([...affected, ...added.keys()])]) : everyTerm(joined, added);
  const ends = new Uint32Array(count + visits.length + 1);
  const text: string[] = [];
  let kept = 0;
  let end = 0;
  let next = 0;
  /** Previous terms `next..until` go out as they are. */
  const keepRun = (until: number) => {
    if (until <= next) return;
    copy(offsets[next]!, offsets[until]!, end);
    const shift = end - offsets[next]!;
    for (let k = next; k < until; k++) ends[++kept] = offsets[k + 1]! + shift;
    end = ends[kept]!;
    text.push(joined.slice(starts[next]!, starts[until]! - 1));
    next = until;
  };
  for (const { term, at, found } of visits) {
    const pending = added.get(term);
    if (!found && pending === undefined) continue;
    keepRun(at);
    const after = write(found ? offsets[at]! : 0, found ? offsets[at + 1]! : 0, pending ?? NONE, end);
    if (found) next = at + 1;
    if (after === end) continue;
    ends[++kept] = end = after;
    text.push(term);
  }
  keepRun(count);
  return { terms: text.join('\n'), offsets: ends.slice(0, kept + 1), end };
}

const NONE: readonly number[] = [];

/** A term to visit: `at` is its position in the previous list when `found`, else where it would go. */
interface Visit {
  term: string;
  at: number;
  found: boolean;
}

/** Where each term of the `\n`-joined list starts, and one past the end (`length + 1`) last. */
function lineStarts(joined: string): Uint32Array {
  if (joined === '') return new Uint32Array([0]);
  let count = 1;
  for (let at = joined.indexOf('\n'); at >= 0; at = joined.indexOf('\n', at + 1)) count++;
  const starts = new Uint32Array(count + 1);
  for (let k = 1, at = joined.indexOf('\n'); at >= 0; at = joined.indexOf('\n', at + 1)) starts[k++] = at + 1;
  starts[count] = joined.length + 1;
  return starts;
}

/** `terms` sorted (code-unit order), each with its place in the previous list. */
function lookedUp(joined: string, starts: Uint32Array, terms: string[]): Visit[] {
  return terms.sort(byCodeUnits).map((term) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareTo(joined, starts[mid]!, starts[mid + 1]! - 1, term) < 0) lo = mid + 1;
      else hi = mid;
    }
    return { term, at: lo, found: lo < starts.length - 1 && compareTo(joined, starts[lo]!, starts[lo + 1]! - 1, term) === 0 };
  });
}

/** Every previous term and every added one not among them, in code-unit order. */
function everyTerm(joined: string, added: Additions): Visit[] {
  const previous = joined === '' ? [] : joined.split('\n');
  const fresh = [...added.keys()].filter((term) => !has(previous, term)).sort(byCodeUnits);
  const visits: Visit[] = [];
  let j = 0;
  previous.forEach((term, k) => {
    while (j < fresh.length && fresh[j]! < term) visits.push({ term: fresh[j++]!, at: k, found: false });
    visits.push({ term, at: k, found: true });
  });
  while (j < fresh.length) visits.push({ term: fresh[j++]!, at: previous.length, found: false });
  return visits;
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

const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** `joined.slice(start, end)` compared with `term` in code-unit order, without making the slice. */
function compareTo(joined: string, start: number, end: number, term: string): number {
  const length = Math.min(end - start, term.length);
  for (let i = 0; i < length; i++) {
    const d = joined.charCodeAt(start + i) - term.charCodeAt(i);
    if (d !== 0) return d;
  }
  return end - start - term.length;
}

function push(added: Additions, term: string, item: number, tf: number): void {
  const list = added.get(term);
  if (list) list.push(item, tf);
  else added.set(term, [item, tf]);
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Little-endian bytes of a u16/u32 array (formats/bytes.ts): a view on little-endian machines. */
function leBytes(values: Uint16Array | Uint32Array): Uint8Array {
  if (!LITTLE_ENDIAN) return values instanceof Uint16Array ? u16ToBytes(values) : u32ToBytes(values);
  return new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
}

/** Whether each changed node has, in the previous exact-key table, exactly the keys it has now. */
function sameKeys(previous: SerializedTextIndex, packs: readonly NodePack[], changes: Changes): boolean {
  if (previous.keys === undefined || !previous.key_offsets || !previous.key_nodes) return false;
  const starts = lineStarts(previous.keys);
  const offsets = bytesToU32(previous.key_offsets);
  const nodes = bytesToU32(previous.key_nodes);
  if (offsets.length !== starts.length) return false;
  const before = new Map<number, Set<string>>(changes.nodes.map((doc) => [doc, new Set()]));
  // Only the keys of changed nodes are cut out of the joined table.
  for (let k = 0; k + 1 < offsets.length; k++) for (let q = offsets[k]!; q < offsets[k + 1]!; q++) if (changes.changed[nodes[q]!]) before.get(nodes[q]!)!.add(previous.keys.slice(starts[k]!, starts[k + 1]! - 1));
  return changes.nodes.every((doc) => {
    const now = packs[doc]!.keys;
    const was = before.get(doc)!;
    return now.length === was.size && now.every((key) => was.has(key));
  });
}
