/**
 * Inline Markdown → plain text without building a tree, for the fast scanner (scan-markdown.ts).
 *
 * It follows CommonMark/GFM as micromark (remark) implements it, because `parseMarkdown` must give
 * the same text as the remark reference: code spans, links and images, autolinks, raw HTML,
 * escapes and entities are read left to right into pieces; emphasis and strikethrough delimiters
 * are matched afterwards with micromark's rules and the matched marker characters are dropped.
 * Wiki-links arrive shielded as opaque tokens and are restored piece by piece, so a link inside a
 * code span stays as written and is not counted.
 */
import type { WikiLink } from '../types.js';
import type { WikiLinkShield } from './wiki-shield.js';
import { htmlText } from './plain-text.js';

export interface InlineScope {
  shield: WikiLinkShield;
  /** Collects the wiki-links met in prose, in document order. */
  links: WikiLink[];
  /** Normalized labels of the document's link reference definitions (`[label]: url`). */
  definitions: ReadonlySet<string>;
}

/** How a piece is turned back into text (see `renderPieces`). */
const enum Kind {
  Text,
  Code,
  Html,
  Break,
  /** Image alt text: remark restores it as prose but leaves its line breaks alone. */
  Alt,
}

interface Piece {
  kind: Kind;
  value: string;
}

/** A run of `*`, `_` or `~` that may open or close emphasis (micromark's attention/strikethrough). */
interface Delimiter {
  piece: Piece;
  marker: string;
  /** Marker characters not yet used by a match. */
  size: number;
  canOpen: boolean;
  canClose: boolean;
}

interface Bracket {
  piece: Piece;
  image: boolean;
  /** False once a link closed after it: links may not contain links. */
  active: boolean;
  /** Source index just after the `[`, where the link text starts. */
  textStart: number;
  /** Length of the delimiter list when the bracket opened: emphasis inside is resolved apart. */
  delimiterBottom: number;
  piecesStart: number;
}

const SPECIAL = new Uint8Array(128);
for (const char of '\n\\`*_~[]!<&') SPECIAL[char.charCodeAt(0)] = 1;

const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;
const UNICODE_PUNCTUATION = /[\p{P}\p{S}]/u;
const UNICODE_WHITESPACE = /\s/;

const ENTITY = /&(?:#[xX]([0-9a-fA-F]{1,6})|#(\d{1,7})|([A-Za-z][A-Za-z0-9]{1,31}));/y;
/**
 * Named entities decoded. remark knows all ~2,000 HTML ones; specs only use this handful, and any
 * other name is kept as typed (a deliberate difference, see scan-markdown.ts).
 */
const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00A0', copy: '©', reg: '®', hellip: '…',
  mdash: '—', ndash: '–', laquo: '«', raquo: '»', rarr: '→', larr: '←', harr: '↔', iexcl: '¡', iquest: '¿',
  times: '×', middot: '·', deg: '°', euro: '€', trade: '™', bull: '•', check: '✓',
};

const AUTOLINK = /<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>\u0000-\u001F]*|[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*)>/y;
const ATTRIBUTE = String.raw`(?:\s+[A-Za-z_:][A-Za-z0-9_.:-]*(?:\s*=\s*(?:[^\s"'=<>\u0060]+|'[^']*'|"[^"]*"))?)`;
const INLINE_HTML = new RegExp(
  [
    String.raw`<[A-Za-z][A-Za-z0-9-]*${ATTRIBUTE}*\s*\/?>`,
    String.raw`<\/[A-Za-z][A-Za-z0-9-]*\s*>`,
    String.raw`<!-->|<!--->|<!--[\s\S]*?-->`,
    String.raw`<\?[\s\S]*?\?>`,
    String.raw`<![A-Za-z][^>]*>`,
    String.raw`<!\[CDATA\[[\s\S]*?\]\]>`,
  ].join('|'),
  'y',
);
/** `(destination "title")` after a `]`; destination in `<...>` or bare with balanced parentheses. */
const INLINE_LINK_TAIL = new RegExp(
  String.raw`\(\s*(?:<(?:[^<>\n\\]|\\.)*>|(?:[^\s()\\\u0000-\u001F]|\\.|\((?:[^\s()\\]|\\.)*\))*)` +
    String.raw`(?:\s+(?:"(?:[^"\\]|\\[\s\S])*"|'(?:[^'\\]|\\[\s\S])*'|\((?:[^()\\]|\\[\s\S])*\)))?\s*\)`,
  'y',
);
const REFERENCE_LABEL = /\[((?:[^\\[\]]|\\[\s\S]){0,999})\]/y;

