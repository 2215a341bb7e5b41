/**
 * BM25F scoring of weighted query terms, a window of nodes at a time, with block-max MaxScore
 * pruning when only the best `limit` nodes are wanted (docs/decisions/top-k-pruning.md). The answer
 * is the one exhaustive scoring gives — same nodes, same scores to the bit, same order — because
 * every bound used to skip nodes is an exact upper bound of the floating-point score the scorer
 * would have computed:
 *
 * - a term's bound comes from the largest BM25F term frequency any node (or any node of a block of
 *   its list) has for it (computed once per term and remembered), evaluated with the scorer's own
 *   expression;
 * - a window's bound adds its groups' bounds in the order the scorer adds group scores (float
 *   addition is monotonic, so the same order bounds the same sum).
 *
 * Nodes are offered in ascending position, so a later node with a score equal to the current k-th
 * best loses the tie (ties go to the lower position): skipping when bound ≤ k-th best is exact.
 *
 * Generic over groups of (term, weight): a node's group score is its best alternative, and group
 * scores add up. Whatever adds terms (the vocabulary, query expansion) only changes the groups.
 */
import { BestK } from '../best-k.js';
import { FIELDS } from './fields.js';
import type { TextHit } from './types.js';

/** BM25 saturation. */
const K1 = 1.2;
/** With a limit, hits below this share of the best score are dropped when the query touches more than 4 × limit nodes. */
const TAIL_SHARE = 0.05;
const NF = FIELDS.length;
const FIELD_WEIGHT = Float64Array.from(FIELDS, (field) => field.weight);
/**
 * Bounds evaluate the score of a term frequency raised by this share. Rounding can put the score of a
 * frequency a few ulps under the maximum above the maximum's own score, never above the score of a
 * frequency 2e-9 higher: there the exact score is higher by ≥ K1·2e-9 / (K1 + tf) ≥ 2e-14 relative
 * for any frequency the u16 fields allow (tf < 1.2e5), ~30 × the rounding error of the expression.
 */
const CEILING = 1 + 2e-9;
/** Nodes per block of a posting list (block-max bounds, docs/decisions/top-k-pruning.md). */
const BLOCK = 64;

/** Posting arrays of a restored index (bm25f.ts): postings of a term sorted by (node, field). */
export interface PostingLists {
  /** Number of nodes. */
  readonly size: number;
  readonly offsets: Uint32Array;
  readonly docs: Uint32Array;
  /** `field << 12 | min(tf, 4095)` per posting. */
  readonly tfs: Uint16Array;
  /** Per node and field: 1 - b + b·len/avg. */
  readonly norms: Float32Array;
}

/** One alternative of a query concept, resolved to a term id of the index. */
export interface WeightedTerm {
  term: number;
  weight: number;
}

/** What scoring needs to know about a term, computed once per term and index ({@link termStats}). */
export interface TermStats {
  /** Nodes containing the term. */
  df: number;
  /** Above the largest BM25F term frequency of the term in any node ({@link CEILING}). */
  maxTf: number;
  /** Per block of {@link BLOCK} nodes of the list: its last node, its first posting, above its largest frequency. */
  blockLast: Uint32Array;
  blockStart: Uint32Array;
  blockTf: Float64Array;
}

/** One pass over a term's postings: document frequency, largest BM25F term frequency, block maxima. */
export function termStats(lists: PostingLists, term: number): TermStats {
  const { docs, offsets } = lists;
  const end = offsets[term + 1]!;
  const blockLast: number[] = [];
  const blockStart: number[] = [];
  const blockTf: number[] = [];
  let df = 0;
  let maxTf = 0;
  let blockMax = 0;
  for (let p = offsets[term]!; p < end; ) {
    if (df % BLOCK === 0) blockStart.push(p);
    const doc = docs[p]!;
    const tf = termFrequency(lists, doc, p, end);
    p = nextDoc;
    df++;
    if (tf > blockMax) blockMax = tf;
    if (df % BLOCK === 0 || p === end) {
      blockLast.push(doc);
      blockTf.push(blockMax * CEILING);
      if (blockMax > maxTf) maxTf = blockMax;
      blockMax = 0;
    }
  }
  return { df, maxTf: maxTf * CEILING, blockLast: Uint32Array.from(blockLast), blockStart: Uint32Array.from(blockStart), blockTf: Float64Array.from(blockTf) };
}

