/** The one string order of the project: by UTF-16 code unit, the same on every machine and locale. */
/** Code-unit string comparison (locale-independent, so order is the same everywhere). */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
