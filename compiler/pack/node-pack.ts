/**
 * One node's pack products (text-index terms, exact keys, chunks and their terms), as the pack memo
 * stores them.
 *
 * Every text of the node is tokenised once, and both indexes count from those ids: the field
 * (BM25F) index takes each field's texts whole, the chunk index takes, per chunk, its section's
 * heading and the runs of the section text inside the chunk's span. The products equal `nodeTerms`
 * (runtime/search/bm25f.ts) and `chunkTermFrequencies` (runtime/search/chunk-index.ts) of the node,
 * pair for pair and in the same order, because no token spans whitespace: a field's tokens are its
 * parts' tokens one after the other, and a chunk's are those of the runs it holds (a run cut by the
 * chunk's edge — only when a chunk had to be cut inside a word — is tokenised again, clipped).
 */
import type { GraphNode } from '../../model/graph.js';
import { exactKeys, TermCounter } from '../../runtime/search/bm25f.js';
import { FIELD_BODY, FIELD_HEADING, FIELD_PRIMARY, FIELDS, nameTexts, sectionField, unsectionedBody } from '../../runtime/search/fields.js';
import { IdList, type TermIds } from '../../runtime/search/term-ids.js';
import type { NodePack } from '../cache/pack-memo.js';
import { chunkSpans } from '../embed/chunk.js';

/**
 * Reused from node to node (the pack is synchronous): every token id of the node, its section
 * texts' runs (start, end, ids end), where each part's ids end, the ids of a clipped run, and the
 * two outputs before they are copied out at their final length.
 */
const scratch = { ids: new IdList(), runs: new IdList(), marks: new IdList(), clipped: new IdList(), terms: new IdList(), pairs: new IdList() };

/** Computes a node's products; new terms go into `vocab`. */
export function computeNodePack(node: GraphNode, vocab: TermIds, counter = new TermCounter()): NodePack {
  const { ids, runs, marks, clipped, terms, pairs } = scratch;
  for (const list of [ids, runs, marks, terms, pairs]) list.clear();
  // Tokenise the name fields, the tags, then per section its heading and its text. `marks` holds
  // where each part's ids end; then per section: heading start, text start, text end, first run.
  for (const text of nameTexts(node)) {
    vocab.tokenIds(text, ids);
    marks.push(ids.length);
  }
  for (const tag of node.tags) vocab.tokenIds(tag, ids);
  const tagsEnd = ids.length;
  const sectionsAt = marks.length;
  for (const section of node.sections) {
    marks.push(ids.length);
    vocab.tokenIds(section.heading, ids);
    marks.push(ids.length);
    const firstRun = runs.length;
    vocab.tokenIds(section.text, ids, 0, section.text.length, runs);
    marks.push(ids.length);
    marks.push(firstRun);
  }
  const unsectionedFrom = ids.length;
  if (node.sections.length === 0) vocab.tokenIds(unsectionedBody(node), ids);
  const mark = (k: number) => marks.items[k]!;
  const tally = new Tally(counter, vocab);

  // The field index: [term, field << 12 | tf] pairs, fields ascending.
  const lens = new Array<number>(FIELDS.length);
  for (let f = 0; f < 3; f++) {
    tally.add(ids, f === 0 ? 0 : mark(f - 1), mark(f));
    lens[f] = tally.flush(terms, f << 12, 0xfff);
  }
  tally.add(ids, mark(2), tagsEnd);
  for (let s = 0; s < node.sections.length; s++) tally.add(ids, mark(sectionsAt + s * 4), mark(sectionsAt + s * 4 + 1));
  lens[FIELD_HEADING] = tally.flush(terms, FIELD_HEADING << 12, 0xfff);
  for (const f of [FIELD_PRIMARY, FIELD_BODY]) {
    for (let s = 0; s < node.sections.length; s++) {
      if (sectionField(node.sections[s]!) === f) tally.add(ids, mark(sectionsAt + s * 4 + 1), mark(sectionsAt + s * 4 + 2));
    }
    if (f === FIELD_BODY) tally.add(ids, unsectionedFrom, ids.length);
    lens[f] = tally.flush(terms, f << 12, 0xfff);
  }

  // The chunk index: per chunk, [term, tf] pairs of its section heading and its span of text.
  const chunkIds: string[] = [];
  const chunkRows: number[] = [];
  const chunkEnds: number[] = [];
  const run = runs.items;
  let cursorSection = -1;
  let cursor = 0;
  for (const chunk of chunkSpans(node)) {
    const s = chunk.section_index;
    const at = sectionsAt + s * 4;
    const firstRun = mark(at + 3);
    const runsEnd = s + 1 < node.sections.length ? mark(at + 7) : runs.length;
    if (s !== cursorSection) (cursorSection = s), (cursor = firstRun);
    chunkIds.push(chunk.chunk_id);
    chunkRows.push(chunk.position, s, chunk.start, chunk.end, chunk.embeddable ? 1 : 0);
    tally.add(ids, mark(at), mark(at + 1));
    // Runs wholly before this chunk are before every later chunk of the section too.
    while (cursor < runsEnd && run[cursor + 1]! <= chunk.start) cursor += 3;
    for (let r = cursor; r < runsEnd && run[r]! < chunk.end; r += 3) {
      const runStart = run[r]!;
      const runEnd = run[r + 1]!;
      if (runStart >= chunk.start && runEnd <= chunk.end) {
        tally.add(ids, r === firstRun ? mark(at + 1) : run[r - 1]!, run[r + 2]!);
      } else {
        clipped.clear();
        vocab.tokenIds(node.sections[s]!.text, clipped, Math.max(runStart, chunk.start), Math.min(runEnd, chunk.end));
        tally.add(clipped, 0, clipped.length);
      }
    }
    tally.flush(pairs, 0, Infinity);
    chunkEnds.push(pairs.length);
  }
  return { lens, terms: terms.toArray(), keys: exactKeys(node), chunkIds, chunkRows, chunkTerms: pairs.toArray(), chunkEnds };
}

/** Counts term ids over ranges, then writes each distinct id with its count, in order of first appearance. */
class Tally {
  private tokens = 0;

  constructor(
    private readonly counter: TermCounter,
    private readonly vocab: TermIds,
  ) {
    counter.seen.clear();
  }

  add(ids: IdList, from: number, to: number): void {
    // The vocabulary may have grown since the last count (a clipped run can add terms).
    this.counter.reserve(this.vocab.size);
    const { counts, seen } = this.counter;
    const items = ids.items;
    for (let k = from; k < to; k++) {
      const t = items[k]!;
      if (counts[t] === 0) seen.push(t);
      counts[t] = counts[t]! + 1;
    }
    this.tokens += to - from;
  }

  /** Appends `[id, tag | min(count, max)]` per distinct id and starts over; returns the tokens counted (at most 0xffff). */
  flush(out: IdList, tag: number, max: number): number {
    const { counts, seen } = this.counter;
    for (let k = 0; k < seen.length; k++) {
      const t = seen.items[k]!;
      out.push(t);
      out.push(tag | Math.min(counts[t]!, max));
      counts[t] = 0;
    }
    seen.clear();
    const tokens = Math.min(this.tokens, 0xffff);
    this.tokens = 0;
    return tokens;
  }
}
