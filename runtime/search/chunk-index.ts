/**
 * Chunk-level term index for lexical chunk retrieval at L1 (issue #10): built at pack time
 * (`bundle.chunk_search`), so a query never tokenises chunk text. Isomorphic.
 *
 * Serialized form (plain msgpack-able data, deterministic for equal input):
 * - `terms`: every term, sorted, joined by `\n`;
 * - `offsets`: u32[terms + 1], byte offsets into `postings`;
 * - `postings`: per term, one entry per chunk containing it, ascending: LEB128 varint of the gap to
 *   the previous chunk index (the first is the index itself), then one byte `min(tf, 255)`.
 * Terms are those of `runtime/search/tokenizer.ts` over `heading + "\n" + chunk text` (the same
 * tokens `tokenize` gives; {@link pieceTerms} only memoises it per whitespace-separated piece).
 *
 * Measured on the 10k generated corpus (71,574 chunks): 2.1 M postings, ~5 MB in the bundle.
 */
import type { BundleChunk } from '../../formats/bundle/types.js';
import type { GraphNode } from '../../model/graph.js';
import { bytesToU32, ownedBytes } from '../../formats/bytes.js';
import { countingSortPostings, wholeLists, type PairRuns } from './postings.js';
import { tokenize } from './tokenizer.js';

export const CHUNK_SEARCH_FORMAT = 'kdd-chunk-terms/1';

export interface SerializedChunkIndex {
  format: typeof CHUNK_SEARCH_FORMAT;
  /** Number of chunks indexed (= bundle.chunks.length). */
  chunks: number;
  terms: string;
  offsets: Uint8Array;
  postings: Uint8Array;
}

// The tokenizer's word chunks never span whitespace, so tokenize(text) is the concatenation of
// tokenize(piece) over the whitespace-separated pieces: memoising pieces gives the same terms ~8×
// faster (pieces repeat a lot). Bounded.
const PIECES = new Map<string, readonly string[]>();
const PIECES_MAX = 200_000;

/** Exactly `tokenize(text)`, memoised per whitespace-separated piece. */
export function pieceTerms(text: string, out: string[] = []): string[] {
  for (const piece of text.split(/\s+/)) {
    if (piece === '') continue;
    let terms = PIECES.get(piece);
    if (!terms) {
      terms = tokenize(piece);
      if (PIECES.size >= PIECES_MAX) PIECES.clear();
      PIECES.set(piece, terms);
    }
    for (const t of terms) out.push(t);
  }
  return out;
}

/** Term frequencies of one chunk: its section heading plus its text. */
export function chunkTermFrequencies(chunk: BundleChunk, node: GraphNode): Map<string, number> {
  const tf = new Map<string, number>();
  const section = node.sections[chunk.section];
  if (!section) return tf;
  const terms = pieceTerms(section.heading);
  pieceTerms(section.text.slice(chunk.start, chunk.end), terms);
  for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
  return tf;
}

/**
 * {@link chunkTermFrequencies} as flat `[term id, tf]` pairs appended to `out`, ids from `vocab`
 * (position-independent: what the pack cache keeps per chunk, compiler/cache/pack-memo.ts).
 */
export function chunkTermIds(chunk: Pick<BundleChunk, 'section' | 'start' | 'end'>, node: GraphNode, vocab: { id(term: string): number }, out: number[] = []): number[] {
  for (const [term, tf] of chunkTermFrequencies(chunk as BundleChunk, node)) out.push(vocab.id(term), tf);
  return out;
}

/** Builds the chunk index; `chunks` in bundle order (chunk index = position). */
export function buildChunkIndex(chunks: readonly BundleChunk[], nodes: readonly GraphNode[]): SerializedChunkIndex {
  const ids = new Map<string, number>();
  const terms: string[] = [];
  const vocab = {
    id(term: string): number {
      let id = ids.get(term);
      if (id === undefined) ids.set(term, (id = terms.push(term) - 1));
      return id;
    },
  };
  const lists = chunks.map((chunk) => {
    const node = nodes[chunk.node];
    return node ? chunkTermIds(chunk, node, vocab) : [];
  });
  return assembleChunkIndex(wholeLists(lists), terms);
}

/**
 * The chunk index from per-chunk `[term id, tf]` lists (chunk i = item i), ids into `terms`
 * (which may hold terms no chunk uses). Equal to {@link buildChunkIndex} of the chunks the lists
 * were made from, byte for byte.
 */