/** Plain text of one paragraph, heading or table cell (untidied: callers fold spaces). */
export function renderInline(source: string, scope: InlineScope, inTable = false): string {
  return new InlineScanner(source, scope, inTable).run();
}

/** Label identity as CommonMark compares labels: case-folded, inner whitespace collapsed. */
export function normalizeLabel(label: string): string {
  return label.trim().replace(/\s+/g, ' ').toLowerCase().toUpperCase();
}

class InlineScanner {
  private readonly pieces: Piece[] = [];
  private readonly delimiters: Delimiter[] = [];
  private readonly brackets: Bracket[] = [];
  /** The last piece if plain text may still be appended to it (delimiters and brackets may not). */
  private open: Piece | null = null;
  private pos = 0;

  constructor(
    private readonly src: string,
    private readonly scope: InlineScope,
    /** GFM table cells unescape `\|` even inside code spans. */
    private readonly inTable: boolean,
  ) {}

  run(): string {
    const { src } = this;
    while (this.pos < src.length) {
      const code = src.charCodeAt(this.pos);
      if (code < 128 && SPECIAL[code] === 1) this.special(src[this.pos]!);
      else this.plain();
    }
    this.resolveEmphasis(0);
    return this.render();
  }

  /** A run of ordinary characters, up to the next one with a meaning. */
  private plain(): void {
    const { src } = this;
    let end = this.pos + 1;
    while (end < src.length) {
      const code = src.charCodeAt(end);
      if (code < 128 && SPECIAL[code] === 1) break;
      end++;
    }
    this.text(src.slice(this.pos, end));
    this.pos = end;
  }

  private special(char: string): void {
    switch (char) {
      case '\n':
        return this.lineEnding();
      case '\\':
        return this.backslash();
      case '`':
        return this.codeSpan();
      case '*':
      case '_':
      case '~':
        return this.delimiterRun(char);
      case '[':
        return this.openBracket(false);
      case '!':
        if (this.src[this.pos + 1] === '[') return this.openBracket(true);
        return this.literal(1);
      case ']':
        return this.closeBracket();
      case '<':
        return this.angle();
      default:
        return this.entity();
    }
  }

  private text(value: string): void {
    if (this.open) this.open.value += value;
    else this.pieces.push((this.open = { kind: Kind.Text, value }));
  }

  /** A piece that later steps edit in place (delimiter runs, brackets) or that is not prose. */
  private push(kind: Kind, value: string): Piece {
    const piece = { kind, value };
    this.pieces.push(piece);
    this.open = null;
    return piece;
  }

  private literal(length: number): void {
    this.text(this.src.slice(this.pos, this.pos + length));
    this.pos += length;
  }

  /** Two or more spaces before a line ending make a hard break (a newline in the text). */
  private lineEnding(): void {
    const { src, pos } = this;
    this.pos++;
    if (pos >= 2 && src[pos - 1] === ' ' && src[pos - 2] === ' ') this.push(Kind.Break, '\n');
    else this.text('\n');
  }

  private backslash(): void {
    const next = this.src[this.pos + 1];
    if (next === '\n') {
      this.pos += 2;
      this.push(Kind.Break, '\n');
    } else if (next !== undefined && ASCII_PUNCTUATION.test(next)) {
      this.text(next);
      this.pos += 2;
    } else {
      this.literal(1);
    }
  }

  /** A code span needs a closing run of exactly as many backticks; otherwise they are literal. */
  private codeSpan(): void {
    const { src } = this;
    let open = this.pos;
    while (src[open] === '`') open++;
    const size = open - this.pos;
    let search = open;
    for (;;) {
      const close = src.indexOf('`', search);
      if (close === -1) return this.literal(size);
      let end = close;
      while (src[end] === '`') end++;
      if (end - close === size) {
        this.push(Kind.Code, this.codeValue(src.slice(open, close)));
        this.pos = end;
        return;
      }
      search = end;
    }
  }

  /** mdast keeps a code span's line endings; one space or line ending is stripped from each side. */
  private codeValue(raw: string): string {
    let value = raw;
    if (value.length > 2 && isPadding(value[0]) && isPadding(value[value.length - 1]) && /[^ \n]/.test(value)) {
      value = value.slice(1, -1);
    }
    return this.inTable ? value.replace(/\\([\\|])/g, (escape, char: string) => (char === '|' ? '|' : escape)) : value;
  }

