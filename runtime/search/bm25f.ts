/**
 * A compact BM25F inverted index (docs/decisions/search-engine.md explains why not Orama's restore).
 *
 * Serialized form (plain msgpack-able data, deterministic for equal input):
 * - `terms`: every term, sorted, joined by `\n` (one string decodes much faster than 100k strings);
 * - `offsets`: u32[terms + 1], the slice of the posting arrays that belongs to each term;
 * - `docs`: u32 per posting, the node position; postings of a term are sorted by (doc, field);
 * - `tfs`: u16 per posting, `field << 12 | min(tf, 4095)`;
 * - `lens`: u16[nodes × fields], tokens per field.
 * Restore splits the term string into a Map and views the byte arrays: no tokenising.
 */
import type { GraphNode } from '../../model/graph.js';
import { countingSortPostings } from './postings.js';
import { CHUNK, fold, tokenize } from './tokenizer.js';
import { FIELDS, baseName, fieldTexts } from './fields.js';
import { bytesToU16, bytesToU32, u16ToBytes, u32ToBytes } from '../../formats/bytes.js';
import type { TermAlternative, TextHit, TextIndex } from './types.js';

export const SEARCH_FORMAT = 'kdd-bm25f/1';

export interface SerializedTextIndex {
  format: typeof SEARCH_FORMAT;
  /** Field names in order (the field number in `tfs` indexes this list). */
  fields: string[];
  nodes: number;
  terms: string;
  offsets: Uint8Array;
  docs: Uint8Array;
  tfs: Uint8Array;
  lens: Uint8Array;
  /**
   * Optional (written by buildTextIndex; absent in indexes assembled elsewhere, e.g. the site's
   * shards): the exact-match table precomputed — folded keys sorted and joined by `\n`, u32 offsets
   * (keys + 1) into `key_nodes`, u32 node positions ascending per key. Restore then needs no fold.
   */
  keys?: string;
  key_offsets?: Uint8Array;
  key_nodes?: Uint8Array;
}

const K1 = 1.2;
/** Share of the best score below which hits are not even sorted when a limit is given. */
const TAIL_SHARE = 0.05;
const NF = FIELDS.length;

/**
 * Tokenised text of one node, independent of its position: `lens` = tokens per field (FIELDS order,
 * ≤ 0xffff), `terms` = flat `[term id, field << 12 | min(tf, 0xfff)]` pairs (fields ascending), ids into
 * the {@link TermIds} it was tokenised with. What the pack cache keeps per node (compiler/cache/pack-memo.ts).
 */
export interface NodeTerms {
  lens: ArrayLike<number>;
  terms: ArrayLike<number>;
}

/**
 * Tokenises every node once, at build time. `nodes` must be in bundle order (node index = position).
 * Tokens are produced per CHUNK run (tokenize() is chunk-wise), memoised as term ids for the build,
 * and counted in typed arrays: the output equals a plain `tokenize` + `Map` count, much faster.
 */
export function buildTextIndex(nodes: readonly GraphNode[]): SerializedTextIndex {
  const vocab = new TermIds();
  const counts = new TermCounter();
  const perNode = nodes.map((node) => nodeTerms(node, vocab, counts));
  return assembleTextIndex(perNode, vocab.terms, nodes.map(exactKeys));
}

/** Reusable scratch for {@link nodeTerms}: a count per term id. */
export class TermCounter {
  counts = new Int32Array(1024);
  readonly seen: number[] = [];
  readonly ids: number[] = [];
}

/** The terms of one node's fields ({@link NodeTerms}); `vocab` gets any new term. */
export function nodeTerms(node: GraphNode, vocab: TermIds, scratch: TermCounter = new TermCounter()): NodeTerms {
  const texts = fieldTexts(node);
  const lens = new Array<number>(NF);
  const out: number[] = [];
  const { seen, ids } = scratch;
  for (let field = 0; field < NF; field++) {
    ids.length = 0;
    vocab.tokenIds(texts[field]!, ids);
    lens[field] = Math.min(ids.length, 0xffff);
    if (scratch.counts.length < vocab.size) {
      const grown = new Int32Array(Math.max(vocab.size, scratch.counts.length * 2));
      grown.set(scratch.counts);
      scratch.counts = grown;
    }
    const counts = scratch.counts;
    seen.length = 0;
    for (let k = 0; k < ids.length; k++) {
      const t = ids[k]!;
      if (counts[t] === 0) seen.push(t);
      counts[t] = counts[t]! + 1;
    }
    for (let k = 0; k < seen.length; k++) {
      const t = seen[k]!;
      out.push(t, (field << 12) | Math.min(counts[t]!, 0xfff));
      counts[t] = 0;
    }
  }
  return { lens, terms: out };
}

