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
  sortKeys(keys);
  for (const key of keys) {
    const item = (value as Record<string, unknown>)[key];
    if (item !== undefined) sorted[key] = canonical(item);
  }
  return sorted as T;
}

/**
 * `keys.sort()`, in place. A build canonicalises every node and section, a few keys each: an
 * insertion sort of so few needs no work array (the built-in sort allocates one per call).
 */
function sortKeys(keys: string[]): void {
  if (keys.length > 32) {
    keys.sort();
    return;
  }
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i]!;
    let j = i - 1;
    for (; j >= 0 && keys[j]! > key; j--) keys[j + 1] = keys[j]!;
    keys[j + 1] = key;
  }
}

/** Pretty, stable JSON for the git-friendly artifacts (one key order, trailing newline). */
export function stableJson(value: unknown): string {
  return `${JSON.stringify(canonical(value), null, 2)}\n`;
}
