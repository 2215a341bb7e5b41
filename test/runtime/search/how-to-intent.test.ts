/** A how-to question asks for the behaviour that does it: use cases, commands, processes and UI flows. */
import { describe, expect, it } from 'vitest';
import { analyzeQuery } from '../../../runtime/search/rank.js';

describe('how-to intent', () => {
  it('asks for use cases, commands, processes and UI flows in either language', () => {
    for (const q of ['how does a customer cancel an order', '¿cómo se cancela un pedido?', 'como renovar un préstamo', 'steps to return a book', 'pasos para devolver un libro']) {
      expect([...analyzeQuery(q).kinds].sort(), q).toEqual(['command', 'process', 'ui-flow', 'use-case']);
    }
  });

  it('leaves a named kind alone and ignores "how" inside a sentence', () => {
    expect([...analyzeQuery('how does the rule on discounts work').kinds]).not.toContain('use-case');
    expect(analyzeQuery('the customer knows how much it costs').kinds.size).toBe(0);
  });

  it('takes "how long / many / much…" for a question of quantity, not of steps', () => {
    for (const q of ['how long does a refund take', 'How many items fit in one parcel', 'how much is the late fee', 'how often are reminders sent']) {
      expect(analyzeQuery(q).kinds.size, q).toBe(0);
    }
    expect([...analyzeQuery('how do I refund a late order').kinds].sort()).toEqual(['command', 'process', 'ui-flow', 'use-case']);
  });
});
