/** Query words joined as the index keeps CamelCase names, also across "de" / "del" / "of". */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeQuery } from '../../../runtime/search/rank.js';
import { term, tokenize } from '../../../runtime/search/tokenizer.js';

const word = fc.constantFrom('centro', 'costes', 'plan', 'cuentas', 'bill', 'materials', 'graph', 'node', 'cambia', 'regla', 'entidad');
const joiner = fc.constantFrom('de', 'del', 'of', 'la', 'the', 'y');

describe('joined names in a query', () => {
  it('finds a compound name across "de" / "of" when the index has it', () => {
    const has = (...names: string[]) => (t: string) => names.map((n) => term(n)).includes(t);
    expect(analyzeQuery('si cambia el centro de costes', has('CentroCostes')).terms).toContain(term('CentroCostes'));
    expect(analyzeQuery('the bill of materials', has('BillMaterials')).terms).toContain(term('BillMaterials'));
    // Not across another word, and never a name the index lacks.
    expect(analyzeQuery('centro y costes', has('CentroCostes')).terms).not.toContain(term('CentroCostes'));
    expect(analyzeQuery('centro de costes').terms).toEqual(tokenize('centro de costes'));
  });

  it('adds only known joined terms, and each is two words of the query with at most a joiner between', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(word, joiner), { minLength: 1, maxLength: 8 }), fc.array(fc.tuple(word, word), { maxLength: 4 }), (words, names) => {
        const known = new Set(names.map(([a, b]) => term(a + b)));
        const text = words.join(' ');
        const typed = new Set(tokenize(text));
        const plausible = new Set<string | null>();
        for (let i = 0; i + 1 < words.length; i++) {
          plausible.add(term(words[i]! + words[i + 1]!));
          if (i + 2 < words.length && ['de', 'del', 'of'].includes(words[i + 1]!)) plausible.add(term(words[i]! + words[i + 2]!));
        }
        for (const t of analyzeQuery(text, (x) => known.has(x)).terms) {
          if (typed.has(t)) continue;
          expect(known.has(t)).toBe(true);
          expect(plausible.has(t)).toBe(true);
        }
      }),
      { seed: 20, numRuns: 300 },
    );
  });
});