/** Position after the postings {@link termFrequency} read (a module variable: no allocation per node). */
let nextDoc = 0;

/** BM25F term frequency of `doc` from its postings starting at `p`; sets {@link nextDoc}. */
function termFrequency(lists: PostingLists, doc: number, p: number, end: number): number {
  const { docs, tfs, norms } = lists;
  let tf = 0;
  for (; p < end && docs[p] === doc; p++) {
    const packed = tfs[p]!;
    const field = packed >>> 12;
    tf += (FIELD_WEIGHT[field]! * (packed & 0xfff)) / norms[doc * NF + field]!;
  }
  nextDoc = p;
  return tf;
}

/** The BM25 score of a term frequency: the one expression every score and bound goes through. */
function saturate(weight: number, idf: number, tf: number): number {
  return (weight * idf * tf) / (K1 + tf);
}

/** BM25 inverse document frequency (never negative: common words still count a little). */
export function idfOf(size: number, df: number): number {
  return Math.log(1 + (size - df + 0.5) / (df + 0.5));
}

/** A term's place in its posting list during one query. */
class Cursor {
  p: number;
  readonly start: number;
  readonly end: number;
  /** Largest score this term gives any node. */
  readonly bound: number;
  /** First block of the list whose last node is at or after the last node asked about. */
  private block = 0;

  constructor(
    lists: PostingLists,
    term: number,
    readonly group: number,
    readonly weight: number,
    readonly idf: number,
    readonly stats: TermStats,
  ) {
    this.start = this.p = lists.offsets[term]!;
    this.end = lists.offsets[term + 1]!;
    this.bound = saturate(weight, idf, stats.maxTf);
  }

  get df(): number {
    return this.stats.df;
  }

  /** The node at the cursor, or Infinity at the end. */
  doc(docs: Uint32Array): number {
    return this.p < this.end ? docs[this.p]! : Infinity;
  }

  /** Score of the node at the cursor; moves past its postings. */
  take(lists: PostingLists): number {
    const tf = termFrequency(lists, lists.docs[this.p]!, this.p, this.end);
    this.p = nextDoc;
    return saturate(this.weight, this.idf, tf);
  }

  /** Largest score this term gives a node in `[from, to)` (0 when no block of the list overlaps it); `from` never decreases. */
  rangeBound(docs: Uint32Array, from: number, to: number): number {
    const { blockLast, blockStart, blockTf } = this.stats;
    const blocks = blockLast.length;
    while (this.block < blocks && blockLast[this.block]! < from) this.block++;
    let bound = 0;
    for (let b = this.block; b < blocks && docs[blockStart[b]!]! < to; b++) {
      const score = saturate(this.weight, this.idf, blockTf[b]!);
      if (score > bound) bound = score;
    }
    return bound;
  }

  /** Moves to the first posting of a node ≥ `doc`: to its block, then galloping and binary search. */
  seek(docs: Uint32Array, doc: number): void {
    if (this.p >= this.end || docs[this.p]! >= doc) return;
    const { blockLast, blockStart } = this.stats;
    while (this.block < blockLast.length && blockLast[this.block]! < doc) this.block++;
    if (this.block >= blockLast.length) {
      this.p = this.end;
      return;
    }
    let lo = Math.max(this.p, blockStart[this.block]!);
    if (docs[lo]! >= doc) {
      this.p = lo;
      return;
    }
    let step = 1;
    let hi = lo + 1;
    while (hi < this.end && docs[hi]! < doc) (lo = hi), (step *= 2), (hi = lo + step);
    if (hi > this.end) hi = this.end;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (docs[mid]! < doc) lo = mid + 1;
      else hi = mid;
    }
    this.p = lo;
  }
}

export interface TopKOptions {
  /** Keep the best `limit` nodes (ties by position); all when undefined. */
  limit?: number;
  /** Skip nodes that cannot reach the best `limit` (default true). False scores every posting: same answer, for checks. */
  prune?: boolean;
  /** Nodes per window of the pruned scan, 1 to {@link WINDOW} (the default): tests cross many windows on small corpora. */
  window?: number;
}

/** Nodes per window of the pruned scan: bounded as a whole, then scored a list at a time. */
const WINDOW = 256;

// Buffers the queries score into, reused from one query to the next (queries are synchronous): a
// query allocates no array the size of its window or of the corpus, and leaves little garbage.

