/**
 * The one string order of the project: by UTF-16 code unit, not by locale, so it is the same on
 * every machine, and so is every artifact sorted with it.
 */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