/**
 * Postings from per-node term lists (node i = position i) whose ids index `terms` (a vocabulary
 * that may hold terms no node uses: only used ones are written). `keys[i]` = {@link exactKeys} of node i.
 * Equal to {@link buildTextIndex} of the nodes the lists were made from, byte for byte.
 */
export function assembleTextIndex(perNode: readonly NodeTerms[], terms: readonly string[], keys: readonly (readonly string[])[]): SerializedTextIndex {
  const n = perNode.length;
  const lens = new Uint16Array(n * NF);
  for (let doc = 0; doc < n; doc++) for (let f = 0; f < NF; f++) lens[doc * NF + f] = perNode[doc]!.lens[f]!;
  const { used, offsets, items: docs, tfs: counts } = countingSortPostings(perNode.map((node) => node.terms), terms);
  const tfs = Uint16Array.from(counts);
  const data: SerializedTextIndex = {
    format: SEARCH_FORMAT,
    fields: FIELDS.map((f) => f.name),
    nodes: n,
    terms: used.map((i) => terms[i]).join('\n'),
    offsets: u32ToBytes(offsets),
    docs: u32ToBytes(docs),
    tfs: u16ToBytes(tfs),
    lens: u16ToBytes(lens),
  };
  const exact = keyTable(keys);
  const sortedKeys = [...exact.keys()].sort();
  if (!sortedKeys.some((key) => key.includes('\n'))) {
    const keyOffsets = [0];
    const keyNodes: number[] = [];
    for (const key of sortedKeys) keyNodes.push(...exact.get(key)!), keyOffsets.push(keyNodes.length);
    data.keys = sortedKeys.join('\n');
    data.key_offsets = u32ToBytes(keyOffsets);
    data.key_nodes = u32ToBytes(keyNodes);
  }
  return data;
}

/** A node's exact-match keys: folded id, doc id, title, file name and aliases (distinct, non-empty). */
export function exactKeys(node: GraphNode): string[] {
  const keys = new Set([node.id, node.doc_id, node.title, baseName(node.source_file), ...node.aliases].map((k) => fold(k).trim()));
  keys.delete('');
  return [...keys];
}

/** Per-node key lists (node i = position i) → key → node positions (ascending, no repeats). */
export function keyTable(keyLists: readonly (readonly string[])[]): Map<string, number[]> {
  const table = new Map<string, number[]>();
  keyLists.forEach((list, i) => {
    for (const key of list) {
      const nodes = table.get(key);
      if (nodes) nodes.push(i);
      else table.set(key, [i]);
    }
  });
  return table;
}

/** Folded id, doc id, title, file name and aliases → node positions (ascending, no repeats). */
function exactTable(nodes: readonly GraphNode[]): Map<string, number[]> {
  return keyTable(nodes.map(exactKeys));
}

