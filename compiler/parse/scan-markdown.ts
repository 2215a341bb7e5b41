/**
 * Markdown body → `ParsedMarkdown`, by hand: a line-oriented block scanner (scan/blocks.ts) and an
 * inline renderer straight to plain text (scan/inline.ts), with no syntax tree in between.
 *
 * Why not remark: unified + remark-gfm reads about 0.4 MB/s, and a 10k-spec build must parse
 * ~60 MB in seconds. This scanner gives the same `ParsedMarkdown` as the remark reference
 * (test/helpers/markdown-remark.ts, kept for the differential tests) on the Markdown that specs are made of.
 *
 * Deliberate differences from remark, all on constructs specs do not use:
 * - GFM footnotes (`[^1]` and `[^1]: text`) are read as ordinary text;
 * - named character references other than the common few in scan/inline.ts stay as typed
 *   (`&alpha;` is not decoded; numeric ones such as `&#945;` are);
 * - GFM bare autolinks (`www.x.com`, `https://x.com`) are plain text: their text is the same,
 *   only emphasis markers inside a URL (`https://x.com/*a*`) would be read differently;
 * - the link reference definition and link destination grammars are the common forms, not every
 *   corner of CommonMark (no nested brackets in labels, no multi-line titles with blank lines).
 */
import type { CodeBlock, ParsedMarkdown, Section, Table, WikiLink } from './types.js';
import { htmlText, tidy } from './scan/plain-text.js';
import { scanBlocks, type BlockNode } from './scan/blocks.js';
import { hasToken, normalizeLabel, renderInline, type InlineScope } from './scan/inline.js';
import { shieldWikiLinks, type WikiLinkShield } from './scan/wiki-shield.js';
import { uniqueLinks } from './wiki-links.js';

/** Same contract as `parseMarkdown`: front-matter already removed, never throws. */
export function scanMarkdown(body: string): ParsedMarkdown {
  // Wiki-links are shielded exactly as for remark, so both read the same text.
  const shield = shieldWikiLinks(body);
  const { document, definitions } = scanBlocks(shield.text);
  const labels = new Set(definitions.map(normalizeLabel));

  const preamble = new SectionBuilder(null, -1, shield, labels);
  const builders: SectionBuilder[] = [];
  let current = preamble;
  for (const block of document.children) {
    if (block.kind === 'heading') {
      current = new SectionBuilder(block, parentOf(builders, block.depth), shield, labels);
      builders.push(current);
    } else {
      current.add(block);
    }
  }

  const sections = builders.map((builder) => builder.build());
  const title = sections.find((section) => section.depth === 1)?.heading ?? null;
  return { title, preamble: preamble.build(), sections };
}

function joinBlocks(texts: readonly string[]): string {
  return texts.filter(Boolean).join('\n\n');
}

/** Index of the nearest earlier heading shallower than `depth`, or -1. */
function parentOf(builders: readonly SectionBuilder[], depth: number): number {
  for (let index = builders.length - 1; index >= 0; index--) {
    if (builders[index]!.depth < depth) return index;
  }
  return -1;
}

/**
 * Nesting levels a list item's text is indented by, at most: deeper items line up with the last
 * level, so a 3,000-level list does not become 9 million spaces of section text.
 */
export const MAX_LIST_INDENT = 16;

/** A GFM task-list checkbox opening an item's first paragraph; remark-gfm drops it from the text. */
const TASK_CHECKBOX = /^\[[ xX]\][ \t]+(?=\S)/;

/** Accumulates one section's content as its blocks arrive in document order (mirrors test/helpers/markdown-remark.ts). */
class SectionBuilder {
  private readonly blocks: string[] = [];
  private readonly paragraphs: string[] = [];
  private readonly listItems: string[] = [];
  private readonly tables: Table[] = [];
  private readonly code: CodeBlock[] = [];
  private readonly links: WikiLink[] = [];
  private readonly scope: InlineScope;
  private readonly heading: string;
  readonly depth: number;

  /** `heading` null is the preamble. Links written in a heading count as links of its section. */
  constructor(
    heading: BlockNode | null,
    private readonly parent: number,
    private readonly shield: WikiLinkShield,
    definitions: ReadonlySet<string>,
  ) {
    this.scope = { shield, links: this.links, definitions };
    this.heading = heading ? this.inline(heading) : '';
    this.depth = heading?.depth ?? 0;
  }

  add(block: BlockNode): void {
    const text = this.read(block);
    if (text) this.blocks.push(text);
  }

  private inline(block: BlockNode, source = block.lines.join('\n')): string {
    return tidyText(renderInline(source.trimEnd(), this.scope));
  }

