/** One node's pack products (text-index terms, exact keys, chunks and their terms), as the pack memo stores them. */
import type { GraphNode } from '../../model/graph.js';
import { exactKeys, nodeTerms, type TermCounter, type TermIds } from '../../runtime/search/bm25f.js';
import { chunkTermIds } from '../../runtime/search/chunk-index.js';
import type { NodePack } from '../cache/pack-memo.js';
import { chunkAll } from '../embed/chunk.js';

/** Computes a node's products; new terms go into `vocab`. */
export function computeNodePack(node: GraphNode, vocab: TermIds, counter?: TermCounter): NodePack {
  const text = nodeTerms(node, vocab, counter);
  const chunkIds: string[] = [];
  const chunkRows: number[] = [];
  const pairs: number[] = [];
  const chunkEnds: number[] = [];
  for (const chunk of chunkAll(node)) {
    chunkIds.push(chunk.chunk_id);
    chunkRows.push(chunk.position, chunk.section_index, chunk.start, chunk.end, chunk.embeddable ? 1 : 0);
    chunkTermIds({ section: chunk.section_index, start: chunk.start, end: chunk.end }, node, vocab, pairs);
    chunkEnds.push(pairs.length);
  }
  return { lens: Array.from(text.lens), terms: Uint32Array.from(text.terms), keys: exactKeys(node), chunkIds, chunkRows, chunkTerms: Uint32Array.from(pairs), chunkEnds };
}
