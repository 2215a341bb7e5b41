/**
 * The search index's thesaurus (compiler/pack/thesaurus.ts): what the pack stores for a vocabulary,
 * that it is a function of the vocabulary only, that the generated WordNet module is what WordNet
 * gives, and that a query word the corpus lacks reaches its synonym and says so in `why`.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile, packCompiled } from '../../compiler/pipeline.js';
import { MAX_RELATED, thesaurusFor } from '../../compiler/pack/thesaurus.js';
import { WORDNET_SYNONYMS } from '../../compiler/pack/wordnet-synonyms.js';
import { wordnetSynonymsModule } from '../../compiler/pack/wordnet.js';
import type { KddIndex } from '../../runtime/kdd-index.js';
import { loadIndex } from '../../runtime/load.js';
import { context } from '../../runtime/queries/context.js';
import { search } from '../../runtime/queries/search.js';
import { describeWhy } from '../../runtime/search/explain.js';
import { alternativesOf } from '../../runtime/search/lexicon.js';
import { analyzeQuery } from '../../runtime/search/rank.js';
import { tokenize } from '../../runtime/search/tokenizer.js';
import { removeTree, tempTree } from '../helpers/temp-tree.js';

const stem = (word: string) => tokenize(word)[0]!;
const lines = WORDNET_SYNONYMS.split('\n');
// Words of the thesaurus (as keys and as synonyms) and of the bilingual vocabulary, to draw vocabularies from.
const POOL = [...new Set([...lines.slice(0, 400), ...lines.filter((l) => /^(wag|sick|ill|answ|tell|salary|pay)\t/.test(l))].flatMap((l) => l.split(/[\t ]/)).concat(['pedido', 'order', 'rule', 'regla']))].sort();
const parse = (table: string) => (table === '' ? [] : table.split('\n').map((line) => [line.split('\t')[0]!, line.split('\t')[1]!.split(' ')] as const));

describe('thesaurusFor: the table a vocabulary gets', () => {
  it('keys are words outside the vocabulary that the bilingual vocabulary does not translate; targets are index terms, at most MAX_RELATED, keys sorted', () => {
    fc.assert(
      fc.property(fc.subarray(POOL), (vocabulary) => {
        const terms = new Set(vocabulary);
        const table = parse(thesaurusFor(vocabulary.join('\n')));
        for (const [key, targets] of table) {
          expect(terms.has(key)).toBe(false);
          expect(alternativesOf(key)).toEqual([]);
          expect(targets.length).toBeGreaterThan(0);
          expect(targets.length).toBeLessThanOrEqual(MAX_RELATED);
          for (const target of targets) expect(terms.has(target)).toBe(true);
        }
        const keys = table.map(([key]) => key);
        expect(keys).toEqual([...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      }),
      { numRuns: 200, seed: 2020 },
    );
  });

  it('is a function of the vocabulary only: order and repeats of the term list change nothing', () => {
    fc.assert(
      fc.property(fc.subarray(POOL), fc.array(fc.nat()), (vocabulary, picks) => {
        const shuffled = [...vocabulary].sort((a, b) => (a.length - b.length) || (a < b ? 1 : -1));
        const repeated = [...vocabulary, ...picks.map((p) => vocabulary[p % Math.max(1, vocabulary.length)]!).filter(Boolean)];
        const expected = thesaurusFor(vocabulary.join('\n'));
        expect(thesaurusFor(shuffled.join('\n'))).toBe(expected);
        expect(thesaurusFor(repeated.join('\n'))).toBe(expected);
      }),
      { numRuns: 100, seed: 2021 },
    );
  });

  it('maps everyday words to the spec word a corpus uses', () => {
    expect(parse(thesaurusFor(['salary', 'sick'].map(stem).sort().join('\n')))).toEqual(
      expect.arrayContaining([
        [stem('wages'), [stem('salary')]],
        [stem('ill'), [stem('sick')]],
      ]),
    );
    expect(thesaurusFor('')).toBe('');
  });

  it('the generated module is what the installed WordNet gives (npm run thesaurus writes it)', () => {
    const file = fileURLToPath(new URL('../../compiler/pack/wordnet-synonyms.ts', import.meta.url));
    expect(readFileSync(file, 'utf8') === wordnetSynonymsModule()).toBe(true);
  }, 30_000);
});

describe('a query word the corpus lacks', () => {
  let root: string;
  let index: KddIndex;
  beforeAll(async () => {
    root = await tempTree({
      'entities/Payslip.md': '---\nid: Payslip\nkind: entity\ntitle: Payslip\nstatus: draft\n---\n\n# Payslip\n\n## Description\n\nThe monthly salary statement of an employee.\n',
      'entities/Employee.md': '---\nid: Employee\nkind: entity\ntitle: Employee\nstatus: draft\n---\n\n# Employee\n\n## Description\n\nA person who works for the company and has a manager.\n',
    });
    index = await loadIndex(packCompiled(await compile({ specsDir: root })).bytes);
  });
  afterAll(() => removeTree(root));

  it('reaches the spec through its synonym, and `why` names the synonym as the thesaurus', () => {
    const [first] = context(index, { query_text: 'my wages', explain: true }).results;
    expect(first!.node_id).toBe('Entity:Payslip');
    const match = { term: stem('salary'), fields: ['primary'], expanded_from: stem('wages'), thesaurus: true };
    expect(first!.why!.matched).toContainEqual(match);
    expect(describeWhy(first!.why!)[0]).toBe(`matched: ${stem('wages')}→${stem('salary')} (thesaurus, primary)`);
    const [hit] = search(index, { query_text: 'my wages', explain: true, min_score: 0 }).results;
    expect(hit!.why!.matched).toContainEqual(match);
  });

  it('only when the corpus lacks it: a word the index has keeps to itself', () => {
    const known = (t: string) => index.text.docFrequency(t) > 0;
    const related = (t: string) => index.text.related(t);
    expect(related(stem('wages'))).toEqual([stem('salary')]);
    expect(related(stem('salary'))).toEqual([]);
    expect(analyzeQuery('wages', known, related).groups).toEqual([[{ term: stem('wages'), weight: 1 }, { term: stem('salary'), weight: 0.3, thesaurus: true }]]);
    expect(analyzeQuery('wages', () => true, related).groups).toEqual([[{ term: stem('wages'), weight: 1 }]]);
  });
});
