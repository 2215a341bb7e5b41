/**
 * Deterministic JSON-like data: object keys sorted recursively (code-unit order), arrays kept in
 * their (already sorted) order. Whatever path produced a node — a fresh extraction, a JSON file
 * read back, a merge — the bytes that come out are the same.
 */
export function canonical<T>(value: T): T {
  if (Array.isArray(value)) return value.map(canonical) as T;
  if (value instanceof Uint8Array || value === null || typeof value !== 'object') return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const item = (value as Record<string, unknown>)[key];
    if (item !== undefined) sorted[key] = canonical(item);
  }
  return sorted as T;
}

/** Pretty, stable JSON for the git-friendly artifacts (one key order, trailing newline). */
export function stableJson(value: unknown): string {
  return `${JSON.stringify(canonical(value), null, 2)}\n`;
}
