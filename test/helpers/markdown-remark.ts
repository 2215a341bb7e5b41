/**
 * Reference implementation of `parseMarkdown` on unified + remark-parse + remark-gfm. Production
 * uses the hand-written scanner (scan-markdown.ts, ~50× faster); this one stays as the oracle the
 * differential tests compare it with, so it is imported by tests only (remark is a dev dependency).
 *
 * Markdown body → flat list of sections. Extractors look sections up by heading (the kind table
 * maps heading aliases to fields), so each section carries only its own content, up to the next
 * heading of any depth, already reduced to plain data: paragraphs, list items, tables, code blocks,
 * wiki-links and a plain-text rendering for search and embeddings. No AST leaves this module.
 */
import type { BlockContent, DefinitionContent, Heading, List, ListItem, Root, RootContent, Table as MdTable } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import type { CodeBlock, ParsedMarkdown, Section, Table, WikiLink } from '../../compiler/parse/types.js';
import { htmlText, inlineText, tidy, type InlineContext } from '../../compiler/parse/scan/plain-text.js';
import { shieldWikiLinks, type WikiLinkShield } from '../../compiler/parse/scan/wiki-shield.js';
import { uniqueLinks } from '../../compiler/parse/wiki-links.js';
import { MAX_LIST_INDENT } from '../../compiler/parse/scan-markdown.js';

// GFM is needed for tables (attribute, relation and event tables are most of an entity spec).
const processor = unified().use(remarkParse).use(remarkGfm).freeze();

/**
 * Parses a Markdown body (front-matter already removed: remark would read its `---` as a
 * thematic break). Never throws: any string is some Markdown.
 */
export function parseMarkdownWithRemark(body: string): ParsedMarkdown {
  const shield = shieldWikiLinks(body);
  const tree: Root = processor.parse(shield.text);

  const preamble = new SectionBuilder(null, -1, shield);
  const builders: SectionBuilder[] = [];
  let current = preamble;
  for (const node of tree.children) {
    if (node.type === 'heading') {
      current = new SectionBuilder(node, parentOf(builders, node.depth), shield);
      builders.push(current);
    } else {
      current.add(node);
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

type Block = RootContent | BlockContent | DefinitionContent;

/** Accumulates one section's content as its blocks arrive in document order. */
class SectionBuilder {
  private readonly blocks: string[] = [];
  private readonly paragraphs: string[] = [];
  private readonly listItems: string[] = [];
  private readonly tables: Table[] = [];
  private readonly code: CodeBlock[] = [];
  private readonly links: WikiLink[] = [];
  private readonly context: InlineContext;
  private readonly heading: string;
  readonly depth: number;

  /** `heading` null is the preamble. Links written in a heading count as links of its section. */
  constructor(
    heading: Heading | null,
    private readonly parent: number,
    private readonly shield: WikiLinkShield,
  ) {
    this.context = { shield, links: this.links };
    this.heading = heading ? tidy(inlineText(heading, this.context)) : '';
    this.depth = heading?.depth ?? 0;
  }

  add(node: Block): void {
    const text = this.read(node);
    if (text) this.blocks.push(text);
  }

  /** Records a block's paragraphs, items, tables and code; returns its plain text ('' if none). */
  private read(node: Block): string {
    switch (node.type) {
      case 'paragraph':
      case 'heading': {
        // A heading nested in a blockquote or list is not a section boundary: read it as a paragraph.
        const text = tidy(inlineText(node, this.context));
        if (text) this.paragraphs.push(text);
        return text;
      }
      case 'list':
        return this.readList(node, 0).join('\n');
      case 'table':
        return this.readTable(node);
      case 'code': {
        // Kept verbatim: a mermaid diagram or a YAML example is content an agent asks about.
        const value = this.shield.restoreVerbatim(node.value);
        this.code.push({ lang: node.lang ?? null, value });
        return value.trim() ? value : '';
      }
      case 'blockquote':
      case 'footnoteDefinition':
        return joinBlocks(node.children.map((child) => this.read(child)));
      case 'html':
        return tidy(htmlText(node.value, this.context));
      default:
        // thematicBreak, definition: nothing a reader would quote.
        return '';
    }
  }

  /** Records every item, nested ones included, and returns `- item` lines indented by nesting. */
  private readList(list: List, level: number): string[] {
    return list.children.flatMap((item) => this.readListItem(item, level));
  }

  private readListItem(item: ListItem, level: number): string[] {
    const indent = '  '.repeat(Math.min(level, MAX_LIST_INDENT));
    // The item's own words are its paragraphs; recorded before nested items to keep document order.
    const own = item.children
      .filter((child) => child.type === 'paragraph' || child.type === 'heading')
      .map((child) => tidy(inlineText(child, this.context)))
      .filter(Boolean)
      .join(' ');
    const lines: string[] = [];
    if (own) {
      this.listItems.push(own);
      lines.push(`${indent}- ${own.replace(/\n/g, `\n${indent}  `)}`);
    }
    for (const child of item.children) {
      if (child.type === 'list') lines.push(...this.readList(child, level + 1));
      else if (child.type !== 'paragraph' && child.type !== 'heading') {
        // Code, tables or quotes inside an item: recorded as usual, text indented under the item.
        const text = this.read(child);
        if (text) lines.push(...text.split('\n').map((line) => `${indent}  ${line}`));
      }
    }
    return lines;
  }

  /** Adds a table and returns its text: one `a | b | c` line per row, header row first. */
  private readTable(table: MdTable): string {
    const [head, ...body] = table.children.map((row) =>
      row.children.map((cell) => tidy(inlineText(cell, this.context)).replace(/\n/g, ' ')),
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
