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
const FILLER = Array.from({ length: 14 }, (_, i) => ({ name: `Term${i} word${i}`, meaning: `Meaning number ${i} about lockers, members, studios, opening hours and the timetable.` }));
const ROWS = [
  { name: 'Course', meaning: 'A programme as the timetable describes it, whatever its sessions.' },
  { name: 'Session', meaning: 'One meeting of a course, with its own room and start time.' },
  { name: 'Waitlist', meaning: 'A request to join a course when a session frees a place.' },
  { name: 'Fee', meaning: 'What a member pays for each month of a course.' },
  { name: 'Makeup', meaning: 'The extra session a member books when a session is missed for illness.' },
  ...FILLER,
];
const glossaryNode = { id: 'GLOSS:Glossary', title: 'Club glossary', indexed_fields: { description: 'Words the staff use.', terms: ROWS } };
// Entities named by the asked words, linked to each other: they collect title and graph score.
const index = makeIndex(
  [
    glossaryNode,
    { id: 'Entity:Session', title: 'Session', indexed_fields: { description: 'A session in a room; belongs to a course.' } },
    { id: 'Entity:Course', title: 'Course', indexed_fields: { description: 'A course in the timetable; has sessions and a waitlist.' } },
    { id: 'Entity:Booking', title: 'Booking', indexed_fields: { description: 'A session booked by a member; a missed session can get a makeup.' } },
    { id: 'BR:BR-001', title: 'Missed sessions', indexed_fields: { declaration: 'A session missed for illness gives the member one makeup booking.' } },
  ],
  [
    { from: 'Entity:Session', to: 'Entity:Course', type: 'DOMAIN_RELATION' },
    { from: 'Entity:Booking', to: 'Entity:Session', type: 'DOMAIN_RELATION' },
    { from: 'BR:BR-001', to: 'Entity:Session', type: 'ENTITY_RULE' },
  ],
);

describe('glossary definitions', () => {
  it('scores the row that defines an asked word, and names it in why', () => {
    // Without its rows scored, the glossary is not among the first three (the entities win by title and graph).
    const answer = context(index, { query_text: 'difference between a course and a session', limit: 3, explain: true });
    const glossary = answer.results.find((h) => h.node_id === 'GLOSS:Glossary');
    expect(['Course', 'Session']).toContain(glossary!.why!.definition);
    const lost = context(index, { query_text: 'what is a makeup when a session is missed', limit: 5, explain: true });
    const replacement = lost.results.find((h) => h.node_id === 'GLOSS:Glossary')!;
    expect(replacement.why!.definition).toBe('Makeup');
    expect(describeWhy(replacement.why!)).toContain('definition: the glossary row "Makeup"');
    // Other nodes carry no definition.
    expect(answer.results.filter((h) => h.why!.definition !== undefined).map((h) => h.node_id)).toEqual(['GLOSS:Glossary']);
  });

  it('needs a word of the query in the defined term, and leaves impact questions out', () => {
    // "illness" and "extra" are in the Makeup row's meaning, but no row defines them.
    expect(definitionMatches(index, analyzeQuery('illness extra')).size).toBe(0);
    const impact = context(index, { query_text: 'if the Session entity changes, what depends on it?', limit: 10, explain: true });
    expect(impact.results.every((h) => h.why!.definition === undefined)).toBe(true);
  });

  it('gives each glossary its best row, with a share of the query weight in (0, 1]', () => {
    const words = fc.constantFrom(...new Set(ROWS.flatMap((r) => `${r.name} ${r.meaning}`.split(/\W+/).filter((w) => w.length > 2))), 'zebra', 'quantum');
    fc.assert(
      fc.property(fc.array(words, { minLength: 1, maxLength: 6 }), (query) => {
        const { groups } = analyzeQuery(query.join(' '));
        const asked = new Set(groups.flat().map((alt) => alt.term));
        for (const [node, match] of definitionMatches(index, { groups })) {
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
