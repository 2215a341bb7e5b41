/**
 * Build-time vocabulary: term ⇄ id, and the term ids of every run of text already seen.
 *
 * The pack tokenises every node of a tree (tens of millions of characters at 10k documents), so
 * `tokenIds` is the build's hottest loop. It finds the tokenizer's runs (CHUNK: letters/digits
 * joined by `- : _ . /`) with a hand-written scan instead of the regular expression, and looks a
 * run up in its memo by a hash of the characters scanned, comparing them in place: a run seen
 * before costs no substring, no match object and no string hashing. Only a new run is cut out and
 * passed to `tokenize` (runtime/search/tokenizer.ts), so the ids are exactly those of `tokenize`.
 */
import { tokenize, wordTokens } from './tokenizer.js';

/** Per UTF-16 code unit: 1 = a letter or digit (`\p{L}`/`\p{N}`), 2 = not one, 0 = not looked at yet. */
const UNIT_CLASS = new Uint8Array(0x10000);
const ALNUM = /^[\p{L}\p{N}]$/u;

function isAlnumUnit(unit: number): boolean {
  let known = UNIT_CLASS[unit]!;
  if (known === 0) UNIT_CLASS[unit] = known = ALNUM.test(String.fromCharCode(unit)) ? 1 : 2;
  return known === 1;
}

/** Width in code units of the letter or digit at `i` (a surrogate pair counts as one), 0 when there is none before `to`. */
function alnumWidth(text: string, i: number, to: number, unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < to) {
    const low = text.charCodeAt(i + 1);
    if (low >= 0xdc00 && low <= 0xdfff) return ALNUM.test(text.slice(i, i + 2)) ? 2 : 0;
  }
  return isAlnumUnit(unit) ? 1 : 0;
}

/** The run joiners `- : _ . /`. */
const isJoiner = (unit: number) => unit === 0x2d || unit === 0x3a || unit === 0x5f || unit === 0x2e || unit === 0x2f;

/**
 * A growable list of u32 (term ids, offsets) that keeps its storage when cleared: the pack fills
 * and empties the same few lists for every node, and a plain array set to length 0 gives its
 * storage back, to be allocated again by the next node.
 */
export class IdList {
  items = new Uint32Array(256);
  length = 0;

  push(value: number): void {
    if (this.length === this.items.length) {
      const grown = new Uint32Array(this.items.length * 2);
      grown.set(this.items);
      this.items = grown;
    }
    this.items[this.length++] = value;
  }

  clear(): void {
    this.length = 0;
  }

  /** A copy of the list. */
  toArray(): Uint32Array {
    return this.items.slice(0, this.length);
  }
}

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

export class TermIds {
  readonly terms: string[] = [];
  /** Term → id: every term, or with {@link sorted} only the terms added after the start. */
  private readonly ids = new Map<string, number>();
  /**
   * The starting terms' ids in increasing term order, when the vocabulary was started from a list
   * whose order a cache kept (compiler/cache/pack-memo.ts): they are found by binary search instead
   * of a map of every term. A one-edit build looks up a few hundred of 57,000 (10,800 documents),
   * and the map cost ~15 ms to fill.
   */
  private readonly sorted: Uint32Array | null = null;
  /** Run memo, open addressing: slot → run number + 1 (0 = empty). */
  private slots = new Int32Array(1 << 14);
  private readonly runHashes: number[] = [];
  private readonly runTexts: string[] = [];
  private readonly runIds: (readonly number[])[] = [];

  /**
   * A vocabulary that starts with `terms` (ids = positions; distinct terms expected). `order`: the
   * ids of `terms` in strictly increasing term order (code units), already checked by the caller.
   */
  constructor(terms: readonly string[] = [], order?: Uint32Array) {
    if (!order) {
      for (const term of terms) this.id(term);
      return;
    }
    for (const term of terms) this.terms.push(term);
    this.sorted = order;
  }

  get size(): number {
    return this.terms.length;
  }

