/** Impact questions are recognised in both languages, and their framing words stop outweighing the subject. */
import { describe, expect, it } from 'vitest';
import { isImpactQuestion, subjectAnalysis, subjectGroups } from '../../../runtime/search/impact-intent.js';
import { kindWords } from '../../../runtime/search/lexicon.js';
import { analyzeQuery } from '../../../runtime/search/rank.js';

const asks = (text: string) => isImpactQuestion(text, analyzeQuery(text).terms);

describe('impact intent', () => {
  it('recognises a change with a conditional or an affect word, or a depend word', () => {
    expect(asks('if the grace period changes from 7 to 10 days, which documents change?')).toBe(true);
    expect(asks('si cambia la entidad Reserva, ¿qué depende de ella?')).toBe(true);
    expect(asks('what is affected if I modify the Order entity')).toBe(true);
    expect(asks('qué se ve afectado si cambio BR-PEDIDO-001')).toBe(true);
  });

  it('does not take a question about impact analysis, or a plain how-to, for one', () => {
    expect(asks('build the impact analysis query')).toBe(false);
    expect(asks('how does a customer change the delivery address')).toBe(false);
    expect(asks('cómo se registra la mercancía')).toBe(false);
  });

  it('weights the framing words down and leaves the subject words as typed', () => {
    const groups = subjectGroups(analyzeQuery('if the Reserva entity changes, which documents change').groups);
    const weightOf = (word: string) => groups.find((g) => g[0]!.term === analyzeQuery(word).terms[0])![0]!.weight;
    expect(weightOf('reserva')).toBe(1);
    expect(weightOf('changes')).toBeLessThan(0.5);
    expect(weightOf('documents')).toBeLessThan(0.5);
  });

  it('takes a kind the question names for the subject: no kind intent, and the kind word weighted down', () => {
    for (const q of ['what depends on the Reserva entity', 'si cambia la entidad Reserva, ¿qué depende de ella?', 'if the business rule on late fees changes, what is affected']) {
      const asked = analyzeQuery(q);
      expect(asked.kinds.size, q).toBeGreaterThan(0);
      const subject = subjectAnalysis(asked);
      expect(subject.kinds.size, q).toBe(0);
      const named = kindWords(asked.terms);
      expect(named.size, q).toBeGreaterThan(0);
      for (const group of subject.groups) {
        const typed = group[0]!.term;
        if (named.has(typed)) expect(group.every((alt) => alt.weight < 0.5), `${q}: ${typed}`).toBe(true);
      }
      // The subject's own words keep their weight.
      const subjectWord = analyzeQuery(q.includes('Reserva') ? 'reserva' : 'fees').terms[0];
      expect(subject.groups.find((g) => g[0]!.term === subjectWord)![0]!.weight, q).toBe(1);
    }
  });

  it('names both words of a two-word kind name, and nothing in a question without one', () => {
    expect([...kindWords(analyzeQuery('which business rule applies').terms)].sort()).toEqual(analyzeQuery('business rule').terms.slice().sort());
    expect(kindWords(analyzeQuery('if the grace period changes, what changes').terms).size).toBe(0);
  });
});
