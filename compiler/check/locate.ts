/**
 * Where in a spec's source text a problem sits: the `[[link]]` that points at a target, or a
 * front-matter field. The bundle keeps no positions (its bytes stay independent of formatting),
 * so `kdd check` re-reads the source and finds the text again. Pure functions of the text.
 *
 * Lines and columns are 1-based; columns count UTF-16 code units (SARIF's default `columnKind`).
 */

export interface Position {
  line: number;
  column: number;
}

/** Same pattern as the parser's (compiler/parse/wiki-links.ts): one `[[...]]` on one line. */
const WIKI_LINK = /\[\[([^[\]\n]*)\]\]/g;

/** Line and column of a UTF-16 offset in `text`. */
export function positionAt(text: string, offset: number): Position {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/** The target a link names, as resolution compares it: no domain, anchor or alias, lower case. */
function linkTarget(inner: string): string {
  const reference = inner.replace(/\\\|/g, '|').split('|', 1)[0]!;
  const colons = reference.indexOf('::');
  const path = colons === -1 ? reference : reference.slice(colons + 2);
  return path.split('#', 1)[0]!.trim().toLowerCase();
}

/** Offset range of the section whose heading text is `section` (to its next heading), or null. */
function sectionRange(text: string, section: string): [number, number] | null {
  const headings = [...text.matchAll(/^#{1,6}[ \t]+(.*?)[ \t#]*$/gm)];
  const at = headings.findIndex((heading) => heading[1]!.trim() === section.trim());
  if (at === -1) return null;
  const start = headings[at]!.index;
  const next = headings[at + 1];
  return [start, next ? next.index : text.length];
}

/**
 * The first `[[...]]` whose target (domain, anchor and alias ignored, case-insensitive) is one of
 * `targets`, preferring one inside `section`; else the first bare occurrence of a target in the
 * text (Gherkin ids, relation tables); else null.
 */
export function locateLink(text: string, targets: readonly string[], section: string | null = null): Position | null {
  const wanted = new Set(targets.map((target) => target.trim().toLowerCase()).filter(Boolean));
  if (wanted.size === 0) return null;
  const matches: number[] = [];
  for (const match of text.matchAll(WIKI_LINK)) if (wanted.has(linkTarget(match[1]!))) matches.push(match.index);
  const range = section === null ? null : sectionRange(text, section);
  const inSection = range ? matches.find((offset) => offset >= range[0] && offset < range[1]) : undefined;
  const offset = inSection ?? matches[0] ?? bareOccurrence(text, wanted);
  return offset === undefined ? null : positionAt(text, offset);
}

/** First whole-word occurrence of any target, case-insensitive. */
function bareOccurrence(text: string, wanted: ReadonlySet<string>): number | undefined {
  const lower = text.toLowerCase();
  let best: number | undefined;
  for (const target of wanted) {
    for (let at = lower.indexOf(target); at !== -1; at = lower.indexOf(target, at + 1)) {
      const before = lower[at - 1];
      const after = lower[at + target.length];
      if (!isWordChar(before) && !isWordChar(after)) {
        if (best === undefined || at < best) best = at;
        break;
      }
    }
  }
  return best;
}

function isWordChar(char: string | undefined): boolean {
  return char !== undefined && /[\p{L}\p{N}_-]/u.test(char);
}

/**
 * The `name:` key of the front-matter block (`---` … `---` at the top of the file), pointing at its
 * first character; null when the file has no front-matter or no such key.
 */
export function locateField(text: string, name: string): Position | null {
  const start = text.startsWith('\uFEFF') ? 1 : 0;
  const open = /^---[^\S\n]*\r?\n/.exec(text.slice(start));
  if (!open) return null;
  const body = start + open[0].length;
  const close = /^---[^\S\n]*$/m.exec(text.slice(body));
  const end = close ? body + close.index : text.length;
  const key = new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[^\\S\\n]*:`, 'm').exec(text.slice(body, end));
  return key ? positionAt(text, body + key.index) : null;
}
