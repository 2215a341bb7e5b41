/**
 * A kind is asked for by one of the forms the kind table spells, as typed (accents and case aside),
 * never by a word that only shares its stem ("come" / "comando", "consultation" / "consulta").
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Kind } from '../../../model/graph.js';
import { KIND_TABLE } from '../../../model/kinds.js';
import { fold } from '../../../runtime/search/tokenizer.js';
import { analyzeQuery } from '../../../runtime/search/rank.js';

const kindsOf = (text: string) => [...analyzeQuery(text).kinds].sort();
// Every spelled form → the kinds it asks for, from the table itself.
const TABLE = new Map<string, Set<Kind>>();
for (const { kind, intent } of KIND_TABLE) for (const word of intent?.words ?? []) TABLE.set(fold(word), (TABLE.get(fold(word)) ?? new Set()).add(kind));
const FORMS = [...TABLE.keys()];
const SENTENCE = (word: string) => `the ${word} for late returns`;

describe('kind intent', () => {
  it('asks for the kinds of every form the table spells, whatever its case or accents', () => {
    fc.assert(
      fc.property(fc.constantFrom(...FORMS), fc.constantFrom('lower', 'upper', 'title'), (form, shape) => {
        const typed = shape === 'upper' ? form.toUpperCase() : shape === 'title' ? form[0]!.toUpperCase() + form.slice(1) : form;
        expect(kindsOf(SENTENCE(typed)), typed).toEqual([...TABLE.get(form)!].sort());
      }),
      { seed: 20, numRuns: 300 },
    );
    expect(kindsOf('qué decisión se tomó')).toEqual(['adr']);
  });

  it('asks for no kind by a word the table does not spell, even one that shares a stem with a kind word', () => {
    const derived = FORMS.flatMap((form) => ['s', 'ed', 'ing', 'al', 'ation', 'ar', 'ado', 'e'].map((suffix) => form + suffix)).filter((w) => !TABLE.has(w));
    fc.assert(
      fc.property(fc.oneof(fc.constantFrom(...derived), fc.stringMatching(/^[a-z]{2,12}$/).filter((w) => !TABLE.has(w))), (word) => {
        expect(kindsOf(SENTENCE(word)), word).toEqual([]);
      }),
      { seed: 20, numRuns: 500 },
    );
  });

  it('is not misled by everyday words that share a stem with a kind word', () => {
    expect(kindsOf('a deleted spec must not come back after merging an old index')).toEqual([]);
    expect(kindsOf('what a vet sees of a pet before the consultation')).toEqual([]);
    expect(kindsOf('the cost of processing a refund')).toEqual([]);
    expect(kindsOf('testing the barcode reader')).toEqual([]);
    expect(kindsOf('el tope de las comidas')).toEqual([]);
    expect(kindsOf('which commands come after checkout')).toEqual(['command']);
  });

  it('asks for a two-word kind name in any of its forms', () => {
    for (const q of ['use case for returns', 'use cases for returns', 'caso de uso de devoluciones', 'casos de uso de devoluciones']) expect(kindsOf(q), q).toEqual(['use-case']);
    expect(kindsOf('business rules on fees')).toEqual(['business-policy', 'business-rule', 'cross-policy']);
    expect(kindsOf('a business case for fees')).toEqual([]);
  });
});
