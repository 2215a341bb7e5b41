/**
 * BM25F scoring of weighted query terms, document at a time, with MaxScore pruning when only the
 * best `limit` nodes are wanted (docs/decisions/top-k-pruning.md). The answer is the one exhaustive
 * scoring gives — same nodes, same scores to the bit, same order — because every bound used to skip
 * a node is an exact upper bound of the floating-point score the scorer would have computed:
 *
 * - a term's bound comes from the largest BM25F term frequency any node has for it (computed once
 *   per term and remembered), evaluated with the scorer's own expression;
 * - a node's bound adds the known group scores and the bounds of the unknown groups in the order the
 *   scorer adds group scores (float addition is monotonic, so the same order bounds the same sum).
 *
 * Nodes are visited in ascending position, so a later node with a score equal to the current k-th
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
  /** The block of the list that holds (or would hold) the last node asked about, and its bound. */
  private block = 0;
  private currentBound: number;

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
    this.currentBound = stats.blockTf.length > 0 ? saturate(weight, idf, stats.blockTf[0]!) : 0;
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

  /** Largest score this term gives any node of the block `doc` falls in (0 past the list's end). */
  blockBound(doc: number): number {
    const { blockLast, blockTf } = this.stats;
    if (this.block < blockLast.length && blockLast[this.block]! >= doc) return this.currentBound;
    while (this.block < blockLast.length && blockLast[this.block]! < doc) this.block++;
    this.currentBound = this.block < blockLast.length ? saturate(this.weight, this.idf, blockTf[this.block]!) : 0;
    return this.currentBound;
  }

  /** Last node the current block's bound holds for (Infinity past the list's end). */
  blockEnd(): number {
    const { blockLast } = this.stats;
    return this.block < blockLast.length ? blockLast[this.block]! : Infinity;
  }

  /** Moves to the first posting of a node ≥ `doc`: to its block, then galloping and binary search. */
  seek(docs: Uint32Array, doc: number): void {
    if (this.p >= this.end || docs[this.p]! >= doc) return;
    this.blockBound(doc);
    if (this.block >= this.stats.blockLast.length) {
      this.p = this.end;
      return;
    }
    let lo = Math.max(this.p, this.stats.blockStart[this.block]!);
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
}

/**
 * Ranks nodes by the sum over groups of their best alternative's BM25F score, best first, ties by
 * position. With a limit, the tail below 5 % of the best score is dropped when more than 4 × limit
 * nodes match (common words touch most of a big corpus).
 * @param stats the {@link TermStats} of a term id (the caller remembers them).
 */
