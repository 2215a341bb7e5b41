import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeNodePack } from '../../compiler/pack/node-pack.js';
import { chunkAll } from '../../compiler/embed/chunk.js';
import { nodeTerms, TermCounter } from '../../runtime/search/bm25f.js';
import { TermIds } from '../../runtime/search/term-ids.js';
import { chunkTermFrequencies } from '../../runtime/search/chunk-index.js';
import type { BundleChunk } from '../../formats/bundle/types.js';
import { makeTextNode, WORDS } from '../runtime/search/_random-index.js';

// Words, ids, CamelCase, accents, joiners and punctuation: what the tokenizer treats differently.
const PIECES = [...WORDS, 'CMD-004', 'UC-001-IndexDocument', 'Entity:Pedido', 'KDDDocument', 'a.b/c', 'x_y', 'Índice', 'ÑANDÚ', '[[Pedido]]', '—', '42', 'of', 'de', ' ', '\n', '\n\n', '. ', ', '];
const text = fc.oneof(
  fc.array(fc.constantFrom(...PIECES), { maxLength: 120 }).map((parts) => parts.join(' ')),
  // Long text with few spaces: the chunker cuts inside words, so chunks hold runs cut in two.
  fc.array(fc.constantFrom('palabra', 'CMD-004-Order', 'x.y', '-', 'Índice'), { minLength: 400, maxLength: 900 }).map((parts) => parts.join('')),
);

describe('computeNodePack', () => {
  it("gives nodeTerms' field terms (aliases included), and every chunk the [term, tf] pairs chunkTermFrequencies gives, in the same order, whatever the vocabulary already holds", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.option(fc.constantFrom('description', 'rules'), { nil: null }), text), { minLength: 1, maxLength: 5 }), text, fc.array(fc.constantFrom(...WORDS)), fc.array(text, { maxLength: 3 }), (sections, title, known, aliases) => {
        const node = { ...makeTextNode('Entity:X', 'entity', '01-domain', title, sections), aliases };
        const vocab = new TermIds([...new Set(known)]);
        const pack = computeNodePack(node, vocab, new TermCounter());
        const fields = nodeTerms(node, vocab);
        expect(pack.lens).toEqual(fields.lens);
        expect(Array.from(pack.terms)).toEqual(fields.terms);
        const chunks = chunkAll(node);
        expect(pack.chunkIds).toEqual(chunks.map((chunk) => chunk.chunk_id));
        let from = 0;
        chunks.forEach((chunk, k) => {
          const pairs = Array.from(pack.chunkTerms.subarray(from, pack.chunkEnds[k]));
          from = pack.chunkEnds[k]!;
          const expected = [...chunkTermFrequencies({ section: chunk.section_index, start: chunk.start, end: chunk.end } as BundleChunk, node)];
          const got: [string, number][] = [];
          for (let i = 0; i < pairs.length; i += 2) got.push([vocab.terms[pairs[i]!]!, pairs[i + 1]!]);
          expect(got).toEqual(expected);
        });
      }),
      { seed: 1717, numRuns: 200 },
    );
  });
});