  /** Records a `*`/`_`/`~` run with micromark's rules for whether it may open and/or close. */
  private delimiterRun(marker: string): void {
    const { src } = this;
    const start = this.pos;
    let end = start;
    while (src[end] === marker) end++;
    this.pos = end;
    const size = end - start;
    // GFM strikethrough takes `~` and `~~` only; longer runs are text.
    if (marker === '~' && size > 2) return this.text(src.slice(start, end));
    const before = classify(codePointBefore(src, start));
    const after = classify(src.codePointAt(end));
    let canOpen = after === OTHER || (after === PUNCTUATION && before !== OTHER);
    let canClose = before === OTHER || (before === PUNCTUATION && after !== OTHER);
    if (marker !== '~') {
      // A neighbouring `~` lets `*`/`_` open or close, as micromark's attention markers do.
      canOpen ||= src[end] === '~';
      canClose ||= src[start - 1] === '~';
      if (marker === '_') {
        [canOpen, canClose] = [canOpen && (before !== OTHER || !canClose), canClose && (after !== OTHER || !canOpen)];
      }
    }
    this.delimiters.push({ piece: this.push(Kind.Text, src.slice(start, end)), marker, size, canOpen, canClose });
  }

  private openBracket(image: boolean): void {
    const length = image ? 2 : 1;
    const piece = this.push(Kind.Text, image ? '![' : '[');
    this.brackets.push({
      piece,
      image,
      active: true,
      textStart: this.pos + length,
      delimiterBottom: this.delimiters.length,
      piecesStart: this.pieces.length,
    });
    this.pos += length;
  }

  /** `]` closes the latest bracket as a link or image when a destination or a defined label follows. */
  private closeBracket(): void {
    const opener = this.brackets.pop();
    if (!opener || !opener.active) return this.literal(1);
    const end = this.linkEnd(opener);
    if (end === -1) return this.literal(1);

    this.resolveEmphasis(opener.delimiterBottom);
    this.open = null;
    opener.piece.value = '';
    if (opener.image) {
      // An image reads as its alt text: the plain text of everything between the brackets.
      const inside = this.pieces.splice(opener.piecesStart);
      this.push(Kind.Alt, inside.map((piece) => (piece.kind === Kind.Break ? '' : piece.value)).join(''));
    } else {
      for (const bracket of this.brackets) if (!bracket.image) bracket.active = false;
    }
    this.pos = end;
  }

  /** Source index after the link's destination or reference, or -1 if the brackets are no link. */
  private linkEnd(opener: Bracket): number {
    const { src } = this;
    const after = this.pos + 1;
    if (src[after] === '(') {
      INLINE_LINK_TAIL.lastIndex = after;
      if (INLINE_LINK_TAIL.test(src)) return INLINE_LINK_TAIL.lastIndex;
    }
    const text = src.slice(opener.textStart, this.pos);
    REFERENCE_LABEL.lastIndex = after;
    const label = REFERENCE_LABEL.exec(src);
    if (label) {
      const full = label[1]!.trim() === '' ? text : label[1]!;
      return this.isDefined(full) ? REFERENCE_LABEL.lastIndex : -1;
    }
    return this.isDefined(text) ? after : -1;
  }

  private isDefined(label: string): boolean {
    return this.scope.definitions.size > 0 && label.trim() !== '' && this.scope.definitions.has(normalizeLabel(label));
  }

  /** `<` opens an autolink (its URL is its text), a raw HTML tag or comment, or nothing. */
  private angle(): void {
    const { src } = this;
    AUTOLINK.lastIndex = this.pos;
    const autolink = AUTOLINK.exec(src);
    if (autolink) {
      this.text(autolink[1]!);
      this.pos = AUTOLINK.lastIndex;
      return;
    }
    INLINE_HTML.lastIndex = this.pos;
    if (INLINE_HTML.test(src)) {
      this.push(Kind.Html, src.slice(this.pos, INLINE_HTML.lastIndex));
      this.pos = INLINE_HTML.lastIndex;
      return;
    }
    this.literal(1);
  }

  private entity(): void {
    ENTITY.lastIndex = this.pos;
    const match = ENTITY.exec(this.src);
    const decoded = match ? decodeEntity(match) : undefined;
    if (decoded === undefined) return this.literal(1);
    this.text(decoded);
    this.pos = ENTITY.lastIndex;
  }

  /**
   * Matches the delimiter runs recorded since `bottom` and forgets them: `*`/`_` first over the
   * whole span, then `~`, as micromark runs its attention resolver before strikethrough's.
   */
  private resolveEmphasis(bottom: number): void {
    const runs = this.delimiters.splice(bottom);
    matchRuns(runs, false);
    matchRuns(runs, true);
  }

