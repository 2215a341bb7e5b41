/**
 * Markdown → block tree, one line at a time, for the fast scanner (scan-markdown.ts).
 *
 * The container logic is CommonMark's (as in commonmark.js): each line first continues the open
 * blockquotes and list items it can, then may start new blocks, then is added to the innermost
 * open block or lazily continues a paragraph. GFM tables start when a delimiter row follows a
 * paragraph line with as many cells, and take every following line as a row until a blank line or
 * another block starts (micromark's behaviour). Inline content stays raw text here.
 */

export type BlockKind = 'document' | 'quote' | 'list' | 'item' | 'paragraph' | 'heading' | 'code' | 'html' | 'table' | 'break';

export class BlockNode {
  readonly children: BlockNode[] = [];
  /** Raw content lines: paragraph and heading inline source, code and HTML text. */
  lines: string[] = [];
  open = true;
  /** Heading depth. */
  depth = 0;
  /** Fenced code: info string's first word. */
  lang: string | null = null;
  /** Fenced code: the fence character and length; '' for indented code. */
  fence = '';
  fenceLength = 0;
  fenceIndent = 0;
  /** HTML block: the line pattern that ends it, null when a blank line does. */
  htmlEnd: RegExp | null = null;
  /** Table rows, header first, cells as raw inline source. */
  rows: string[][] = [];
  /** List: bullet character, or `.`/`)` for an ordered list (a different one starts a new list). */
  marker = '';
  /** Item: column where its content starts, relative to the marker. */
  markerIndent = 0;
  padding = 0;

  constructor(
    readonly kind: BlockKind,
    public parent: BlockNode | null,
  ) {}

  get lastChild(): BlockNode | undefined {
    return this.children[this.children.length - 1];
  }
}

/** Block tree of a document, and the labels of its link reference definitions (normalized). */
export interface ScannedBlocks {
  document: BlockNode;
  definitions: string[];
}

const CONTINUED = 0;
const NOT_CONTINUED = 1;
/** The line was consumed whole (a closing code fence). */
const LINE_DONE = 2;

const STARTED_CONTAINER = 1;
const STARTED_LEAF = 2;
const NO_START = 0;

