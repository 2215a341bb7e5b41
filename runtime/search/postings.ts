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
  tfs: Uint32Array;
}

export function countingSortPostings(lists: readonly ArrayLike<number>[], terms: readonly string[]): Postings {
  const df = new Uint32Array(terms.length);
  let total = 0;
  for (const list of lists) {
    for (let k = 0; k < list.length; k += 2) df[list[k]!]!++;
    total += list.length >> 1;
  }
  const used: number[] = [];
  for (const t of termOrder(terms)) if (df[t]! > 0) used.push(t);
  const cursor = new Uint32Array(terms.length);
  const offsets = new Uint32Array(used.length + 1);
  let p = 0;
  for (let k = 0; k < used.length; k++) {
    cursor[used[k]!] = p;
    p += df[used[k]!]!;
    offsets[k + 1] = p;
  }
  const items = new Uint32Array(total);
  const tfs = new Uint32Array(total);
  lists.forEach((list, item) => {
    for (let k = 0; k < list.length; k += 2) {
      const at = cursor[list[k]!]!++;
      items[at] = item;
      tfs[at] = list[k + 1]!;
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