export function assembleChunkIndex(runs: PairRuns, terms: readonly string[]): SerializedChunkIndex {
  const { used, offsets: start, items: chunkOf, tfs } = countingSortPostings(runs, terms);
  // Sized exactly first (a gap takes one byte per 7 bits), so the postings are written once, in place.
  let size = 0;
  for (let k = 0; k < used.length; k++) {
    let previous = 0;
    for (let q = start[k]!; q < start[k + 1]!; q++) {
      size += varintLength(chunkOf[q]! - previous) + 1;
      previous = chunkOf[q]!;
    }
  }
  const bytes = new Uint8Array(size);
  let b = 0;
  const offsets = new Uint32Array(used.length + 1);
  for (let k = 0; k < used.length; k++) {
    let previous = 0;
    for (let q = start[k]!; q < start[k + 1]!; q++) {
      let gap = chunkOf[q]! - previous;
      previous = chunkOf[q]!;
      while (gap >= 0x80) {
        bytes[b++] = (gap & 0x7f) | 0x80;
        gap >>>= 7;
      }
      bytes[b++] = gap;
      bytes[b++] = Math.min(tfs[q]!, 255);
    }
    offsets[k + 1] = b;
  }
  return { format: CHUNK_SEARCH_FORMAT, chunks: runs.count, terms: used.map((t) => terms[t]).join('\n'), offsets: ownedBytes(offsets), postings: bytes };
}

function varintLength(value: number): number {
  let length = 1;
  while (value >= 0x80) (value >>>= 7), length++;
  return length;
}

/** A restored chunk index: postings of one term at a time. */
export interface ChunkIndex {
  readonly size: number;
  /** Zeroed per-chunk accumulators for scoring, reused across queries (callers must re-zero what they touch). */
  readonly scratch: { acc: Float64Array; group: Float64Array };
  /** Chunks containing `term` (0 when unknown). */
  docFrequency(term: string): number;
  /** Calls `visit(chunk, tf)` for every chunk containing `term`, chunks ascending. */
  forEach(term: string, visit: (chunk: number, tf: number) => void): void;
}

export function isChunkIndex(data: unknown): data is SerializedChunkIndex {
  const d = data as Partial<SerializedChunkIndex> | null | undefined;
  return !!d && d.format === CHUNK_SEARCH_FORMAT && typeof d.terms === 'string' && d.offsets instanceof Uint8Array && d.postings instanceof Uint8Array;
}

/** Views the serialized arrays and builds the term map (no tokenising); throws on a foreign format. */
export function restoreChunkIndex(data: unknown, chunkCount: number): ChunkIndex {
  if (!isChunkIndex(data)) throw new Error(`unsupported chunk index (expected ${CHUNK_SEARCH_FORMAT})`);
  if (data.chunks !== chunkCount) throw new Error(`chunk index covers ${data.chunks} chunks, the bundle has ${chunkCount}`);
  const ids = new Map<string, number>();
  const terms = data.terms === '' ? [] : data.terms.split('\n');
  for (let i = 0; i < terms.length; i++) ids.set(terms[i]!, i);
  const offsets = bytesToU32(data.offsets);
  const postings = data.postings;
  const df = new Map<number, number>();
  const count = (t: number) => {
    let n = df.get(t);
    if (n === undefined) {
      n = 0;
      for (let p = offsets[t]!, end = offsets[t + 1]!; p < end; n++) {
        while (postings[p]! & 0x80) p++;
        p += 2;
      }
      df.set(t, n);
    }
    return n;
  };
  let scratch: ChunkIndex['scratch'] | null = null;
  return {
    size: data.chunks,
    get scratch() {
      return (scratch ??= { acc: new Float64Array(data.chunks), group: new Float64Array(data.chunks) });
    },
    docFrequency(term) {
      const t = ids.get(term);
      return t === undefined ? 0 : count(t);
    },
    forEach(term, visit) {
      const t = ids.get(term);
      if (t !== undefined) forEachPosting(postings, offsets[t]!, offsets[t + 1]!, visit);
    },
  };
}

/**
 * Calls `visit(chunk, tf, start, end)` for each posting of `postings[from, to)` (gap varint, then tf
 * byte), chunks ascending; `start` and `end` delimit the posting's bytes.
 */
export function forEachPosting(postings: Uint8Array, from: number, to: number, visit: (chunk: number, tf: number, start: number, end: number) => void): void {
  let chunk = 0;
  for (let p = from; p < to; ) {
    const start = p;
    let gap = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = postings[p++]!;
      gap += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    chunk += gap;
    const tf = postings[p++]!;
    visit(chunk, tf, start, p);
  }
}