export function rankTerms(lists: PostingLists, groups: readonly (readonly WeightedTerm[])[], stats: (term: number) => TermStats, options: TopKOptions = {}): TextHit[] {
  const { docs } = lists;
  const cursors: Cursor[] = [];
  const groupBound = new Float64Array(groups.length);
  groups.forEach((group, g) => {
    for (const { term, weight } of group) {
      if (!(weight > 0)) continue;
      const termStats = stats(term);
      const cursor = new Cursor(lists, term, g, weight, idfOf(lists.size, termStats.df), termStats);
      cursors.push(cursor);
      groupBound[g] = Math.max(groupBound[g]!, cursor.bound);
    }
  });
  const limit = options.limit;
  // As `slice(0, limit)` reads a limit: whole numbers, at most every node.
  const capacity = limit === undefined ? lists.size : Math.min(Math.floor(limit), lists.size);
  if (!(capacity > 0)) return [];
  const best = new BestK(capacity);
  const prune = limit !== undefined && options.prune !== false;
  // Whether the tail below TAIL_SHARE of the best score will be cut: then nodes that cannot reach
  // that share of the best score seen so far (a lower bound of the best) can be skipped too.
  const cutsTail = prune && touchesMore(lists, cursors, null, 4 * limit);
  let floor = 0;
  /** Whether a node whose score is at most `bound` can be left out (it would not be in the answer). */
  const hopeless = (bound: number): boolean => bound < floor || (best.full && bound <= best.threshold);
  const G = groups.length;
  // Groups by bound, smallest first: the non-essential ones are a prefix of this order (MaxScore).
  const byBound = [...new Set(cursors.map((c) => c.group))].sort((a, b) => groupBound[a]! - groupBound[b]! || a - b);
  const cursorsOf = groups.map((_, g) => cursors.filter((c) => c.group === g));
  const scores = new Float64Array(G);
  /** Per group: 1 once scored for the current node (then `scores` holds it). */
  const known = new Uint8Array(G);
  /** Per group: the most it can add to the current node while unscored (a term or block bound). */
  const open = new Float64Array(G);
  const nonEssential = new Uint8Array(G);
  let firstEssential = 0;
  let essential = cursors;
  let visited = 0;
  // An upper bound of a node's final score, summed in the scorer's order (float addition is
  // monotonic, so the same order bounds the same sum): scored groups add their score, others `open`.
  const boundOf = (): number => {
    let sum = 0;
    for (let g = 0; g < G; g++) sum += known[g] ? scores[g]! : open[g]!;
    return sum;
  };
  for (;;) {
    let doc = Infinity;
    for (let i = 0; i < essential.length; i++) {
      const d = essential[i]!.doc(docs);
      if (d < doc) doc = d;
    }
    if (doc === Infinity) break;
    known.fill(0);
    if (prune && (best.full || floor > 0)) {
      // Block-max: every group's bound over the block it has at this node. Below the k-th best, the
      // nodes up to the first block end cannot enter either: the essential lists jump past them.
      open.fill(0);
      let upTo = Infinity;
      for (const c of cursors) {
        const bound = c.blockBound(doc);
        if (bound > open[c.group]!) open[c.group] = bound;
        upTo = Math.min(upTo, c.blockEnd());
      }
      if (hopeless(boundOf())) {
        if (upTo === Infinity) break;
        for (const c of essential) c.seek(docs, upTo + 1);
        continue;
      }
    } else open.set(groupBound);
    visited++;
    scores.fill(0);
    for (let i = firstEssential; i < byBound.length; i++) known[byBound[i]!] = 1;
    for (let i = 0; i < essential.length; i++) {
      const c = essential[i]!;
      if (c.doc(docs) !== doc) continue;
      const score = c.take(lists);
      if (score > scores[c.group]!) scores[c.group] = score;
    }
    let skipped = false;
    for (let i = firstEssential - 1; i >= 0; i--) {
      if (hopeless(boundOf())) {
        skipped = true;
        break;
      }
      const g = byBound[i]!;
      for (const c of cursorsOf[g]!) {
        c.seek(docs, doc);
        if (c.doc(docs) !== doc) continue;
        const score = c.take(lists);
        if (score > scores[g]!) scores[g] = score;
      }
      known[g] = 1;
    }
    if (skipped) continue;
    let total = 0;
    for (let g = 0; g < G; g++) total += scores[g]!;
    const raisesFloor = cutsTail && total * TAIL_SHARE > floor;
    if (raisesFloor) floor = total * TAIL_SHARE;
    if (!(best.offer(doc, total) && prune && best.full) && !raisesFloor) continue;
    // The k-th best or the floor rose: groups whose bounds add up to no more cannot bring a node in alone.
    let moved = false;
    known.fill(0);
    open.fill(0);
    for (let i = 0; i < firstEssential; i++) open[byBound[i]!] = groupBound[byBound[i]!]!;
    for (; firstEssential < byBound.length; firstEssential++, moved = true) {
      const g = byBound[firstEssential]!;
      open[g] = groupBound[g]!;
      if (!hopeless(boundOf())) break;
      nonEssential[g] = 1;
    }
    if (moved) essential = cursors.filter((c) => !nonEssential[c.group]);
  }
  const hits: TextHit[] = best.sorted().map(({ index, score }) => ({ node: index, score }));
  if (limit === undefined || !(prune ? cutsTail : touchesMore(lists, cursors, visited, 4 * limit))) return hits;
  // Pruning never skips the best node (a skipped node scores no more than one kept), so this is the maximum.
  const cut = hits[0]!.score * TAIL_SHARE;
  return hits.filter((hit) => hit.score >= cut);
}

/**
 * Whether more than `n` nodes contain some cursor's term: counted when scoring visited every one,
 * else settled by the document frequencies when they can (the largest is a lower bound, the sum an
 * upper one) and counted otherwise — then every list is no longer than `n`.
 */
function touchesMore(lists: PostingLists, cursors: readonly Cursor[], visited: number | null, n: number): boolean {
  if (visited !== null) return visited > n;
  let most = 0;
  let sum = 0;
  for (const c of cursors) (most = Math.max(most, c.df)), (sum += c.df);
  if (most > n || sum <= n) return most > n;
  const seen = new Set<number>();
  for (const c of cursors) for (let p = c.start; p < c.end; p++) seen.add(lists.docs[p]!);
  return seen.size > n;
}
