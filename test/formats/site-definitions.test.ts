/**
 * The site sub-bundle carries the glossary rows definition scoring reads (formats/site-bundle.ts
 * DefinitionTable): the encoding gives back the rows it was given, and an index handed those rows
 * ready-made (the sharded search's nodes carry no fields) scores definitions as the full index does.
 */
import fc from 'fast-check';
import { Packr } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { decodeDefinitions, encodeDefinitions, type DefinitionTable, type GlossaryRow } from '../../formats/site-bundle.js';
import type { KddIndex } from '../../runtime/kdd-index.js';
import { definitionMatches, glossaryRows } from '../../runtime/search/definitions.js';
import { analyzeQuery } from '../../runtime/search/rank.js';
import { makeIndex } from '../helpers/make-index.js';

// The site's msgpack options (compiler/pack/site-bundle.ts): the table must survive the file, not only the call.
const packr = new Packr({ useRecords: false, variableMapSize: true });
const throughFile = (table: DefinitionTable) => packr.unpack(packr.pack(table)) as DefinitionTable;

const term = fc.string({ minLength: 1, maxLength: 8 }).filter((t) => !t.includes('\n'));
const row = fc.record({
  gap: fc.nat({ max: 300 }),
  name: fc.string({ maxLength: 20 }),
  terms: fc.uniqueArray(term, { maxLength: 12 }),
  split: fc.nat(),
});
/** Rows in node order (as glossaryRows gives them), each with distinct terms split into name and meaning. */
const rows = fc.array(row, { maxLength: 30 }).map((drawn) => {
  let node = 0;
  return drawn.map(({ gap, name, terms, split }): GlossaryRow => {
    node += gap;
    const cut = terms.length === 0 ? 0 : split % (terms.length + 1);
    return { node, name, nameTerms: terms.slice(0, cut), meaningTerms: terms.slice(cut) };
  });
});

describe('glossary rows in the site sub-bundle', () => {
  it('decode(encode(rows)) gives the rows back, through msgpack', () => {
    fc.assert(
      fc.property(rows, (given) => {
        expect(decodeDefinitions(throughFile(encodeDefinitions(given)))).toEqual(given);
      }),
      { seed: 20261125, numRuns: 300 },
    );
  });

  it('is deterministic and stores each distinct term once', () => {
    const given: GlossaryRow[] = [
      { node: 3, name: 'Loan', nameTerms: ['loan'], meaningTerms: ['book', 'member'] },
      { node: 3, name: 'Hold', nameTerms: ['hold'], meaningTerms: ['book', 'member', 'queue'] },
      { node: 9, name: 'Late fee', nameTerms: ['late', 'fee'], meaningTerms: ['loan'] },
    ];
    const table = encodeDefinitions(given);
    expect(table.vocabulary.split('\n')).toEqual(['book', 'fee', 'hold', 'late', 'loan', 'member', 'queue']);
    expect(packr.pack(encodeDefinitions(given))).toEqual(packr.pack(table));
    expect(decodeDefinitions(encodeDefinitions([]))).toEqual([]);
  });

  // A nursery's glossary and the entities around it.
  const index = makeIndex([
    {
      id: 'GLOSS:Nursery',
      title: 'Nursery glossary',
      indexed_fields: {
        terms: [
          { name: 'Cutting', meaning: 'A piece of stem rooted in damp sand to grow a new plant.' },
          { name: 'Hardening off', meaning: 'A week of moving seedlings outside by day before planting them out.' },
          { name: 'Seedling', meaning: 'A young plant grown from seed, kept under glass until it has four leaves.' },
          { name: 'Pot-bound', meaning: 'A plant whose roots fill its pot; it is moved to a larger one.' },
          { meaning: 'A row without a name is no definition.' },
        ],
      },
    },
    { id: 'Entity:Seedling', title: 'Seedling', indexed_fields: { description: 'A seedling in a tray; planted out after hardening off.' } },
    { id: 'Entity:Plant', title: 'Plant', indexed_fields: { description: 'A plant for sale, grown from a cutting or a seedling.' } },
  ]);

  it('an index handed the decoded rows scores definitions as one deriving them from its nodes', () => {
    const derived = glossaryRows(index.bundle.nodes);
    expect(derived.map((r) => r.name)).toEqual(['Cutting', 'Hardening off', 'Seedling', 'Pot-bound']);
    // Nodes without fields, as the sharded search's: only the handed rows can answer.
    const bare = index.bundle.nodes.map((node) => ({ ...node, indexed_fields: {} }));
    const handed: KddIndex = { ...index, bundle: { ...index.bundle, nodes: bare }, definitions: decodeDefinitions(throughFile(encodeDefinitions(derived))) };
    const fieldless: KddIndex = { ...index, bundle: { ...index.bundle, nodes: bare } };
    const words = fc.constantFrom('cutting', 'seedling', 'hardening', 'plant', 'pot', 'bound', 'roots', 'glass', 'what', 'is', 'a', 'sand', 'zinnia');
    fc.assert(
      fc.property(fc.array(words, { minLength: 1, maxLength: 5 }), (query) => {
        const { groups } = analyzeQuery(query.join(' '));
        expect([...definitionMatches(handed, { groups })]).toEqual([...definitionMatches(index, { groups })]);
      }),
      { seed: 20261125, numRuns: 200 },
    );
    // The test can fail: without the rows, a field-less index finds no definition.
    const asked = analyzeQuery('what is a seedling');
    expect(definitionMatches(index, asked).get(index.nodeIndex.get('GLOSS:Nursery')!)?.term).toBe('Seedling');
    expect(definitionMatches(fieldless, asked).size).toBe(0);
  });
});
