/**
 * Wiki-links (`[[...]]`) and bare KDD ids (`UC-001`, `BR-DOCUMENT-001`): the two ways a spec points
 * at another spec. Pure string functions, no Markdown knowledge; `markdown.ts` and `gherkin.ts`
 * decide which parts of a document are searched.
 */
import type { WikiLink } from './types.js';

/**
 * One `[[...]]` on a single line. The inner text may hold no bracket, so `[[[X]]]` yields `X` and a
 * Markdown escape such as `\[\[X]]` (no two adjacent brackets) is never taken for a link.
 */
const WIKI_LINK = /\[\[([^[\]\n]*)\]\]/g;

/**
 * Parses the text between the brackets. Order of the parts: `domain::Target#Anchor|alias`.
 * A `\|` (how an alias is written inside a Markdown table cell) counts as the alias separator.
 */
export function parseWikiLink(inner: string): WikiLink {
  const unescaped = inner.replace(/\\\|/g, '|');
  const bar = unescaped.indexOf('|');
  const reference = bar === -1 ? unescaped : unescaped.slice(0, bar);
  const alias = bar === -1 ? null : orNull(unescaped.slice(bar + 1));

  const colons = reference.indexOf('::');
  const domain = colons === -1 ? null : orNull(reference.slice(0, colons));
  const path = colons === -1 ? reference : reference.slice(colons + 2);

  const hash = path.indexOf('#');
  const target = orNull(hash === -1 ? path : path.slice(0, hash));
  const anchor = hash === -1 ? null : orNull(path.slice(hash + 1));

  return { raw: inner, target, domain, anchor, alias };
}

/**
 * Calls `replace` for every `[[...]]` in `text` (inner text and the whole match) and splices in
 * its result. The single place that knows the link syntax; `markdown.ts` uses it to shield links
 * from the Markdown parser.
 */
export function replaceWikiLinks(text: string, replace: (inner: string, whole: string) => string): string {
  return text.replace(WIKI_LINK, (whole, inner: string) => replace(inner, whole));
}

/** Every wiki-link in `text`, in order of appearance. Links naming neither a target nor an anchor (`[[]]`, `[[ | x]]`) are skipped. */
export function findWikiLinks(text: string): WikiLink[] {
  const links: WikiLink[] = [];
  for (const match of text.matchAll(WIKI_LINK)) {
    const link = parseWikiLink(match[1] ?? '');
    if (link.target !== null || link.anchor !== null) links.push(link);
  }
  return links;
}

/**
 * Replaces each wiki-link with what a reader sees: its alias, else its target, else its anchor
 * (`[[#Flujo]]` → `Flujo`). Used for plain-text snippets; empty links are left untouched.
 */
export function renderWikiLinks(text: string): string {
  return replaceWikiLinks(text, (inner, whole) => {
    const link = parseWikiLink(inner);
    return link.alias ?? link.target ?? link.anchor ?? whole;
  });
}

/**
 * Bare KDD ids. Numbered kinds stop at their number, so `CMD-004-MergeIndex` names `CMD-004`;
 * rules keep their upper-case scope (`BR-DOCUMENT-001`); named kinds (`EVT-Pedido-Creado`,
 * `SCN-IndexEntity-001`, `UI-…`, `PRD-…`, `NFR-…`) take every hyphenated word.
 * Accented letters are allowed in names (Spanish specs: `EVT-Pedido-Cancelación`).
 */
const ID_REFERENCE = new RegExp(
  // Word boundaries that understand hyphens and accents (`\b` does neither): nothing is found in
  // `XUC-001` or `UC-001_b`, while `@UC-001`, `(UC-001)` and `UC-001-IndexDocument` all name `UC-001`.
  // Written once around the alternatives (the same matches as one pair per alternative): every
  // Unicode class costs compile time in a short `kdd build` process.
  String.raw`(?<![\p{L}\p{N}_-])(?:${[
    String.raw`(?:UC|CMD|QRY|PROC|REQ|OBJ|UV|REL)-\d{3,}`,
    String.raw`ADR-\d{4,}`,
    String.raw`(?:BR|BP|XP)-(?:[A-Z0-9]+-)*\d{3,}`,
    String.raw`(?:EVT|SCN|UI|PRD|NFR)-[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*`,
  ].join('|')})(?![\p{L}\p{N}_])`,
  'gu',
);

/** Bare KDD ids in `text`, deduplicated, in order of first appearance. */
export function findIdReferences(text: string): string[] {
  // Every id has a hyphen: most step texts and labels need no run of the expression (nor its compilation).
  if (!text.includes('-')) return [];
  const seen = new Set<string>();
  for (const match of text.matchAll(ID_REFERENCE)) seen.add(match[0]);
  return [...seen];
}

/** A bare id as a link, so Gherkin references and wiki-links travel in one list. */
export function idReferenceLink(id: string): WikiLink {
  return { raw: id, target: id, domain: null, anchor: null, alias: null };
}

/**
 * Drops repeated links (same domain, target, anchor and alias), keeping first appearances.
 * Identity ignores `raw` so `[[X]]`, `[[ X ]]` and a bare `X` id collapse into one reference.
 */
export function uniqueLinks(links: readonly WikiLink[]): WikiLink[] {
  const seen = new Set<string>();
  return links.filter((link) => {
    const key = JSON.stringify([link.domain, link.target, link.anchor, link.alias]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function orNull(part: string): string | null {
  const trimmed = part.trim();
  return trimmed === '' ? null : trimmed;
}
