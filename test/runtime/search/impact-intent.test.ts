/** Impact questions are recognised in both languages, and their framing words stop outweighing the subject. */
import { describe, expect, it } from 'vitest';
import { isImpactQuestion, subjectGroups } from '../../../runtime/search/impact-intent.js';
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
});
