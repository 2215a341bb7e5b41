import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { termOrder } from '../../../runtime/search/postings.js';

const sorted = (terms: readonly string[]) => Array.from(terms.keys()).sort((a, b) => (terms[a]! < terms[b]! ? -1 : 1));

describe('termOrder', () => {
  it('sorts a vocabulary by term and stays right as the vocabulary grows by appending', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ unit: fc.constantFrom('a', 'b', 'ñ', 'Z', '0', '-') }), { maxLength: 40 }), fc.array(fc.nat(40), { maxLength: 4 }), (all, cuts) => {
        const terms: string[] = [];
        for (const cut of [...cuts.sort((a, b) => a - b), all.length]) {
          while (terms.length < Math.min(cut, all.length)) terms.push(all[terms.length]!);
          expect(Array.from(termOrder(terms))).toEqual(sorted(terms));
        }
      }),
    );
  });
});