const MAYBE_SPECIAL = /^[#`~*+_=<>0-9|:-]/;
const ATX_HEADING = /^#{1,6}(?:[ \t]+|$)/;
const CODE_FENCE = /^`{3,}(?!.*`)|^~{3,}/;
const CLOSING_FENCE = /^(?:`{3,}|~{3,})(?=[ \t]*$)/;
const SETEXT_UNDERLINE = /^(?:=+|-+)[ \t]*$/;
const THEMATIC_BREAK = /^(?:(?:\*[ \t]*){3,}|(?:_[ \t]*){3,}|(?:-[ \t]*){3,})$/;
const BULLET = /^[*+-]/;
const ORDERED = /^(\d{1,9})([.)])/;
const TABLE_DELIMITER_CELL = /^:?-+:?$/;

const BLOCK_TAGS =
  'address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|' +
  'fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|' +
  'menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul';
const ATTRIBUTE = String.raw`(?:\s+[A-Za-z_:][A-Za-z0-9_.:-]*(?:\s*=\s*(?:[^\s"'=<>\u0060]+|'[^']*'|"[^"]*"))?)`;
/** CommonMark's seven HTML block kinds: start pattern and end pattern (null: ends at a blank line). */
const HTML_BLOCKS: readonly { start: RegExp; end: RegExp | null; interrupts: boolean }[] = [
  { start: /^<(?:script|pre|style|textarea)(?:\s|>|$)/i, end: /<\/(?:script|pre|style|textarea)>/i, interrupts: true },
  { start: /^<!--/, end: /-->/, interrupts: true },
  { start: /^<\?/, end: /\?>/, interrupts: true },
  { start: /^<![A-Za-z]/, end: />/, interrupts: true },
  { start: /^<!\[CDATA\[/, end: /\]\]>/, interrupts: true },
  { start: new RegExp(String.raw`^<\/?(?:${BLOCK_TAGS})(?:\s|\/?>|$)`, 'i'), end: null, interrupts: true },
  {
    start: new RegExp(String.raw`^(?:<[A-Za-z][A-Za-z0-9-]*${ATTRIBUTE}*\s*\/?>|<\/[A-Za-z][A-Za-z0-9-]*\s*>)\s*$`),
    end: null,
    interrupts: false,
  },
];

const DEFINITION = new RegExp(
  String.raw`^[ \t]*\[((?:[^\\\[\]]|\\[\s\S]){1,999})\]:[ \t]*\n?[ \t]*(?:<(?:[^<>\n\\]|\\.)*>|[^\s<\u0000-\u001F][^\s\u0000-\u001F]*)` +
    String.raw`(?:(?:[ \t]+\n?|[ \t]*\n)[ \t]*(?:"(?:[^"\\]|\\[\s\S])*"|'(?:[^'\\]|\\[\s\S])*'|\((?:[^()\\]|\\[\s\S])*\)))?[ \t]*(?:\n|$)`,
);

/** Splits `source` into lines and builds its block tree. */
export function scanBlocks(source: string): ScannedBlocks {
  const text = source.includes('\0') ? source.replace(/\0/g, '\uFFFD') : source;
  const lines = text.includes('\r') ? text.split(/\r\n?|\n/) : text.split('\n');
  // A final line ending does not start one more (blank) line.
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const scanner = new BlockScanner();
  for (const line of lines) scanner.incorporate(line);
  return scanner.finish();
}

class BlockScanner {
  private readonly document = new BlockNode('document', null);
  private readonly definitions: string[] = [];
  private tip = this.document;
  private oldTip = this.document;
  private lastMatched = this.document;
  private allClosed = true;
  private line = '';
  private offset = 0;
  private column = 0;
  private nextNonspace = 0;
  private nextNonspaceColumn = 0;
  private indent = 0;
  private indented = false;
  private blank = false;
  private partiallyConsumedTab = false;
  /** Set when a block start took the whole line (heading, fence, table, break): nothing left to add. */
  private consumed = false;
  /**
   * Whether the line began inside an open paragraph. micromark keeps this for every container
   * start on the line, so in `- a\n  - *` the `*` is text, not an empty nested item (leaf blocks
   * such as HTML look at their own container instead).
   */
  private interrupting = false;

  finish(): ScannedBlocks {
    while (this.tip !== this.document) this.finalize(this.tip);
    return { document: this.document, definitions: this.definitions };
  }

  incorporate(line: string): void {
    this.line = line;
    this.offset = 0;
    this.column = 0;
    this.blank = false;
    this.partiallyConsumedTab = false;
    this.consumed = false;
    this.oldTip = this.tip;

    const matched = this.continueContainers();
    if (matched === null) return;
    let container = matched;
    this.allClosed = container === this.oldTip;
    this.lastMatched = container;
    this.interrupting = container.kind === 'paragraph';

    // Code and HTML blocks take their lines verbatim; paragraphs and tables may be interrupted.
    let matchedLeaf = container.kind === 'code' || container.kind === 'html';
    while (!matchedLeaf) {
      this.findNextNonspace();
      if (!this.indented && !MAYBE_SPECIAL.test(this.line.slice(this.nextNonspace, this.nextNonspace + 1))) {
        this.advanceNextNonspace();
        break;
      }
      const started = this.startBlock(container);
      if (started === NO_START) {
        this.advanceNextNonspace();
        break;
      }
      container = this.tip;
      if (started === STARTED_LEAF) matchedLeaf = true;
    }
    if (!this.consumed) this.addContent(container);
  }

  /** Walks the open containers this line continues; null if the line was consumed whole. */
  private continueContainers(): BlockNode | null {
    let container = this.document;
    for (let child = container.lastChild; child && child.open; child = container.lastChild) {
      this.findNextNonspace();
      const result = this.continueBlock(child);
      if (result === LINE_DONE) return null;
      if (result === NOT_CONTINUED) break;
      container = child;
    }
    return container;
  }

  private addContent(container: BlockNode): void {
    if (!this.allClosed && !this.blank && this.tip.kind === 'paragraph') {
      this.addLine(); // lazy continuation line
      return;
    }
    this.closeUnmatched();
    const { kind } = container;
    if (kind === 'code' || kind === 'html' || kind === 'paragraph') {
      this.addLine();
      if (kind === 'html' && container.htmlEnd?.test(this.line.slice(this.offset))) this.finalize(container);
    } else if (kind === 'table') {
      container.rows.push(splitRow(this.line.slice(this.offset)));
    } else if (this.offset < this.line.length && !this.blank) {
      this.addChild('paragraph');
      this.advanceNextNonspace();
      this.addLine();
    }
  }

  private continueBlock(block: BlockNode): number {
    switch (block.kind) {
      case 'quote':
        if (this.indented || this.line[this.nextNonspace] !== '>') return NOT_CONTINUED;
        this.advanceQuoteMarker();
        return CONTINUED;
      case 'item':
        return this.continueItem(block);
      case 'code':
        return block.fence ? this.continueFence(block) : this.continueIndentedCode();
      case 'html':
        return this.blank && block.htmlEnd === null ? NOT_CONTINUED : CONTINUED;
      case 'paragraph':
      case 'table':
        return this.blank ? NOT_CONTINUED : CONTINUED;
      case 'list':
        return CONTINUED;
      default:
        return NOT_CONTINUED; // headings and breaks are one line
    }
  }

  private continueItem(item: BlockNode): number {
    if (this.blank) {
      // An item may start with at most one blank line.
      if (item.children.length === 0) return NOT_CONTINUED;
      this.advanceNextNonspace();
      return CONTINUED;
    }
    if (this.indent >= item.markerIndent + item.padding) {
      this.advanceOffset(item.markerIndent + item.padding, true);
      return CONTINUED;
    }
    return NOT_CONTINUED;
  }

  private continueFence(code: BlockNode): number {
    const rest = this.line.slice(this.nextNonspace);
    const closing = this.indent <= 3 && rest[0] === code.fence ? CLOSING_FENCE.exec(rest) : null;
    if (closing && closing[0][0] === code.fence && closing[0].length >= code.fenceLength) {
      this.finalize(code);
      return LINE_DONE;
    }
    for (let skip = code.fenceIndent; skip > 0 && isSpaceOrTab(this.line[this.offset]); skip--) this.advanceOffset(1, true);
    return CONTINUED;
  }

  private continueIndentedCode(): number {
    if (this.indent >= 4) this.advanceOffset(4, true);
    else if (this.blank) this.advanceNextNonspace();
    else return NOT_CONTINUED;
    return CONTINUED;
  }

  /** Tries each block start in CommonMark's order. */
  private startBlock(container: BlockNode): number {
    const rest = this.line.slice(this.nextNonspace);
    if (!this.indented) {
      const started =
        this.startQuote(rest) ||
        this.startAtxHeading(rest) ||
        this.startFence(rest) ||
        this.startHtml(rest, container) ||
        this.startTable(rest, container) ||
        this.startSetextHeading(rest, container) ||
        this.startThematicBreak(rest);
      if (started) return started;
    }
    if (!this.indented || container.kind === 'list') {
      const started = this.startListItem();
      if (started) return started;
    }
    if (this.indented && this.tip.kind !== 'paragraph' && !this.blank) {
      this.advanceOffset(4, true);
      this.closeUnmatched();
      this.addChild('code');
      return STARTED_LEAF;
    }
    return NO_START;
  }

  private startQuote(rest: string): number {
    if (rest[0] !== '>') return NO_START;
    this.advanceQuoteMarker();
    this.closeUnmatched();
    this.addChild('quote');
    return STARTED_CONTAINER;
  }

  private advanceQuoteMarker(): void {
    this.advanceNextNonspace();
    this.advanceOffset(1, false);
    if (isSpaceOrTab(this.line[this.offset])) this.advanceOffset(1, true);
  }

  private startAtxHeading(rest: string): number {
    const match = ATX_HEADING.exec(rest);
    if (!match) return NO_START;
    this.advanceNextNonspace();
    this.advanceOffset(match[0].length, false);
    this.closeUnmatched();
    const heading = this.addChild('heading');
    heading.depth = match[0].trim().length;
    // Closing `#`s go only when they stand apart (`# C#` keeps its `#`).
    const content = this.line.slice(this.offset).replace(/^[ \t]*#+[ \t]*$/, '').replace(/[ \t]+#+[ \t]*$/, '');
    heading.lines.push(content);
    this.consumed = true;
    return STARTED_LEAF;
  }

  private startFence(rest: string): number {
    const match = CODE_FENCE.exec(rest);
    if (!match) return NO_START;
    this.closeUnmatched();
    const code = this.addChild('code');
    code.fence = match[0][0]!;
    code.fenceLength = match[0].length;
    code.fenceIndent = this.indent;
    code.lang = infoLanguage(rest.slice(match[0].length));
    this.consumed = true;
    return STARTED_LEAF;
  }

  private startHtml(rest: string, container: BlockNode): number {
    if (rest[0] !== '<') return NO_START;
    const lazy = !this.allClosed && !this.blank && this.tip.kind === 'paragraph';
    const kind = HTML_BLOCKS.find(
      (candidate) => candidate.start.test(rest) && (candidate.interrupts || (container.kind !== 'paragraph' && !lazy)),
    );
    if (!kind) return NO_START;
    this.closeUnmatched();
    // The line stays for addContent; an HTML block keeps its indentation.
    this.addChild('html').htmlEnd = kind.end;
    return STARTED_LEAF;
  }

  /** A delimiter row under a paragraph line with as many cells turns that line into a table header. */
  private startTable(rest: string, container: BlockNode): number {
    if (container.kind !== 'paragraph' || !rest.includes('|') || !/^[|:\- \t]+$/.test(rest)) return NO_START;
    // `- |` starts a list item (whose text is `|`) before it can be a delimiter row, as in micromark.
    if (/^-[ \t]/.test(rest)) return NO_START;
    const delimiters = splitRow(rest);
    if (delimiters.length === 0 || !delimiters.every((cell) => TABLE_DELIMITER_CELL.test(cell))) return NO_START;
    const header = splitRow(container.lines[container.lines.length - 1]!);
    if (header.length !== delimiters.length) return NO_START;

    this.closeUnmatched();
    container.lines.pop();
    const parent = container.parent!;
    if (container.lines.length === 0) parent.children.pop();
    else this.finalize(container);
    this.tip = parent;
    const table = this.addChild('table');
    table.rows.push(header);
    this.consumed = true;
    return STARTED_LEAF;
  }

  private startSetextHeading(rest: string, container: BlockNode): number {
    if (container.kind !== 'paragraph' || !SETEXT_UNDERLINE.test(rest)) return NO_START;
    this.closeUnmatched();
    this.takeDefinitions(container);
    if (container.lines.length === 0) return NO_START;
    const heading = new BlockNode('heading', container.parent);
    heading.depth = rest[0] === '=' ? 1 : 2;
    heading.lines = container.lines;
    heading.open = false;
    const siblings = container.parent!.children;
    siblings[siblings.length - 1] = heading;
    this.tip = heading;
    this.consumed = true;
    return STARTED_LEAF;
  }

  private startThematicBreak(rest: string): number {
    if (!THEMATIC_BREAK.test(rest)) return NO_START;
    this.closeUnmatched();
    this.addChild('break');
    this.consumed = true;
    return STARTED_LEAF;
  }

  private startListItem(): number {
    const item = this.parseListMarker();
    if (!item) return NO_START;
    this.closeUnmatched();
    const tip = this.tip;
    if (tip.kind !== 'list' || tip.marker !== item.marker) this.addChild('list').marker = item.marker;
    const child = this.addChild('item');
    child.markerIndent = item.markerIndent;
    child.padding = item.padding;
    return STARTED_CONTAINER;
  }

  /** commonmark.js's parseListMarker: the marker, and the column where the item's content starts. */
  private parseListMarker(): { marker: string; markerIndent: number; padding: number } | null {
    if (this.indent >= 4) return null;
    const rest = this.line.slice(this.nextNonspace);
    const { interrupting } = this;
    let marker: string;
    let length: number;
    const bullet = BULLET.exec(rest);
    const ordered = bullet ? null : ORDERED.exec(rest);
    if (bullet) {
      marker = bullet[0];
      length = 1;
    } else if (ordered && (!interrupting || ordered[1] === '1')) {
      marker = ordered[2]!;
      length = ordered[0].length;
    } else {
      return null;
    }
    const next = rest[length];
    if (next !== undefined && next !== ' ' && next !== '\t') return null;
    if (interrupting && rest.slice(length).trim() === '') return null;

    const markerIndent = this.indent;
    this.advanceNextNonspace();
    this.advanceOffset(length, true);
    const spacesStartColumn = this.column;
    const spacesStartOffset = this.offset;
    do this.advanceOffset(1, true);
    while (this.column - spacesStartColumn < 5 && isSpaceOrTab(this.line[this.offset]));
    const blankItem = this.offset >= this.line.length;
    const spaces = this.column - spacesStartColumn;
    let padding: number;
    if (spaces >= 5 || spaces < 1 || blankItem) {
      // Content indented 5+ columns is indented code inside an item one space after its marker.
      padding = length + 1;
      this.column = spacesStartColumn;
      this.offset = spacesStartOffset;
      if (isSpaceOrTab(this.line[this.offset])) this.advanceOffset(1, true);
    } else {
      padding = length + spaces;
    }
    return { marker, markerIndent, padding };
  }

  private addChild(kind: BlockKind): BlockNode {
    while (!canContain(this.tip.kind, kind)) this.finalize(this.tip);
    const node = new BlockNode(kind, this.tip);
    this.tip.children.push(node);
    this.tip = node;
    return node;
  }

  private addLine(): void {
    let content = this.line.slice(this.offset);
    if (this.partiallyConsumedTab) {
      // The rest of a tab the container prefix only partly used becomes spaces.
      content = ' '.repeat(4 - (this.column % 4)) + this.line.slice(this.offset + 1);
    }
    this.tip.lines.push(content);
  }

  private closeUnmatched(): void {
    if (this.allClosed) return;
    while (this.oldTip !== this.lastMatched) {
      const parent = this.oldTip.parent!;
      this.finalize(this.oldTip);
      this.oldTip = parent;
    }
    this.allClosed = true;
  }

  private finalize(block: BlockNode): void {
    block.open = false;
    if (block.kind === 'paragraph') {
      this.takeDefinitions(block);
      if (block.lines.length === 0) block.parent!.children.splice(block.parent!.children.indexOf(block), 1);
    } else if (block.kind === 'code' && !block.fence) {
      while (block.lines.length > 0 && block.lines[block.lines.length - 1]!.trim() === '') block.lines.pop();
    }
    this.tip = block.parent!;
  }

  /** Removes the link reference definitions a paragraph starts with, remembering their labels. */
  private takeDefinitions(paragraph: BlockNode): void {
    if (!paragraph.lines[0]?.startsWith('[')) return;
    let content = paragraph.lines.join('\n');
    for (let match = DEFINITION.exec(content); match; match = DEFINITION.exec(content)) {
      if (match[1]!.trim() === '') break;
      this.definitions.push(match[1]!);
      content = content.slice(match[0].length);
    }
    paragraph.lines = content === '' ? [] : content.split('\n');
  }

  private findNextNonspace(): void {
    const { line } = this;
    let index = this.offset;
    let column = this.column;
    for (;;) {
      const char = line[index];
      if (char === ' ') column++;
      else if (char === '\t') column += 4 - (column % 4);
      else break;
      index++;
    }
    this.blank = index >= line.length;
    this.nextNonspace = index;
    this.nextNonspaceColumn = column;
    this.indent = column - this.column;
    this.indented = this.indent >= 4;
  }

  private advanceNextNonspace(): void {
    this.offset = this.nextNonspace;
    this.column = this.nextNonspaceColumn;
    this.partiallyConsumedTab = false;
  }

  /** Advances by `count` characters, or by `count` columns when `columns` (a tab may be split). */
  private advanceOffset(count: number, columns: boolean): void {
    const { line } = this;
    let remaining = count;
    while (remaining > 0 && this.offset < line.length) {
      if (line[this.offset] === '\t') {
        const toTab = 4 - (this.column % 4);
        if (columns) {
          this.partiallyConsumedTab = toTab > remaining;
          const used = Math.min(toTab, remaining);
          this.column += used;
          if (!this.partiallyConsumedTab) this.offset++;
          remaining -= used;
        } else {
          this.partiallyConsumedTab = false;
          this.column += toTab;
          this.offset++;
          remaining--;
        }
      } else {
        this.partiallyConsumedTab = false;
        this.offset++;
        this.column++;
        remaining--;
      }
    }
  }
}

function canContain(parent: BlockKind, child: BlockKind): boolean {
  if (parent === 'list') return child === 'item';
  return (parent === 'document' || parent === 'quote' || parent === 'item') && child !== 'item';
}

function isSpaceOrTab(char: string | undefined): boolean {
  return char === ' ' || char === '\t';
}

/** mdast's `lang`: the info string's first word, backslash escapes resolved; null when empty. */
function infoLanguage(info: string): string | null {
  const word = info.trim().split(/[ \t]/, 1)[0]!;
  return word === '' ? null : word.replace(/\\([!-/:-@[-`{-~])/g, '$1');
}

/**
 * Cells of a table row, raw: split at each `|` not escaped by a backslash (GFM splits even inside
 * code spans), the outer pipes dropped (a row of one `|` is one empty cell, as in micromark), each
 * cell trimmed.
 */
export function splitRow(row: string): string[] {
  const text = row.trim();
  const cells = text.includes('\\') ? splitEscaped(text) : text.split('|');
  if (text.startsWith('|')) cells.shift();
  if (cells.length > 1 && text.endsWith('|') && cells[cells.length - 1] === '') cells.pop();
  return cells.map((cell) => cell.trim());
}

/** `text.split('|')` that leaves `\|` alone. */
function splitEscaped(text: string): string[] {
  const cells: string[] = [];
  let start = 0;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (char === '\\') index++;
    else if (char === '|') {
      cells.push(text.slice(start, index));
      start = index + 1;
    }
  }
  cells.push(text.slice(start));
  return cells;
}