/** Pruned scan, per node of the current window (`node - from`): running total, best alternative of the current group, 1 when some list holds it. All zero between windows. */
const WINDOW_TOTALS = new Float64Array(WINDOW);
const WINDOW_BEST = new Float64Array(WINDOW);
const WINDOW_MARKED = new Uint8Array(WINDOW);
/** Pruned scan: the window's nodes the current group holds. */
const WINDOW_COLUMNS = new Int32Array(WINDOW);

/** Exhaustive scoring's per-node buffers for one index (made on its first exhaustive query). */
interface EveryPostingScratch {
  /** Running total per node, valid where `stamp` is the current call. */
  total: Float64Array;
  stamp: Int32Array;
  /** Best alternative per node within the current group, valid where `groupStamp` is. */
  groupBest: Float64Array;
  groupStamp: Int32Array;
  /** Nodes of the current group. */
  members: Int32Array;
  call: number;
}

const EVERY_POSTING_SCRATCH = new WeakMap<PostingLists, EveryPostingScratch>();

function everyPostingScratch(lists: PostingLists): EveryPostingScratch {
  let scratch = EVERY_POSTING_SCRATCH.get(lists);
  if (!scratch) {
    const n = lists.size;
    scratch = { total: new Float64Array(n), stamp: new Int32Array(n), groupBest: new Float64Array(n), groupStamp: new Int32Array(n), members: new Int32Array(n), call: 0 };
    EVERY_POSTING_SCRATCH.set(lists, scratch);
  }
  return scratch;
}

/**
 * Ranks nodes by the sum over groups of their best alternative's BM25F score, best first, ties by
 * position. With a limit, the tail below 5 % of the best score is dropped when more than 4 × limit
 * nodes match (common words touch most of a big corpus).
 * @param stats the {@link TermStats} of a term id (the caller remembers them).
 */
export function rankTerms(lists: PostingLists, groups: readonly (readonly WeightedTerm[])[], stats: (term: number) => TermStats, options: TopKOptions = {}): TextHit[] {
  const cursors: Cursor[] = [];
  groups.forEach((group, g) => {
    for (const { term, weight } of group) {
      if (!(weight > 0)) continue;
      const termStats = stats(term);
      cursors.push(new Cursor(lists, term, g, weight, idfOf(lists.size, termStats.df), termStats));
    }
  });
  const limit = options.limit;
  // As `slice(0, limit)` reads a limit: whole numbers, at most every node.
  const capacity = limit === undefined ? lists.size : Math.min(Math.floor(limit), lists.size);
  if (!(capacity > 0)) return [];
  if (limit === undefined || options.prune === false) return scoreEveryPosting(lists, cursors, groups.length, capacity, limit);
  const window = Math.max(1, Math.min(WINDOW, Math.floor(options.window ?? WINDOW)));
  return scorePruned(lists, cursors, groups.length, capacity, limit, window);
}

/**
 * Exhaustive scoring, a list at a time: every posting of every term, group by group in query order
 * (a node's group score is its best alternative; group scores add up in group order, as the pruned
 * scan adds them). The reference the pruned scan must equal, and the answer without a limit.
 */
function scoreEveryPosting(lists: PostingLists, cursors: readonly Cursor[], G: number, capacity: number, limit: number | undefined): TextHit[] {
  const { docs } = lists;
  const scratch = everyPostingScratch(lists);
  const { total, stamp, groupBest, groupStamp, members } = scratch;
  const call = nextCall(scratch);
  let touched = 0;
  for (let g = 0; g < G; g++) {
    let count = 0;
    for (const c of cursors) {
      if (c.group !== g) continue;
      for (c.p = c.start; c.p < c.end; ) {
        const doc = docs[c.p]!;
        const score = c.take(lists);
        if (groupStamp[doc] !== call) (groupStamp[doc] = call), (groupBest[doc] = score), (members[count++] = doc);
        else if (score > groupBest[doc]!) groupBest[doc] = score;
      }
    }
    for (let i = 0; i < count; i++) {
      const doc = members[i]!;
      if (stamp[doc] !== call) (stamp[doc] = call), (total[doc] = 0), touched++;
      total[doc] = total[doc]! + groupBest[doc]!;
    }
    // The next group must see its own members only.
    for (let i = 0; i < count; i++) groupStamp[members[i]!] = call - 1;
  }
  const best = new BestK(capacity);
  for (let doc = 0; doc < lists.size; doc++) if (stamp[doc] === call) best.offer(doc, total[doc]!);
  const hits: TextHit[] = best.sorted().map(({ index, score }) => ({ node: index, score }));
  return limit !== undefined && touched > 4 * limit ? cutTail(hits) : hits;
}

