/**
 * The shared half of building an inverted index: per-item `[term id, tf, term id, tf, …]` lists
 * (item = node or chunk, by position) → per-term slices, items ascending within a term, terms in
 * code-unit order. A counting sort: two passes over the lists, no per-posting allocation.
 */
import { compareCodeUnits } from '../../model/order.js';

export interface Postings {
  /** Ids (into the vocabulary) of the terms some item uses, sorted by term text. */
  used: number[];
  /** `offsets[k]..offsets[k+1]` is the slice of `used[k]` in `items` / `tfs`. */
  offsets: Uint32Array;
  items: Uint32Array;
  /** Each posting's second value, `min(value, 0xffff)`: both indexes store at most 16 bits of it. */
  tfs: Uint16Array;
}

/**
 * Items' `[term id, tf]` lists as runs of a few large arrays: `forEach` calls `visit(pairs, from,
 * to, item)` once per item, in item order, the item's pairs being `pairs[from..to)`. A chunk's list
 * is then a range of its node's array instead of a view object per chunk.
 */
export interface PairRuns {
  /** Number of items. */
  readonly count: number;
  forEach(visit: (pairs: ArrayLike<number>, from: number, to: number, item: number) => void): void;
}

/** One whole array per item (item = position). */
export function wholeLists(lists: readonly ArrayLike<number>[]): PairRuns {
  return { count: lists.length, forEach: (visit) => lists.forEach((list, item) => visit(list, 0, list.length, item)) };
}

export function countingSortPostings(lists: PairRuns, terms: readonly string[]): Postings {
  const df = new Uint32Array(terms.length);
  let total = 0;
  lists.forEach((list, from, to) => {
    for (let k = from; k < to; k += 2) df[list[k]!]!++;
    total += (to - from) >> 1;
  });
  const used: number[] = [];
  for (const t of termOrder(terms)) if (df[t]! > 0) used.push(t);
  // `df` becomes each term's write cursor: no second vocabulary-sized array.
  const cursor = df;
  const offsets = new Uint32Array(used.length + 1);
  let p = 0;
  for (let k = 0; k < used.length; k++) {
    const count = cursor[used[k]!]!;
    cursor[used[k]!] = p;
    p += count;
    offsets[k + 1] = p;
  }
  const items = new Uint32Array(total);
  const tfs = new Uint16Array(total);
  lists.forEach((list, from, to, item) => {
    for (let k = from; k < to; k += 2) {
      const at = cursor[list[k]!]!++;
      items[at] = item;
      tfs[at] = Math.min(list[k + 1]!, 0xffff);
    }
  });
  return { used, offsets, items, tfs };
}

const orders = new WeakMap<readonly string[], Uint32Array>();

/**
 * Ids of `terms` (distinct) sorted by term, code-unit order. Remembered per array and extended when
 * the array grew, as vocabularies only ever append: a build's text and chunk indexes, and the next
 * build through the pack cache (`rememberTermOrder`), sort the vocabulary once between them.
 */
export function termOrder(terms: readonly string[]): Uint32Array {
  const known = orders.get(terms);
  if (known && known.length === terms.length) return known;
  const from = known?.length ?? 0;
  const added = Array.from({ length: terms.length - from }, (_, k) => from + k).sort((a, b) => compareCodeUnits(terms[a]!, terms[b]!));
  const order = new Uint32Array(terms.length);
  let i = 0;
  let j = 0;
  for (let k = 0; k < order.length; k++) {
    order[k] = j >= added.length || (known !== undefined && i < known.length && terms[known[i]!]! < terms[added[j]!]!) ? known![i++]! : added[j++]!;
  }
  orders.set(terms, order);
  return order;
}

/** Declares `order` the {@link termOrder} of `terms` (as a cache stored it). */
export function rememberTermOrder(terms: readonly string[], order: Uint32Array): void {
  orders.set(terms, order);
}
