/**
 * Printing helpers for the query commands: aligned plain-text tables and section headings.
 * No colours, no terminal width guessing: the output is stable so it can be diffed and grepped.
 */

/** Aligned columns separated by two spaces; the last column is never padded. */
export function table(headers: readonly string[], rows: ReadonlyArray<readonly string[]>, indent = '  '): string {
  if (rows.length === 0) return `${indent}(none)\n`;
  // A loop, not Math.max(...rows): spreading 100k+ rows (health of a large tree) overflows the call stack.
  const widths = headers.map((header, column) => rows.reduce((width, row) => Math.max(width, (row[column] ?? '').length), header.length));
  const line = (cells: readonly string[]) =>
    indent +
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]!)))
      .join('  ')
      .trimEnd();
  return `${[line(headers), ...rows.map(line)].join('\n')}\n`;
}

/** `Title (n)` followed by the table. */
export function section(title: string, headers: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  return `${title} (${rows.length})\n${table(headers, rows)}`;
}

/** Pretty JSON with a trailing newline, as `--json` prints every answer. */
export function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** `a → b → c` */
export function arrowPath(ids: readonly string[]): string {
  return ids.join(' → ');
}

/** One-decimal percentage: `75.0%`. */
export function pct(value: number): string {
  return `${value.toFixed(1)}%`;
}

/** One line, at most `max` characters (an ellipsis marks the cut). */
export function clip(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

/** `warning CODE: message` lines for the non-fatal warnings a result carries. */
export function warnings(list: ReadonlyArray<{ code: string; message: string }>): string {
  return list.map((w) => `warning ${w.code}: ${w.message}\n`).join('');
}
