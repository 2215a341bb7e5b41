/**
 * The bilingual vocabulary (KDD terms + general software and business words): every word of the data
 * stems to one index term, a word and its translations find each other in both directions, and
 * inflections of one word land on one key.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { synonymsOf } from '../../../runtime/search/lexicon.js';
import { tokenize } from '../../../runtime/search/tokenizer.js';
import { GENERAL_VOCABULARY } from '../../../runtime/search/vocabulary.js';

const lines = GENERAL_VOCABULARY.map((line) => line.split(/\s+/).filter(Boolean));
const words = lines.flat();
const stemOf = (word: string) => tokenize(word);

describe('general vocabulary', () => {
  it('has every word stem to exactly one index term (no stop word, no split)', () => {
    const bad = words.filter((w) => stemOf(w).length !== 1);
    expect(bad).toEqual([]);
  });

  it('is symmetric: b is a synonym of a exactly when a is a synonym of b', () => {
    const stems = [...new Set(words.map((w) => stemOf(w)[0]!))];
    fc.assert(
      fc.property(fc.constantFrom(...stems), (a) => {
        for (const b of synonymsOf(a)) expect(synonymsOf(b)).toContain(a);
      }),
      { seed: 20, numRuns: 500 },
    );
    for (const a of stems) for (const b of synonymsOf(a)) expect(synonymsOf(b), `${a} ↔ ${b}`).toContain(a);
  });

  it('links every word of a line to every other word of it, whatever inflection is typed', () => {
    for (const line of lines) {
      const stems = [...new Set(line.map((w) => stemOf(w)[0]!))];
      for (const a of stems) for (const b of stems) if (a !== b) expect(synonymsOf(a), `${line.join(' ')}: ${a} → ${b}`).toContain(b);
    }
  });

  it('stems inflections and cognates of the everyday vocabulary consistently', () => {
    const same = [
      ['appointment', 'appointments'],
      ['cita', 'citas'],
      ['reserva', 'reservas', 'reservation'],
      ['factura', 'facturas'],
      ['cancelar', 'cancelacion', 'cancelado'],
      ['approve', 'approved'],
      ['aprobacion', 'aprobaciones'],
      ['deadline', 'deadlines'],
    ];
    for (const group of same) expect(new Set(group.map((w) => stemOf(w)[0])), group.join(' ')).toHaveProperty('size', 1);
  });

  it('translates everyday words both ways', () => {
    const pairs = [
      ['deadline', 'plazo'],
      ['fee', 'tarifa'],
      ['approval', 'aprobacion'],
      ['shipping', 'envio'],
      ['account', 'cuenta'],
      ['schedule', 'horario'],
      ['appointment', 'cita'],
      ['refund', 'reembolso'],
      ['tenant', 'inquilino'],
      ['warranty', 'garantia'],
      ['nurse', 'enfermera'],
      ['flight', 'vuelo'],
      ['enrollment', 'matricula'],
      ['deployment', 'despliegue'],
      ['overdue', 'moroso'],
      ['shelf', 'estanteria'],
    ];
    for (const [en, es] of pairs) {
      expect(synonymsOf(stemOf(en!)[0]!)).toContain(stemOf(es!)[0]);
      expect(synonymsOf(stemOf(es!)[0]!)).toContain(stemOf(en!)[0]);
    }
  });
});
