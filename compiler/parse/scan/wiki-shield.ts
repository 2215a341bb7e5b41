/**
 * Hides wiki-links from the Markdown parser and puts them back afterwards.
 *
 * Why: remark does not know `[[...]]`. Inside a GFM table the `|` of `[[GraphNode|nodos]]` splits
 * the cell in two, and a definition such as `[Target]: url` would turn `[[Target]]` into a link
 * reference. Each link is therefore swapped for an opaque token before parsing, a pair of
 * private-use characters around a counter, which Markdown treats as ordinary word characters, and
 * swapped back in every string read from the tree.
 */
import type { WikiLink } from '../types.js';
import { parseWikiLink, replaceWikiLinks } from '../wiki-links.js';

const OPEN = '\uE000';
const CLOSE = '\uE001';
const TOKEN = /\uE000(\d+)\uE001/g;
/** Markdown backslash escapes (any ASCII punctuation), as CommonMark unescapes them in text. */
const ESCAPE = /\\([!-/:-@[-`{-~])/g;

interface Shielded {
  /** The link as written in the source, for code where Markdown escapes mean nothing. */
  written: string;
  /** The link as prose shows it: escapes such as `\|` (needed inside tables) resolved. */
  shown: string;
  link: WikiLink;
}

export interface WikiLinkShield {
  /** The source with every wiki-link replaced by a token. */
  text: string;
  /** Restores the links in prose text, as `[[...]]` with escapes resolved, appending each to `found`. */
  restoreText(value: string, found?: WikiLink[]): string;
  /** Restores the links exactly as written (code blocks, inline code, URLs); they are not references. */
  restoreVerbatim(value: string): string;
}

export function shieldWikiLinks(source: string): WikiLinkShield {
  const shielded: Shielded[] = [];
  // A stray private-use character in the source must not be mistaken for one of our tokens.
  const clean = source.replace(/[\uE000\uE001]/g, '\uFFFD');
  const text = replaceWikiLinks(clean, (inner, whole) => {
    const shownInner = inner.replace(ESCAPE, '$1');
    const link = parseWikiLink(shownInner);
    if (link.target === null && link.anchor === null) return whole; // `[[]]` is not a link
    shielded.push({ written: whole, shown: `[[${shownInner}]]`, link });
    return `${OPEN}${shielded.length - 1}${CLOSE}`;
  });

  const restore = (value: string, pick: (entry: Shielded) => string): string =>
    value.replace(TOKEN, (token, index: string) => {
      const entry = shielded[Number(index)];
      return entry ? pick(entry) : token;
    });

  return {
    text,
    restoreText: (value, found) =>
      restore(value, (entry) => {
        found?.push({ ...entry.link });
        return entry.shown;
      }),
    restoreVerbatim: (value) => restore(value, (entry) => entry.written),
  };
}