  /** Records a block's paragraphs, items, tables and code; returns its plain text ('' if none). */
  private read(block: BlockNode): string {
    switch (block.kind) {
      case 'paragraph':
      case 'heading': {
        // A heading nested in a blockquote or list is not a section boundary: read it as a paragraph.
        const text = this.inline(block);
        if (text) this.paragraphs.push(text);
        return text;
      }
      case 'list':
        return this.readList(block, 0).join('\n');
      case 'table':
        return this.readTable(block);
      case 'code': {
        // Kept verbatim: a mermaid diagram or a YAML example is content an agent asks about.
        const raw = block.lines.join('\n');
        const value = hasToken(raw) ? this.shield.restoreVerbatim(raw) : raw;
        this.code.push({ lang: block.lang, value });
        return value.trim() ? value : '';
      }
      case 'quote':
        return this.readQuote(block);
      case 'html':
        return tidy(htmlText(block.lines.join('\n'), this.scope));
      default:
        return ''; // thematic break
    }
  }

  /**
   * A quote's text: its blocks' texts, those of nested quotes in line (joining is associative).
   * Walked with a stack, not recursion: `>>>>…` 5,000 levels deep must not exhaust the call stack.
   */
  private readQuote(quote: BlockNode): string {
    const texts: string[] = [];
    const pending: BlockNode[] = [...quote.children].reverse();
    for (let block = pending.pop(); block; block = pending.pop()) {
      if (block.kind === 'quote') pending.push(...[...block.children].reverse());
      else texts.push(this.read(block));
    }
    return joinBlocks(texts);
  }

  /**
   * Records every item, nested ones included, in document order, and returns `- item` lines
   * indented by nesting (at most {@link MAX_LIST_INDENT} levels deep). Walked with a stack, not
   * recursion: a list nested 3,000 levels deep (`- - - … x`) must not exhaust the call stack.
   */
  private readList(list: BlockNode, level: number): string[] {
    const lines: string[] = [];
    type Step = { item: BlockNode; level: number } | { block: BlockNode; level: number };
    const pending: Step[] = list.children.map((item) => ({ item, level })).reverse();
    for (let step = pending.pop(); step; step = pending.pop()) {
      const indent = '  '.repeat(Math.min(step.level, MAX_LIST_INDENT));
      if ('block' in step) {
        // Code, tables or quotes inside an item: recorded as usual, text indented under the item.
        const text = this.read(step.block);
        if (text) lines.push(...text.split('\n').map((line) => `${indent}  ${line}`));
        continue;
      }
      const { item } = step;
      const own = this.itemWords(item);
      if (own) {
        this.listItems.push(own);
        lines.push(`${indent}- ${own.replace(/\n/g, `\n${indent}  `)}`);
      }
      const next: Step[] = [];
      for (const child of item.children) {
        if (child.kind === 'list') next.push(...child.children.map((nested) => ({ item: nested, level: step.level + 1 })));
        else if (!isProse(child)) next.push({ block: child, level: step.level });
      }
      pending.push(...next.reverse());
    }
    return lines;
  }

  /** An item's own words: its paragraphs, recorded before nested items to keep document order. */
  private itemWords(item: BlockNode): string {
    return item.children
      .filter(isProse)
      .map((child, index) => {
        const source = child.lines.join('\n');
        const first = index === 0 && child === item.children[0] && child.kind === 'paragraph';
        return this.inline(child, first ? source.replace(TASK_CHECKBOX, '') : source);
      })
      .filter(Boolean)
      .join(' ');
  }

  /** Adds a table and returns its text: one `a | b | c` line per row, header row first. */
  private readTable(table: BlockNode): string {
    const [head, ...body] = table.rows.map((row) =>
      row.map((cell) => tidyText(renderInline(cell, this.scope, true)).replace(/\n/g, ' ')),
    );
    this.tables.push({ headers: head ?? [], rows: body });
    return [head ?? [], ...body].map((cells) => cells.join(' | ')).join('\n');
  }

  build(): Section {
    return {
      heading: this.heading,
      depth: this.depth,
      parent: this.parent,
      text: joinBlocks(this.blocks),
      paragraphs: this.paragraphs,
      listItems: this.listItems,
      tables: this.tables,
      code: this.code,
      links: uniqueLinks(this.links),
    };
  }
}

/** `tidy`, skipping the work when nothing would change: one line, single spaces, no outer whitespace. */
function tidyText(text: string): string {
  if (text === '') return text;
  const untidy =
    /\s/.test(text[0]!) || /\s/.test(text[text.length - 1]!) || text.includes('\n') || text.includes('\t') || text.includes('  ');
  return untidy ? tidy(text) : text;
}

function isProse(block: BlockNode): boolean {
  return block.kind === 'paragraph' || block.kind === 'heading';
}