  /** Concatenates the pieces, restoring wiki-links: counted in prose, verbatim in code. */
  private render(): string {
    const { shield } = this.scope;
    let out = '';
    let prose = '';
    for (const piece of this.pieces) {
      if (piece.kind === Kind.Text) {
        prose += piece.value;
        continue;
      }
      // Adjacent text pieces are one text node in remark: soft breaks fold across their seams.
      if (prose) out += this.restore(prose.includes('\n') ? prose.replace(SOFT_BREAK, ' ') : prose);
      prose = '';
      if (piece.kind === Kind.Code) out += hasToken(piece.value) ? shield.restoreVerbatim(piece.value) : piece.value;
      else if (piece.kind === Kind.Html) out += htmlText(piece.value, this.scope);
      else if (piece.kind === Kind.Alt) out += this.restore(piece.value);
      else out += piece.value;
    }
    if (prose) out += this.restore(prose.includes('\n') ? prose.replace(SOFT_BREAK, ' ') : prose);
    return out;
  }

  private restore(prose: string): string {
    return hasToken(prose) ? this.scope.shield.restoreText(prose, this.scope.links) : prose;
  }
}

/** Whether a string holds a shielded wiki-link; most text does not, and skips the restore. */
export function hasToken(value: string): boolean {
  return value.includes('\uE000');
}

const SOFT_BREAK = /[ \t]*\n[ \t]*/g;

/**
 * Pairs closers with the nearest suitable opener (micromark's resolveAll for attention or
 * strikethrough), trimming the used marker characters from both pieces. Runs between a matched
 * pair can no longer match anything outside it; for `*`/`_` pairs the `~` runs inside are
 * resolved among themselves first.
 */
function matchRuns(runs: Delimiter[], tildes: boolean): void {
  let index = 0;
  while (index < runs.length) {
    const closer = runs[index]!;
    if (!closer.canClose || (closer.marker === '~') !== tildes) {
      index++;
      continue;
    }
    const at = findOpener(runs, index);
    if (at === -1) {
      index++;
      continue;
    }
    const opener = runs[at]!;
    if (!tildes) matchRuns(runs.slice(at + 1, index), true);
    const use = tildes ? closer.size : opener.size > 1 && closer.size > 1 ? 2 : 1;
    consume(opener, use);
    consume(closer, use);
    runs.splice(at + 1, index - at - 1);
    index = at + 1;
    if (opener.size === 0) runs.splice(--index, 1);
    if (closer.size === 0) runs.splice(index, 1);
  }
}

function findOpener(runs: readonly Delimiter[], closerAt: number): number {
  const closer = runs[closerAt]!;
  for (let at = closerAt - 1; at >= 0; at--) {
    const opener = runs[at]!;
    if (!opener.canOpen || opener.marker !== closer.marker) continue;
    if (closer.marker === '~') {
      if (opener.size === closer.size) return at;
      continue;
    }
    // CommonMark's "multiple of 3" rule, on the sizes left after earlier matches as micromark does.
    const both = opener.canClose || closer.canOpen;
    if (both && closer.size % 3 !== 0 && (opener.size + closer.size) % 3 === 0) continue;
    return at;
  }
  return -1;
}

function consume(run: Delimiter, use: number): void {
  run.size -= use;
  run.piece.value = run.marker.repeat(run.size);
}

const OTHER = 0;
const WHITESPACE = 1;
const PUNCTUATION = 2;

/** micromark's classifyCharacter; the start and end of the text count as whitespace. */
function classify(code: number | undefined): number {
  if (code === undefined) return WHITESPACE;
  const char = String.fromCodePoint(code);
  if (UNICODE_WHITESPACE.test(char)) return WHITESPACE;
  if (code < 128 ? ASCII_PUNCTUATION.test(char) : UNICODE_PUNCTUATION.test(char)) return PUNCTUATION;
  return OTHER;
}

function isPadding(char: string | undefined): boolean {
  return char === ' ' || char === '\n';
}

function codePointBefore(src: string, index: number): number | undefined {
  if (index === 0) return undefined;
  const low = src.charCodeAt(index - 1);
  if (low >= 0xdc00 && low <= 0xdfff && index >= 2) return src.codePointAt(index - 2);
  return low;
}

function decodeEntity(match: RegExpExecArray): string | undefined {
  const [, hex, decimal, name] = match;
  if (name !== undefined) return Object.hasOwn(NAMED_ENTITIES, name) ? NAMED_ENTITIES[name] : undefined;
  const code = Number.parseInt(hex ?? decimal!, hex === undefined ? 10 : 16);
  return code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) ? '\uFFFD' : String.fromCodePoint(code);
}
