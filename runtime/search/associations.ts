/**
 * Term associations learned from the indexed corpus itself (issue #20): two words that keep
 * appearing in the same passages of these specs are taken as related here ("overlap" and "booking"
 * in a clinic's rules, "multa" and "retraso" in a library's), whatever the domain or language.
 * A query word then also finds, at a lower weight, the passages that use its associates.
 *
 * Strength: normalised pointwise mutual information over the bundle's chunks (paragraph-level
 * passages, the unit `bundle.chunk_search` already counts):
 *   npmi(a, b) = log(N·c / (df_a·df_b)) / −log(c / N),  c = chunks holding both, N = chunks.
 * 1 = the two words only ever appear together, 0 = independent. Built at pack time from the chunk
 * index alone, so the section is a pure function of it: same specs ⇒ same bytes, and an incremental
 * build equals a full one. No parameter depends on a corpus: the thresholds below are counts and
 * shares.
 *
 * Serialized form (plain msgpack-able data, deterministic for equal input):
 * - `terms`: every term that has associates or is one, sorted, joined by `\n`;
 * - `offsets`: u32[terms + 1], the slice of `targets` / `strengths` that belongs to each term;
 * - `targets`: u32 per association, the associate's position in `terms`, strongest first;
 * - `strengths`: u16 per association, npmi × 65535 rounded.
 */
import { bytesToU16, bytesToU32, u16ToBytes, u32ToBytes } from '../../formats/bytes.js';
import type { SerializedChunkIndex } from './chunk-index.js';
import type { TermAlternative, TextIndex } from './types.js';

export const ASSOCIATIONS_FORMAT = 'kdd-term-assoc/1';

export interface SerializedAssociations {
  format: typeof ASSOCIATIONS_FORMAT;
  terms: string;
  offsets: Uint8Array;
  targets: Uint8Array;
  strengths: Uint8Array;
}

/** Associates kept per word (the strongest). */
export const PER_TERM = 5;
/** Weakest association kept (npmi). */
export const MIN_STRENGTH = 0.5;
/** Words in more than this share of the chunks say little about any other word: neither end. */
export const MAX_CHUNK_SHARE = 0.1;

// Words only: ids and numbers are matched exactly (the exact-match table), not by association.
const WORD = /^\p{L}{3,}$/u;

/** The associations of the words of a chunk index (see the module comment). */
export function buildAssociations(chunkIndex: SerializedChunkIndex): SerializedAssociations {
  const n = chunkIndex.chunks;
  const terms = chunkIndex.terms === '' ? [] : chunkIndex.terms.split('\n');
  const offsets = bytesToU32(chunkIndex.offsets);
  const postings = chunkIndex.postings;
  const maxDf = Math.max(1, Math.floor(n * MAX_CHUNK_SHARE));
  // Chunks of each eligible word (ascending), and each chunk's eligible words (ascending term order).
  const chunksOf: (Uint32Array | null)[] = new Array(terms.length).fill(null);
  const termsIn: number[][] = Array.from({ length: n }, () => []);
  for (let t = 0; t < terms.length; t++) {
    if (!WORD.test(terms[t]!)) continue;
    const list: number[] = [];
    let chunk = 0;
    for (let p = offsets[t]!, end = offsets[t + 1]!; p < end; ) {
      let gap = 0;
      let shift = 0;
      let byte: number;
      do {
        byte = postings[p++]!;
        gap += (byte & 0x7f) * 2 ** shift;
        shift += 7;
      } while (byte & 0x80);
      chunk += gap;
      p++; // tf: presence is what counts
      list.push(chunk);
    }
    if (list.length > maxDf) continue;
    chunksOf[t] = Uint32Array.from(list);
    for (const c of list) termsIn[c]!.push(t);
  }
  // Per word: count shared chunks with every other eligible word (dense counter, touched list).
  const shared = new Uint32Array(terms.length);
  const touched: number[] = [];
  const found: [number, number][][] = new Array(terms.length);
  for (let a = 0; a < terms.length; a++) {
    const chunks = chunksOf[a];
    if (!chunks) continue;
    touched.length = 0;
    for (const c of chunks) {
      for (const b of termsIn[c]!) {
        if (b === a) continue;
        if (shared[b] === 0) touched.push(b);
        shared[b]!++;
      }
    }
    const dfA = chunks.length;
    const best: [number, number][] = [];
    for (const b of touched) {
      const c = shared[b]!;
      shared[b] = 0;
      const dfB = chunksOf[b]!.length;
      const npmi = c === n ? 1 : Math.log((n * c) / (dfA * dfB)) / -Math.log(c / n);
      const strength = Math.round(Math.min(1, npmi) * 0xffff);
      if (strength >= MIN_STRENGTH * 0xffff) best.push([b, strength]);
    }
    // Strongest first; ties by term order (term ids follow sorted term order).
    best.sort((x, y) => y[1] - x[1] || x[0] - y[0]);
    if (best.length > 0) found[a] = best.slice(0, PER_TERM);
  }
  // Keep only the terms that take part; renumber in sorted order (term ids are already sorted).
  const used = new Uint8Array(terms.length);
  for (let a = 0; a < terms.length; a++) {
    const list = found[a];
    if (!list) continue;
    used[a] = 1;
    for (const [b] of list) used[b] = 1;
  }
  const position = new Int32Array(terms.length).fill(-1);
  const kept: string[] = [];
  for (let t = 0; t < terms.length; t++) if (used[t]) position[t] = kept.push(terms[t]!) - 1;
  const outOffsets = [0];
  const targets: number[] = [];
  const strengths: number[] = [];
  for (let t = 0; t < terms.length; t++) {
    if (!used[t]) continue;
    for (const [b, s] of found[t] ?? []) targets.push(position[b]!), strengths.push(s);
    outOffsets.push(targets.length);
  }
  return { format: ASSOCIATIONS_FORMAT, terms: kept.join('\n'), offsets: u32ToBytes(outOffsets), targets: u32ToBytes(targets), strengths: u16ToBytes(strengths) };
}