  /**
   * Appends the term ids of `tokenize(text.slice(from, to))` to `out`. With `runs`, appends for
   * every run its start, its end (offsets in `text`) and `out.length` after its ids, so a caller can
   * take the ids of any span of the text without tokenising it again.
   */
  tokenIds(text: string, out: IdList, from = 0, to = text.length, runs?: IdList): void {
    let i = from;
    while (i < to) {
      let unit = text.charCodeAt(i);
      let width = alnumWidth(text, i, to, unit);
      if (width === 0) {
        i++;
        continue;
      }
      // The longest `[\p{L}\p{N}]+(?:[-:_./][\p{L}\p{N}]+)*` from here, hashed as it is scanned.
      const start = i;
      let hash = FNV_OFFSET;
      let joined = false;
      for (;;) {
        hash = Math.imul(hash ^ unit, FNV_PRIME);
        if (width === 2) hash = Math.imul(hash ^ text.charCodeAt(i + 1), FNV_PRIME);
        i += width;
        if (i >= to) break;
        unit = text.charCodeAt(i);
        width = alnumWidth(text, i, to, unit);
        if (width > 0) continue;
        if (!isJoiner(unit) || i + 1 >= to) break;
        const next = text.charCodeAt(i + 1);
        const nextWidth = alnumWidth(text, i + 1, to, next);
        if (nextWidth === 0) break;
        hash = Math.imul(hash ^ unit, FNV_PRIME);
        joined = true;
        i++;
        unit = next;
        width = nextWidth;
      }
      const list = this.runIds[this.run(text, start, i, hash, joined)]!;
      for (let k = 0; k < list.length; k++) out.push(list[k]!);
      if (runs) runs.push(start), runs.push(i), runs.push(out.length);
    }
  }

  /** Id of `term`, added when new. */
  id(term: string): number {
    let id = this.ids.get(term);
    if (id === undefined && this.sorted) id = this.startingId(term, this.sorted);
    if (id === undefined) {
      id = this.terms.push(term) - 1;
      this.ids.set(term, id);
    }
    return id;
  }

  /** The id of `term` among the starting terms, found in their `order`; undefined when it is not one of them. */
  private startingId(term: string, order: Uint32Array): number | undefined {
    let lo = 0;
    let hi = order.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const found = this.terms[order[mid]!]!;
      if (found === term) return order[mid];
      if (found < term) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  /**
   * Number of the run `text[start, end)` (whose hash is `hash`) in the memo, added when new. A run
   * without joiners is one word: `tokenize` would find that one chunk and split nothing off it.
   */
  private run(text: string, start: number, end: number, hash: number, joined: boolean): number {
    const length = end - start;
    let mask = this.slots.length - 1;
    let slot = hash & mask;
    for (let entry = this.slots[slot]!; entry !== 0; entry = this.slots[slot]!) {
      const run = entry - 1;
      if (this.runHashes[run] === hash && sameText(this.runTexts[run]!, text, start, length)) return run;
      slot = (slot + 1) & mask;
    }
    const runText = text.slice(start, end);
    const run = this.runIds.push((joined ? tokenize(runText) : wordTokens(runText)).map((term) => this.id(term))) - 1;
    this.runHashes.push(hash);
    this.runTexts.push(runText);
    this.slots[slot] = run + 1;
    // At most half full, so probes stay short.
    if (this.runIds.length * 2 > this.slots.length) {
      this.slots = new Int32Array(this.slots.length * 2);
      mask = this.slots.length - 1;
      for (let r = 0; r < this.runHashes.length; r++) {
        let s = this.runHashes[r]! & mask;
        while (this.slots[s] !== 0) s = (s + 1) & mask;
        this.slots[s] = r + 1;
      }
    }
    return run;
  }
}

function sameText(known: string, text: string, start: number, length: number): boolean {
  if (known.length !== length) return false;
  for (let k = 0; k < length; k++) if (known.charCodeAt(k) !== text.charCodeAt(start + k)) return false;
  return true;
}
