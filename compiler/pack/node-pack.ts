/** One node's pack products (text-index terms, exact keys, chunks and their terms), as the pack memo stores them. */
import type { GraphNode } from '../../model/graph.js';
import { countIds, exactKeys, nodeTerms, TermCounter, type TermIds } from '../../runtime/search/bm25f.js';
import type { NodePack } from '../cache/pack-memo.js';
import { chunkAll } from '../embed/chunk.js';

/** Computes a node's products; new terms go into `vocab`. */
export function computeNodePack(node: GraphNode, vocab: TermIds, counter = new TermCounter()): NodePack {
  const text = nodeTerms(node, vocab, counter);
  const chunkIds: string[] = [];
  const chunkRows: number[] = [];
  const pairs: number[] = [];
  const chunkEnds: number[] = [];
  for (const chunk of chunkAll(node)) {
    chunkIds.push(chunk.chunk_id);
    chunkRows.push(chunk.position, chunk.section_index, chunk.start, chunk.end, chunk.embeddable ? 1 : 0);
    chunkTermPairs(node.sections[chunk.section_index], chunk.start, chunk.end, vocab, counter, pairs);
    chunkEnds.push(pairs.length);
  }
  return { lens: Array.from(text.lens), terms: Uint32Array.from(text.terms), keys: exactKeys(node), chunkIds, chunkRows, chunkTerms: Uint32Array.from(pairs), chunkEnds };
}

/**
 * `chunkTermIds` (runtime/search/chunk-index.ts) of one chunk, through the build vocabulary's
 * per-run memo and a counting array instead of a term string list and a Map per chunk: the same
 * pairs in the same order (first appearance), a third of the pack's tokenising on a 10k tree.
 */
function chunkTermPairs(section: GraphNode['sections'][number] | undefined, start: number, end: number, vocab: TermIds, counter: TermCounter, out: number[]): void {
  if (!section) return;
  const ids = counter.ids;
  ids.length = 0;
  vocab.tokenIds(section.heading, ids);
  vocab.tokenIds(section.text.slice(start, end), ids);
  countIds(ids, vocab.size, counter);
  const { counts, seen } = counter;
  for (let k = 0; k < seen.length; k++) {
    const t = seen[k]!;
    out.push(t, counts[t]!);
    counts[t] = 0;
  }
}
