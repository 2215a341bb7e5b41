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
import type { GraphNode } from '../model.js';
import { fold, tokenize } from './tokenizer.js';
import { FIELDS, baseName, fieldTexts } from './fields.js';
import { bytesToU16, bytesToU32, u16ToBytes, u32ToBytes } from './_bytes.js';
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
}

const K1 = 1.2;
/** Share of the best score below which hits are not even sorted when a limit is given. */
const TAIL_SHARE = 0.05;
const NF = FIELDS.length;

/** Tokenises every node once, at build time. `nodes` must be in bundle order (node index = position). */
export function buildTextIndex(nodes: readonly GraphNode[]): SerializedTextIndex {
  const postings = new Map<string, number[]>(); // term → flat [doc, field<<12|tf, …]
  const lens = new Array<number>(nodes.length * NF).fill(0);
  nodes.forEach((node, doc) => {
    fieldTexts(node).forEach((text, field) => {
      const tokens = tokenize(text);
      lens[doc * NF + field] = Math.min(tokens.length, 0xffff);
      const tf = new Map<string, number>();
      for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [t, count] of tf) {
        let list = postings.get(t);
        if (!list) postings.set(t, (list = []));
        list.push(doc, (field << 12) | Math.min(count, 0xfff));
      }
    });
  });
  const terms = [...postings.keys()].sort();
  const offsets: number[] = [0];
  const docs: number[] = [];
  const tfs: number[] = [];
  for (const t of terms) {
    const list = postings.get(t)!;
    for (let i = 0; i < list.length; i += 2) {
      docs.push(list[i]!);
      tfs.push(list[i + 1]!);
    }
    offsets.push(docs.length);
  }
  return {
    format: SEARCH_FORMAT,
    fields: FIELDS.map((f) => f.name),
    nodes: nodes.length,
    terms: terms.join('\n'),
    offsets: u32ToBytes(offsets),
    docs: u32ToBytes(docs),
    tfs: u16ToBytes(tfs),
    lens: u16ToBytes(lens),
  };
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
  private readonly termIds = new Map<string, number>();
  private readonly offsets: Uint32Array;
  private readonly docs: Uint32Array;
  private readonly tfs: Uint16Array;
  /** Per doc and field: 1 - b + b·len/avg, precomputed so scoring is one division. */
  private readonly norms: Float32Array;
  private readonly exact = new Map<string, number[]>();
  private readonly acc: Float64Array;
  private readonly groupAcc: Float64Array;

  constructor(data: SerializedTextIndex, nodes: readonly GraphNode[]) {
    this.size = data.nodes;
    const terms = data.terms === '' ? [] : data.terms.split('\n');
    for (let i = 0; i < terms.length; i++) this.termIds.set(terms[i]!, i);
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
    nodes.forEach((node, i) => {
      const keys = new Set([node.id, node.doc_id, node.title, baseName(node.source_file), ...node.aliases].map((k) => fold(k).trim()));
      for (const key of keys) {
        if (!key) continue;
        const list = this.exact.get(key);
        if (list) list.push(i);
        else this.exact.set(key, [i]);
      }
    });
    this.acc = new Float64Array(this.size);
    this.groupAcc = new Float64Array(this.size);
  }

  search(query: string, options?: { limit?: number }): TextHit[] {
    const groups = [...new Set(tokenize(query))].map((term) => [{ term, weight: 1 }]);
    return this.searchTerms(groups, options);
  }

  lookup(key: string): readonly number[] {
    return this.exact.get(fold(key).trim()) ?? [];
  }

  docFrequency(term: string): number {
    const t = this.termIds.get(term);
    if (t === undefined) return 0;
    let df = 0;
    let last = -1;
    for (let p = this.offsets[t]!; p < this.offsets[t + 1]!; p++) if (this.docs[p] !== last) (last = this.docs[p]!), df++;
    return df;
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
    const t = this.termIds.get(alt.term);
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