/** Restored associations: a word's associates with their strength (0–1], strongest first. */
export interface Associations {
  of(term: string): readonly TermAlternative[];
}

export const NO_ASSOCIATIONS: Associations = { of: () => [] };

export function isAssociations(data: unknown): data is SerializedAssociations {
  const d = data as Partial<SerializedAssociations> | null | undefined;
  return !!d && d.format === ASSOCIATIONS_FORMAT && typeof d.terms === 'string' && d.offsets instanceof Uint8Array && d.targets instanceof Uint8Array && d.strengths instanceof Uint8Array;
}

/** Views the serialized arrays; throws on a foreign format or inconsistent lengths. */
export function restoreAssociations(data: unknown): Associations {
  if (!isAssociations(data)) throw new Error(`unsupported term associations (expected ${ASSOCIATIONS_FORMAT})`);
  const terms = data.terms === '' ? [] : data.terms.split('\n');
  const offsets = bytesToU32(data.offsets);
  const targets = bytesToU32(data.targets);
  const strengths = bytesToU16(data.strengths);
  if (offsets.length !== terms.length + 1 || targets.length !== strengths.length || offsets[terms.length] !== targets.length) {
    throw new Error('term associations do not match their terms');
  }
  const ids = new Map<string, number>();
  for (let i = 0; i < terms.length; i++) ids.set(terms[i]!, i);
  const memo = new Map<number, readonly TermAlternative[]>();
  return {
    of(term) {
      const t = ids.get(term);
      if (t === undefined) return [];
      let list = memo.get(t);
      if (!list) {
        const out: TermAlternative[] = [];
        for (let k = offsets[t]!; k < offsets[t + 1]!; k++) {
          const target = terms[targets[k]!];
          if (target === undefined) throw new Error('term associations name a term they do not hold');
          out.push({ term: target, weight: strengths[k]! / 0xffff });
        }
        memo.set(t, (list = out));
      }
      return list;
    },
  };
}

/** Weight of an associate relative to the word it stands for, at full strength. */
export const ASSOCIATE_WEIGHT = 0.3;

/**
 * The query's concept groups with each concept's associates added as alternatives of that concept
 * (a node scores by the word or by its best associate, never both, so expansion only reaches nodes
 * the word itself misses). An associate of an alternative (the word typed or a translation) weighs
 * ASSOCIATE_WEIGHT × strength × the alternative's weight, and never more than the alternative's own
 * idf would give: a common word must not pull in a rare one at full force. Associates the query
 * already holds are not added again. Marked `associated: true` for `why`.
 */
export function withAssociates(groups: readonly (readonly TermAlternative[])[], text: Pick<TextIndex, 'associates' | 'docFrequency' | 'size'>): TermAlternative[][] {
  const inQuery = new Set(groups.flatMap((group) => group.map((alt) => alt.term)));
  const idf = (term: string) => {
    const df = text.docFrequency(term);
    return Math.log(1 + (text.size - df + 0.5) / (df + 0.5));
  };
  return groups.map((group) => {
    const added = new Map<string, number>();
    for (const source of group) {
      for (const assoc of text.associates(source.term)) {
        if (inQuery.has(assoc.term)) continue;
        const weight = ASSOCIATE_WEIGHT * assoc.weight * source.weight * Math.min(1, idf(source.term) / idf(assoc.term));
        if (weight > (added.get(assoc.term) ?? 0)) added.set(assoc.term, weight);
      }
    }
    if (added.size === 0) return [...group];
    const extra = [...added].sort(([a], [b]) => (a < b ? -1 : 1)).map(([term, weight]): TermAlternative => ({ term, weight, associated: true }));
    return [...group, ...extra];
  });
}
