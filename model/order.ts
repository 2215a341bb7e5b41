/**
 * The one string order of the project: by UTF-16 code unit, not by locale, so it is the same on
 * every machine, and so is every artifact sorted with it.
 */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Counts as an object whose keys are in {@link compareCodeUnits} order, the order reports show them in. */
export function inKeyOrder(counts: ReadonlyMap<string, number>): Record<string, number> {
  const ordered: Record<string, number> = {};
  for (const key of [...counts.keys()].sort(compareCodeUnits)) ordered[key] = counts.get(key)!;
  return ordered;
}
