/**
 * Deterministic JSON-like data: object keys sorted recursively (code-unit order), arrays kept in
 * their (already sorted) order. Whatever path produced a node — a fresh extraction, a JSON file
 * read back, a merge — the bytes that come out are the same.
 */
export function canonical<T>(value: T): T {
  if (Array.isArray(value)) return value.map(canonical) as T;
  if (value instanceof Uint8Array || value === null || typeof value !== 'object') return value;
  const sorted: Record<string, unknown> = {};
  const keys = Object.keys(value);
  // Most objects reach here with their keys in order already (a node read back, a section): a
  // check is cheaper than a sort, which copies the list.
  if (!inOrder(keys)) keys.sort();
  for (const key of keys) {
    const item = (value as Record<string, unknown>)[key];
    if (item !== undefined) sorted[key] = canonical(item);
  }
  return sorted as T;
}

function inOrder(keys: readonly string[]): boolean {
  for (let i = 1; i < keys.length; i++) if (keys[i - 1]! > keys[i]!) return false;
  return true;
}

/** Pretty, stable JSON for the git-friendly artifacts (one key order, trailing newline). */
export function stableJson(value: unknown): string {
  return `${JSON.stringify(canonical(value), null, 2)}\n`;
}
