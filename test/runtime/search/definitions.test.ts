/** Glossary definitions are scored row by row, and say so in `why`. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { context } from '../../../runtime/queries/context.js';
import { definitionMatches } from '../../../runtime/search/definitions.js';
import { describeWhy } from '../../../runtime/search/explain.js';
import { analyzeQuery } from '../../../runtime/search/rank.js';
import { tokenize } from '../../../runtime/search/tokenizer.js';
import { makeIndex } from '../../helpers/make-index.js';

// A long glossary: the rows that answer are a small part of its text.
const FILLER = Array.from({ length: 14 }, (_, i) => ({ name: `Term${i} word${i}`, meaning: `Meaning number ${i} about shelves, members, branches, opening hours and the catalogue.` }));
const ROWS = [
  { name: 'Work', meaning: 'A title as the catalogue describes it, whatever its copies.' },
  { name: 'Copy', meaning: 'One physical item of a work, with its own barcode and shelf.' },
  { name: 'Hold', meaning: 'A request to borrow a work when a copy comes back.' },
  { name: 'Fine', meaning: 'What a member pays for each day a loan is late.' },
  { name: 'Replacement', meaning: 'The price a member pays for a copy lost or damaged beyond repair.' },
  ...FILLER,
];
const glossaryNode = { id: 'GLOSS:Glossary', title: 'Library glossary', indexed_fields: { description: 'Words the staff use.', terms: ROWS } };
// Entities named by the asked words, linked to each other: they collect title and graph score.
const index = makeIndex(
  [
    glossaryNode,
    { id: 'Entity:Copy', title: 'Copy', indexed_fields: { description: 'A copy on a shelf; belongs to a work.' } },
    { id: 'Entity:Work', title: 'Work', indexed_fields: { description: 'A work in the catalogue; has copies and holds.' } },
    { id: 'Entity:Loan', title: 'Loan', indexed_fields: { description: 'A copy lent to a member; a lost copy is charged for its replacement.' } },
    { id: 'BR:BR-001', title: 'Lost items', indexed_fields: { declaration: 'A copy reported lost is charged to the member at its replacement price.' } },
  ],
  [
    { from: 'Entity:Copy', to: 'Entity:Work', type: 'DOMAIN_RELATION' },
    { from: 'Entity:Loan', to: 'Entity:Copy', type: 'DOMAIN_RELATION' },
    { from: 'BR:BR-001', to: 'Entity:Copy', type: 'ENTITY_RULE' },
  ],
);

describe('glossary definitions', () => {
  it('scores the row that defines an asked word, and names it in why', () => {
    // Without its rows scored, the glossary is not among the first three (the entities win by title and graph).
    const answer = context(index, { query_text: 'difference between a work and a copy', limit: 3, explain: true });
    const glossary = answer.results.find((h) => h.node_id === 'GLOSS:Glossary');
    expect(['Work', 'Copy']).toContain(glossary!.why!.definition);
    const lost = context(index, { query_text: 'what is a replacement when a copy is lost', limit: 5, explain: true });
    const replacement = lost.results.find((h) => h.node_id === 'GLOSS:Glossary')!;
    expect(replacement.why!.definition).toBe('Replacement');
    expect(describeWhy(replacement.why!)).toContain('definition: the glossary row "Replacement"');
    // Other nodes carry no definition.
    expect(answer.results.filter((h) => h.why!.definition !== undefined).map((h) => h.node_id)).toEqual(['GLOSS:Glossary']);
  });

  it('needs a word of the query in the defined term, and leaves impact questions out', () => {
    // "lost" and "price" are in the Replacement row's meaning, but no row defines them.
    expect(definitionMatches(index, analyzeQuery('lost price').groups).size).toBe(0);
    const impact = context(index, { query_text: 'if the Copy entity changes, what depends on it?', limit: 10, explain: true });
    expect(impact.results.every((h) => h.why!.definition === undefined)).toBe(true);
  });

  it('gives each glossary its best row, with a share of the query weight in (0, 1]', () => {
    const words = fc.constantFrom(...new Set(ROWS.flatMap((r) => `${r.name} ${r.meaning}`.split(/\W+/).filter((w) => w.length > 2))), 'zebra', 'quantum');
    fc.assert(
      fc.property(fc.array(words, { minLength: 1, maxLength: 6 }), (query) => {
        const { groups } = analyzeQuery(query.join(' '));
        const asked = new Set(groups.flat().map((alt) => alt.term));
        for (const [node, match] of definitionMatches(index, groups)) {
          expect(index.bundle.nodes[node]!.kind).toBe('glossary');
          expect(match.share).toBeGreaterThan(0);
          expect(match.share).toBeLessThanOrEqual(1 + 1e-12);
          expect(tokenize(match.term).some((t) => asked.has(t))).toBe(true);
        }
      }),
      { seed: 7, numRuns: 200 },
    );
  });
});
