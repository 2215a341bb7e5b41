import { describe, expect, it } from 'vitest';
import { createBudget, estimateJsonTokens, estimateTokens, take, truncateToTokens } from '../../../runtime/tokens.js';

describe('tokens', () => {
  it('estimates four characters per token, rounded up', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('abcde')).toBe(2);
    expect(estimateJsonTokens({ a: 1 })).toBe(2);
  });

  it('never lets a budget go over its maximum', () => {
    const budget = createBudget(10);
    expect(take(budget, 6)).toBe(true);
    expect(take(budget, 5)).toBe(false);
    expect(budget).toEqual({ max: 10, used: 6, exceeded: true });
  });

  it('truncates text to a token count', () => {
    const text = 'word '.repeat(100);
    expect(estimateTokens(truncateToTokens(text, 10))).toBeLessThanOrEqual(10);
    expect(truncateToTokens('short', 10)).toBe('short');
  });
});
