import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdList, TermIds } from '../../../runtime/search/term-ids.js';
import { tokenize } from '../../../runtime/search/tokenizer.js';

// What the hand-written run scan must treat exactly like the tokenizer's CHUNK expression: ASCII
// and other letters and digits, joiners (alone, doubled, at the ends), CamelCase, ids, whitespace,
// punctuation, astral letters and digits, an astral symbol, and lone surrogates.
const UNITS = ['a', 'Z', 'k', '7', 'é', 'Ñ', 'ß', 'ж', '中', '٣', '-', ':', '_', '.', '/', ' ', '\n', ',', '|', '[', '—', '\u00a0', '𝐀', '𝟙', '😀', '\ud835', '\udc00', 'CMD-004', 'UC-001-IndexDocument', 'Entity:Pedido', 'KDDDocument', 'de', 'of'];
const text = fc.array(fc.constantFrom(...UNITS), { maxLength: 60 }).map((parts) => parts.join(''));

describe('TermIds.tokenIds', () => {
  it('gives the ids of tokenize() of any span of the text, and runs whose ids add up to them', () => {
    fc.assert(
      fc.property(text, fc.nat(), fc.nat(), fc.array(fc.constantFrom('pedido', 'uc-001', 'kdd', 'a-b')), (value, a, b, known) => {
        const from = Math.min(a, b) % (value.length + 1);
        const to = from + (Math.max(a, b) % (value.length - from + 1));
        const vocab = new TermIds([...new Set(known)]);
        const ids = new IdList();
        const runs = new IdList();
        // Twice: the second pass finds every run in the memo.
        for (let pass = 0; pass < 2; pass++) {
          ids.clear();
          runs.clear();
          vocab.tokenIds(value, ids, from, to, runs);
          expect(Array.from(ids.toArray(), (id) => vocab.terms[id])).toEqual(tokenize(value.slice(from, to)));
          // Each run's ids are tokenize() of the run itself, and the runs cover the ids in order.
          let idsFrom = 0;
          for (let r = 0; r < runs.length; r += 3) {
            const [start, end, idsEnd] = [runs.items[r]!, runs.items[r + 1]!, runs.items[r + 2]!];
            expect(start >= from && end <= to && start < end).toBe(true);
            expect(Array.from(ids.items.subarray(idsFrom, idsEnd), (id) => vocab.terms[id])).toEqual(tokenize(value.slice(start, end)));
            idsFrom = idsEnd;
          }
          expect(idsFrom).toBe(ids.length);
        }
      }),
      { seed: 4242, numRuns: 1000 },
    );
  });

  it('keeps every run apart when thousands are memoised', () => {
    const vocab = new TermIds();
    const ids = new IdList();
    const words = Array.from({ length: 20_000 }, (_, i) => `w${i.toString(36)}x`);
    vocab.tokenIds(words.join(' '), ids);
    ids.clear();
    vocab.tokenIds(words.join(' '), ids);
    expect(Array.from(ids.toArray(), (id) => vocab.terms[id])).toEqual(tokenize(words.join(' ')));
  });
});

describe('TermIds started from a vocabulary and its term order (a pack cache)', () => {
  it('gives every term the id a vocabulary with a map of all of them gives, old terms and new', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ unit: fc.constantFrom(...UNITS), maxLength: 4 }), { maxLength: 40 }), fc.array(fc.string({ unit: fc.constantFrom(...UNITS), maxLength: 4 }), { maxLength: 60 }), (start, asked) => {
        const order = Uint32Array.from(start.map((_, i) => i).sort((a, b) => (start[a]! < start[b]! ? -1 : start[a]! > start[b]! ? 1 : 0)));
        const mapped = new TermIds(start);
        const searched = new TermIds(start, order);
        expect(searched.terms).toEqual(start);
        for (const term of [...asked, ...start, ...asked]) expect(searched.id(term)).toBe(mapped.id(term));
        expect(searched.terms).toEqual(mapped.terms);
        // Whole texts too: the run memo on top of the lookups.
        const [a, b] = [new IdList(), new IdList()];
        const text = asked.join(' ');
        mapped.tokenIds(text, a);
        searched.tokenIds(text, b);
        expect(Array.from(b.toArray())).toEqual(Array.from(a.toArray()));
      }),
      { seed: 17, numRuns: 300 },
    );
  });
});