/** Position of `key` in the sorted `list` (code-unit order), or -1. */
function findSorted(list: readonly string[], key: string): number {
  let lo = 0;
  let hi = list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const value = list[mid]!;
    if (value === key) return mid;
    if (value < key) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

function isSorted(list: readonly string[]): boolean {
  for (let i = 1; i < list.length; i++) if (!(list[i - 1]! < list[i]!)) return false;
  return true;
}

// A run of letters/digits joined by - : _ . / — the tokenizer's CHUNK (tokens never cross a run).
const RUN = new RegExp(CHUNK.source, 'gu');

/** Build-time vocabulary: term ⇄ id and run → term ids memo. */
export class TermIds {
  readonly terms: string[] = [];
  private readonly ids = new Map<string, number>();
  private readonly runs = new Map<string, readonly number[]>();

  /** A vocabulary that starts with `terms` (ids = positions; distinct terms expected). */
  constructor(terms: readonly string[] = []) {
    for (const term of terms) this.id(term);
  }

  get size(): number {
    return this.terms.length;
  }

  /** Appends the term ids of `tokenize(text)` to `out`. */
  tokenIds(text: string, out: number[]): void {
    RUN.lastIndex = 0;
    for (let m = RUN.exec(text); m !== null; m = RUN.exec(text)) {
      const run = m[0];
      let list = this.runs.get(run);
      if (list === undefined) {
        list = tokenize(run).map((t) => this.id(t));
        this.runs.set(run, list);
      }
      for (let k = 0; k < list.length; k++) out.push(list[k]!);
    }
  }

  /** Id of `term`, added when new. */
  id(term: string): number {
    let id = this.ids.get(term);
    if (id === undefined) {
      id = this.terms.push(term) - 1;
      this.ids.set(term, id);
    }
    return id;
  }
}

function isSerialized(data: unknown): data is SerializedTextIndex {
  const d = data as Partial<SerializedTextIndex> | null;
  return !!d && d.format === SEARCH_FORMAT && typeof d.terms === 'string' && d.offsets instanceof Uint8Array;
}

/** Views the serialized arrays; builds the term map and the exact-match table. No tokenising. */
export function restoreTextIndex(data: unknown, nodes: readonly GraphNode[]): TextIndex {
  if (!isSerialized(data)) throw new Error(`Unsupported search index format (expected ${SEARCH_FORMAT})`);
  if (data.nodes !== nodes.length) throw new Error(`Search index covers ${data.nodes} nodes, bundle has ${nodes.length}`);
  return new Bm25fIndex(data, nodes);
}

class Bm25fIndex implements TextIndex {
  readonly size: number;
  /** Sorted terms (binary search) — or, for unsorted input, a term → id map. */
  private readonly terms: string[];
  private readonly termMap: Map<string, number> | null = null;
  private readonly offsets: Uint32Array;
  private readonly docs: Uint32Array;
  private readonly tfs: Uint16Array;
  /** Per doc and field: 1 - b + b·len/avg, precomputed so scoring is one division. */
  private readonly norms: Float32Array;
  /** Exact-match table: precomputed (sorted keys + u32 lists) when the data has one, else a map. */
  private readonly exact: Map<string, number[]> | null = null;
  private readonly keys: string[] = [];
  private readonly keyOffsets: Uint32Array | null = null;
  private readonly keyNodes: Uint32Array | null = null;
  private readonly acc: Float64Array;
  private readonly groupAcc: Float64Array;

  constructor(data: SerializedTextIndex, nodes: readonly GraphNode[]) {
    this.size = data.nodes;
    this.terms = data.terms === '' ? [] : data.terms.split('\n');
    if (!isSorted(this.terms)) {
      this.termMap = new Map();
      for (let i = 0; i < this.terms.length; i++) this.termMap.set(this.terms[i]!, i);
    }
    this.offsets = bytesToU32(data.offsets);
    this.docs = bytesToU32(data.docs);
    this.tfs = bytesToU16(data.tfs);
    const lens = bytesToU16(data.lens);
    const avg = new Float64Array(NF);
    for (let i = 0; i < lens.length; i++) avg[i % NF] = avg[i % NF]! + lens[i]!;
    for (let f = 0; f < NF; f++) avg[f] = avg[f]! / Math.max(1, this.size) || 1;
    this.norms = new Float32Array(lens.length);
    for (let i = 0; i < lens.length; i++) {
      const f = FIELDS[i % NF]!;
      this.norms[i] = 1 - f.b + (f.b * lens[i]!) / avg[i % NF]!;
    }
    const keys = typeof data.keys === 'string' ? (data.keys === '' ? [] : data.keys.split('\n')) : null;
    if (keys && data.key_offsets instanceof Uint8Array && data.key_nodes instanceof Uint8Array && isSorted(keys)) {
      this.keys = keys;
      this.keyOffsets = bytesToU32(data.key_offsets);
      this.keyNodes = bytesToU32(data.key_nodes);
      if (this.keyOffsets.length !== keys.length + 1) throw new Error('Search index key table does not match its keys');
    } else {
      this.exact = exactTable(nodes);
    }
    this.acc = new Float64Array(this.size);
    this.groupAcc = new Float64Array(this.size);
  }

  private termId(term: string): number | undefined {
    if (this.termMap) return this.termMap.get(term);
    const t = findSorted(this.terms, term);
    return t < 0 ? undefined : t;
  }

  search(query: string, options?: { limit?: number }): TextHit[] {
    const groups = [...new Set(tokenize(query))].map((term) => [{ term, weight: 1 }]);
    return this.searchTerms(groups, options);
  }

  lookup(key: string): readonly number[] {
    const folded = fold(key).trim();
    if (this.exact) return this.exact.get(folded) ?? [];
    const k = findSorted(this.keys, folded);
    return k < 0 ? [] : Array.from(this.keyNodes!.subarray(this.keyOffsets![k]!, this.keyOffsets![k + 1]!));
  }

  docFrequency(term: string): number {
    const t = this.termId(term);
    if (t === undefined) return 0;
    let df = 0;
    let last = -1;
    for (let p = this.offsets[t]!; p < this.offsets[t + 1]!; p++) if (this.docs[p] !== last) (last = this.docs[p]!), df++;
    return df;
  }

  fieldsOf(term: string, node: number): string[] {
    const t = this.termId(term);
    if (t === undefined) return [];
    // Postings of a term are sorted by (doc, field): binary search for the node's first one.
    let lo = this.offsets[t]!;
    let hi = this.offsets[t + 1]!;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.docs[mid]! < node) lo = mid + 1;
      else hi = mid;
    }
    const out: string[] = [];
    for (let p = lo; p < this.offsets[t + 1]! && this.docs[p] === node; p++) out.push(FIELDS[this.tfs[p]! >>> 12]!.name);
    return out;
  }

  searchTerms(groups: readonly (readonly TermAlternative[])[], options?: { limit?: number }): TextHit[] {
    const { acc, groupAcc } = this;
    const touched: number[] = [];
    for (const group of groups) {
      const groupTouched: number[] = [];
      for (const alt of group) this.scoreTerm(alt, groupAcc, groupTouched);
      for (const doc of groupTouched) {
        if (acc[doc] === 0) touched.push(doc);
        acc[doc] = acc[doc]! + groupAcc[doc]!;
        groupAcc[doc] = 0;
      }
    }
    let max = 0;
    for (const doc of touched) if (acc[doc]! > max) max = acc[doc]!;
    // With a limit, drop the long tail before sorting (common words touch most of a big corpus).
    const floor = options?.limit !== undefined && touched.length > 4 * options.limit ? max * TAIL_SHARE : 0;
    const hits: TextHit[] = [];
    for (const doc of touched) {
      if (acc[doc]! >= floor) hits.push({ node: doc, score: acc[doc]! });
      acc[doc] = 0;
    }
    hits.sort((a, b) => b.score - a.score || a.node - b.node);
    return options?.limit === undefined ? hits : hits.slice(0, options.limit);
  }

  /** Adds `alt`'s BM25F score to `out` as a max over the group's alternatives. */
  private scoreTerm(alt: TermAlternative, out: Float64Array, touched: number[]): void {
    const t = this.termId(alt.term);
    if (t === undefined || alt.weight <= 0) return;
    const start = this.offsets[t]!;
    const end = this.offsets[t + 1]!;
    const df = this.docFrequency(alt.term);
    const idf = Math.log(1 + (this.size - df + 0.5) / (df + 0.5));
    let p = start;
    while (p < end) {
      const doc = this.docs[p]!;
      let tf = 0;
      for (; p < end && this.docs[p] === doc; p++) {
        const packed = this.tfs[p]!;
        const field = packed >>> 12;
        tf += (FIELDS[field]!.weight * (packed & 0xfff)) / this.norms[doc * NF + field]!;
      }
      const score = (alt.weight * idf * tf) / (K1 + tf);
      if (score > out[doc]!) {
        if (out[doc] === 0) touched.push(doc);
        out[doc] = score;
      }
    }
  }
}