/** A fresh stamp for the per-node buffers (stale stamps are always lower, never the current call). */
function nextCall(scratch: EveryPostingScratch): number {
  if (scratch.call > 0x3fffff00) (scratch.call = 0), scratch.stamp.fill(0), scratch.groupStamp.fill(0);
  return (scratch.call += 2);
}

/** Hits (best first) without those under {@link TAIL_SHARE} of the best score. */
function cutTail(hits: TextHit[]): TextHit[] {
  const cut = hits[0]!.score * TAIL_SHARE;
  return hits.filter((hit) => hit.score >= cut);
}

/**
 * The best `capacity` nodes, skipping what cannot enter them (block-max MaxScore over windows of up
 * to {@link WINDOW} nodes):
 *
 * - a window starts at the next node an essential list holds (MaxScore: nodes that only the
 *   non-essential groups hold, whose bounds together cannot beat the k-th best, cannot enter);
 * - a window whose bound (per group, the best block bound of its alternatives over the window;
 *   summed in group order) cannot beat the k-th best is skipped by every list at once;
 * - otherwise every list is read through the window in one tight loop, group after group in query
 *   order, into per-window totals (no per-node cursor juggling), and the nodes are offered in
 *   ascending position.
 *
 * A node's score is the same sum, in the same order, as {@link scoreEveryPosting} computes.
 */
function scorePruned(lists: PostingLists, cursors: readonly Cursor[], G: number, capacity: number, limit: number, window: number): TextHit[] {
  const { docs } = lists;
  const groupBound = new Float64Array(G);
  for (const c of cursors) if (c.bound > groupBound[c.group]!) groupBound[c.group] = c.bound;
  const best = new BestK(capacity);
  // Whether the tail below TAIL_SHARE of the best score will be cut: then nodes that cannot reach
  // that share of the best score seen so far (a lower bound of the best) can be skipped too.
  const cutsTail = touchesMore(lists, cursors, 4 * limit);
  let floor = 0;
  /** Whether a node whose score is at most `bound` can be left out (it would not be in the answer). */
  const hopeless = (bound: number): boolean => bound < floor || (best.full && bound <= best.threshold);
  // Groups by bound, smallest first: the non-essential ones are a prefix of this order (MaxScore).
  const byBound = [...new Set(cursors.map((c) => c.group))].sort((a, b) => groupBound[a]! - groupBound[b]! || a - b);
  const totals = WINDOW_TOTALS;
  const groupBest = WINDOW_BEST;
  const marked = WINDOW_MARKED;
  const columns = WINDOW_COLUMNS;
  // Cursors come in group order: `runs[r]..runs[r + 1]` are the alternatives of one group.
  const runs = [0];
  for (let i = 1; i <= cursors.length; i++) if (i === cursors.length || cursors[i]!.group !== cursors[i - 1]!.group) runs.push(i);
  /** Per group: the most it adds to a node of the current window (the best block bound of its terms there). */
  const open = new Float64Array(G);
  /** Groups byBound[0..firstEssential) are non-essential. */
  let firstEssential = 0;
  let essential: readonly Cursor[] = cursors;
  /** Term bounds of the non-essential groups (0 for the others), by group. */
  const nonEssential = new Float64Array(G);
  /** After the k-th best or the floor rose: groups whose bounds add up to no more cannot bring a node in alone. */
  const narrow = () => {
    const before = firstEssential;
    for (; firstEssential < byBound.length; firstEssential++) {
      const g = byBound[firstEssential]!;
      nonEssential[g] = groupBound[g]!;
      let sum = 0;
      for (let h = 0; h < G; h++) sum += nonEssential[h]!;
      if (!hopeless(sum)) {
        nonEssential[g] = 0;
        break;
      }
    }
    if (firstEssential !== before) essential = cursors.filter((c) => nonEssential[c.group] === 0);
  };
  for (;;) {
    let from = Infinity;
    for (const c of essential) {
      const d = c.doc(docs);
      if (d < from) from = d;
    }
    if (from === Infinity) break;
    const to = from + window;
    if (best.full || floor > 0) {
      open.fill(0);
      for (const c of cursors) {
        const bound = c.rangeBound(docs, from, to);
        if (bound > open[c.group]!) open[c.group] = bound;
      }
      // Summed in group order, as scores are: float addition is monotonic, so this bounds every node's score.
      let sum = 0;
      for (let g = 0; g < G; g++) sum += open[g]!;
      if (hopeless(sum)) {
        for (const c of essential) c.seek(docs, to);
        continue;
      }
    }
    // Every list through the window (a non-essential one from where it stood), one tight loop per
    // list, group after group in query order: each node's total grows as exhaustive scoring grows it.
    for (let r = 0; r < runs.length - 1; r++) {
      const first = runs[r]!;
      const end = runs[r + 1]!;
      if (end - first === 1) {
        const c = cursors[first]!;
        c.seek(docs, from);
        readWindow(lists, c, from, to, true, totals, groupBest, columns, 0);
        continue;
      }
      let count = 0;
      for (let i = first; i < end; i++) {
        const c = cursors[i]!;
        c.seek(docs, from);
        count = readWindow(lists, c, from, to, false, totals, groupBest, columns, count);
      }
      for (let i = 0; i < count; i++) {
        const column = columns[i]!;
        totals[column] = totals[column]! + groupBest[column]!;
        groupBest[column] = 0;
        marked[column] = 1;
      }
    }
    for (let column = 0; column < window; column++) {
      if (!marked[column]) continue;
      const total = totals[column]!;
      marked[column] = 0;
      totals[column] = 0;
      const raisesFloor = cutsTail && total * TAIL_SHARE > floor;
      if (raisesFloor) floor = total * TAIL_SHARE;
      if ((best.offer(from + column, total) && best.full) || raisesFloor) narrow();
    }
  }
  const hits: TextHit[] = best.sorted().map(({ index, score }) => ({ node: index, score }));
  // Pruning never skips the best node (a skipped node scores no more than one kept), so hits[0] is the maximum.
  return cutsTail ? cutTail(hits) : hits;
}

