/**
 * Token estimates and budgets for answers that must fit an agent's context window (QRY-003
 * `max_tokens`, QRY-007 token budget). An estimate, not a tokenizer: about four characters per
 * token for English and Spanish prose and JSON, rounded up, so budgets err on the safe side.
 */

const CHARS_PER_TOKEN = 4;

/** Estimated tokens of a string (`ceil(length / 4)`; 0 for the empty string). */
export function estimateTokens(text: string): number {
  return tokensOfLength(text.length);
}

/** Estimated tokens of a text of `length` characters (`ceil(length / 4)`). */
export function tokensOfLength(length: number): number {
  return Math.ceil(length / CHARS_PER_TOKEN);
}

/** Estimated tokens of a value as it would be sent: its JSON text. */
export function estimateJsonTokens(value: unknown): number {
  return estimateTokens(JSON.stringify(value) ?? '');
}

/** A running token budget. `take` never lets `used` exceed `max`. */
export interface TokenBudget {
  readonly max: number;
  used: number;
  /** Set once an item did not fit. */
  exceeded: boolean;
}

export function createBudget(max: number): TokenBudget {
  return { max, used: 0, exceeded: false };
}

/** Reserves `tokens` if they fit; otherwise marks the budget exceeded and returns false. */
export function take(budget: TokenBudget, tokens: number): boolean {
  if (budget.used + tokens > budget.max) {
    budget.exceeded = true;
    return false;
  }
  budget.used += tokens;
  return true;
}

/** Cuts `text` to at most `tokens` tokens, on a word boundary when one is near, adding `…`. */
export function truncateToTokens(text: string, tokens: number): string {
  const maxChars = tokens * CHARS_PER_TOKEN;
  if (text.length <= maxChars) return text;
  if (maxChars <= 1) return '';
  const cut = text.slice(0, maxChars - 1);
  const space = cut.lastIndexOf(' ');
  return (space > maxChars * 0.6 ? cut.slice(0, space) : cut) + '…';
}
