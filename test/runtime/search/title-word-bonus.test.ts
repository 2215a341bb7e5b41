/**
 * A plain word of the query that is a node's title or alias earns a bonus in proportion to how much
 * of the question it is: whole in a short query, shrinking in a long one that only mentions it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeQuery } from '../../../runtime/search/rank.js';

const bonusOf = (query: string, word: string) => analyzeQuery(query).exact.find((e) => e.key === word)!.bonus;

describe('title-word bonus', () => {
  it('is whole when the word is a third or more of the query', () => {
    const full = bonusOf('doctor notes', 'doctor');
    expect(full).toBeGreaterThan(0);
    expect(bonusOf('doctor notes access', 'doctor')).toBe(full);
    expect(bonusOf('the doctor and the notes', 'doctor')).toBe(full);
  });

  it('shrinks with the share of the query the word accounts for', () => {
    const full = bonusOf('doctor notes', 'doctor');
    expect(bonusOf('who may read the notes the doctor wrote about my dog', 'doctor')).toBeCloseTo(full * (3 / 5));
    expect(bonusOf('owner reads notes doctor wrote about dog yesterday evening clinic', 'doctor')).toBeCloseTo(full * (3 / 9));
  });

  it('never grows when content words are added, and leaves id and whole-query bonuses alone', () => {
    const words = fc.constantFrom('invoice', 'refund', 'customer', 'shipping', 'warehouse', 'parcel', 'payment', 'schedule');
    fc.assert(
      fc.property(fc.array(words, { minLength: 1, maxLength: 8 }), words, (rest, extra) => {
        const query = ['doctor', ...rest].join(' ');
        expect(bonusOf(`${query} ${extra}`, 'doctor')).toBeLessThanOrEqual(bonusOf(query, 'doctor'));
      }),
      { seed: 20, numRuns: 100 },
    );
    const long = analyzeQuery('which rules depend on BR-PEDIDO-001 when an order is cancelled late');
    expect(long.exact.find((e) => e.key === 'BR-PEDIDO-001')!.bonus).toBe(2);
    expect(analyzeQuery('Pedido').exact[0]!.bonus).toBe(1.5);
  });
});