/**
 * Reads `c`'s postings before node `to` into the window (column = node - from), then moves the
 * cursor past them. A group of one term (`alone`) adds each score to `totals` and marks the column;
 * an alternative of a larger group raises `best` to it (scores are positive: 0 means not met yet),
 * appending columns met for the first time to `columns` from `count`. Returns the new count. The
 * term frequency is termFrequency()'s sum written out (local position, no call per node): this loop
 * is where a query spends most of its time.
 */
function readWindow(lists: PostingLists, c: Cursor, from: number, to: number, alone: boolean, totals: Float64Array, best: Float64Array, columns: Int32Array, count: number): number {
  const { docs, tfs, norms } = lists;
  const { end, weight, idf } = c;
  let p = c.p;
  while (p < end) {
    const doc = docs[p]!;
    if (doc >= to) break;
    const at = doc * NF;
    let tf = 0;
    do {
      const packed = tfs[p]!;
      const field = packed >>> 12;
      tf += (FIELD_WEIGHT[field]! * (packed & 0xfff)) / norms[at + field]!;
      p++;
    } while (p < end && docs[p] === doc);
    const column = doc - from;
    const score = saturate(weight, idf, tf);
    if (alone) (totals[column] = totals[column]! + score), (WINDOW_MARKED[column] = 1);
    else if (best[column] === 0) (best[column] = score), (columns[count++] = column);
    else if (score > best[column]!) best[column] = score;
  }
  c.p = p;
  return count;
}

/**
 * Whether more than `n` nodes contain some cursor's term: settled by the document frequencies when
 * they can (the largest is a lower bound, the sum an upper one) and counted otherwise — then every
 * list is no longer than `n`.
 */
function touchesMore(lists: PostingLists, cursors: readonly Cursor[], n: number): boolean {
  let most = 0;
  let sum = 0;
  for (const c of cursors) (most = Math.max(most, c.df)), (sum += c.df);
  if (most > n || sum <= n) return most > n;
  const seen = new Set<number>();
  for (const c of cursors) for (let p = c.start; p < c.end; p++) seen.add(lists.docs[p]!);
  return seen.size > n;
}
