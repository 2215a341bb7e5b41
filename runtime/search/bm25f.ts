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
import { countingSortPostings, wholeLists } from './postings.js';
import { fold, tokenize } from './tokenizer.js';
import { IdList, TermIds } from './term-ids.js';
import { FIELDS, baseName, fieldTexts } from './fields.js';
import { bytesToU16, bytesToU32, ownedBytes, u32ToBytes } from '../../formats/bytes.js';
import { rankTerms, termStats, type PostingLists, type TermStats, type WeightedTerm } from './top-k.js';
import type { SearchTermsOptions, TermAlternative, TextHit, TextIndex } from './types.js';

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
  readonly seen = new IdList();
  readonly ids = new IdList();

  /** Makes room for a count of every id below `vocabSize`. */
  reserve(vocabSize: number): void {
    if (this.counts.length >= vocabSize) return;
    const grown = new Int32Array(Math.max(vocabSize, this.counts.length * 2));
    grown.set(this.counts);
    this.counts = grown;
  }
}

/** The terms of one node's fields ({@link NodeTerms}); `vocab` gets any new term. */
export function nodeTerms(node: GraphNode, vocab: TermIds, scratch: TermCounter = new TermCounter()): NodeTerms {
  const texts = fieldTexts(node);
  const lens = new Array<number>(NF);
  const out: number[] = [];
  const { seen, ids } = scratch;
  for (let field = 0; field < NF; field++) {
    ids.clear();
    vocab.tokenIds(texts[field]!, ids);
    lens[field] = Math.min(ids.length, 0xffff);
    countIds(ids, vocab.size, scratch);
    const counts = scratch.counts;
    for (let k = 0; k < seen.length; k++) {
      const t = seen.items[k]!;
      out.push(t, (field << 12) | Math.min(counts[t]!, 0xfff));
      counts[t] = 0;
    }
  }
  return { lens, terms: out };
}

/**
 * Counts `ids` into `scratch`: `seen` = the distinct ids in order of first appearance, `counts[id]`
 * = occurrences. The caller reads the counts of `seen` and sets them back to 0.
 */
function countIds(ids: IdList, vocabSize: number, scratch: TermCounter): void {
  scratch.reserve(vocabSize);
  const { counts, seen } = scratch;
  seen.clear();
  for (let k = 0; k < ids.length; k++) {
    const t = ids.items[k]!;
    if (counts[t] === 0) seen.push(t);
    counts[t] = counts[t]! + 1;
  }
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
  const { used, offsets, items: docs, tfs } = countingSortPostings(wholeLists(perNode.map((node) => node.terms)), terms);
  const data: SerializedTextIndex = {
    format: SEARCH_FORMAT,
    fields: FIELDS.map((f) => f.name),
    nodes: n,
    terms: used.map((i) => terms[i]).join('\n'),
    offsets: ownedBytes(offsets),
    docs: ownedBytes(docs),
    tfs: ownedBytes(tfs),
    lens: ownedBytes(lens),
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

class Bm25fIndex implements TextIndex, PostingLists {
  readonly size: number;
  /** Sorted terms (binary search) — or, for unsorted input, a term → id map. */
  private readonly terms: string[];
  private readonly termMap: Map<string, number> | null = null;
  readonly offsets: Uint32Array;
  readonly docs: Uint32Array;
  readonly tfs: Uint16Array;
  /** Per doc and field: 1 - b + b·len/avg, precomputed so scoring is one division. */
  readonly norms: Float32Array;
  /** Per term id, computed on first use: a query's terms are few, the vocabulary is large. */
  private readonly stats = new Map<number, TermStats>();
  /** Exact-match table: precomputed (sorted keys + u32 lists) when the data has one, else a map. */
  private readonly exact: Map<string, number[]> | null = null;
  private readonly keys: string[] = [];
  private readonly keyOffsets: Uint32Array | null = null;
  private readonly keyNodes: Uint32Array | null = null;

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
  }

  private termId(term: string): number | undefined {
    if (this.termMap) return this.termMap.get(term);
    const t = findSorted(this.terms, term);
    return t < 0 ? undefined : t;
  }

  search(query: string, options?: SearchTermsOptions): TextHit[] {
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
    return t === undefined ? 0 : this.statsOf(t).df;
  }

  private statsOf(t: number): TermStats {
    let stats = this.stats.get(t);
    if (!stats) this.stats.set(t, (stats = termStats(this, t)));
    return stats;
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

  searchTerms(groups: readonly (readonly TermAlternative[])[], options?: SearchTermsOptions): TextHit[] {
    const resolved = groups.map((group) => {
      const terms: WeightedTerm[] = [];
      for (const alt of group) {
        const term = this.termId(alt.term);
        if (term !== undefined) terms.push({ term, weight: alt.weight });
      }
      return terms;
    });
    return rankTerms(this, resolved, (t) => this.statsOf(t), { limit: options?.limit, prune: !options?.exhaustive });
  }
}
