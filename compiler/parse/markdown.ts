/**
 * Markdown body → flat list of sections. Extractors look sections up by heading (the kind table
 * maps heading aliases to fields), so each section carries only its own content, up to the next
 * heading of any depth, already reduced to plain data: paragraphs, list items, tables, code blocks,
 * wiki-links and a plain-text rendering for search and embeddings. No AST leaves this module.
 *
 * The work is done by the hand-written scanner (scan-markdown.ts); test/helpers/markdown-remark.ts holds the
 * remark-based reference it is tested against.
 */
import type { ParsedMarkdown } from './types.js';
import { scanMarkdown } from './scan-markdown.js';

/** Parses a Markdown body (front-matter already removed). Never throws: any string is some Markdown. */
export function parseMarkdown(body: string): ParsedMarkdown {
  return scanMarkdown(body);
}
