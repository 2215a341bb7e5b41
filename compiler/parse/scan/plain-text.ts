/**
 * Inline Markdown → plain text. Syntax goes (emphasis, code-span backticks, link brackets and
 * URLs, HTML tags and comments); words stay, wiki-links stay as `[[...]]` because extraction and
 * the snippet renderer both need them.
 */
import type { Nodes } from 'mdast';
import type { WikiLink } from '../types.js';
import type { WikiLinkShield } from './wiki-shield.js';

const HTML_COMMENT = /<!--[\s\S]*?(?:-->|$)/g;
const HTML_TAG = /<\/?[A-Za-z][^>]*>/g;
/** `<br>` separates words (common inside table cells); other tags are dropped without a trace. */
const HTML_BREAK = /<br\s*\/?>/gi;
/** A soft line break inside a paragraph is a space to a reader; hard breaks stay newlines. */
const SOFT_BREAK = /[ \t]*\n[ \t]*/g;

export interface InlineContext {
  shield: WikiLinkShield;
  /** Collects the wiki-links met in prose; code spans never add to it. */
  links: WikiLink[];
}

/** Plain text of a node and its descendants, for paragraph, heading, list-item and cell content. */
export function inlineText(node: Nodes, context: InlineContext): string {
  switch (node.type) {
    case 'text':
      return context.shield.restoreText(node.value.replace(SOFT_BREAK, ' '), context.links);
    case 'inlineCode':
      // Code keeps what was typed: a `[[...]]` inside backticks documents the syntax, it links nothing.
      return context.shield.restoreVerbatim(node.value);
    case 'break':
      return '\n';
    case 'html':
      return htmlText(node.value, context);
    case 'image':
    case 'imageReference':
      return context.shield.restoreText(node.alt ?? '', context.links);
    case 'footnoteReference':
    case 'definition':
      return '';
    default:
      if ('children' in node) return node.children.map((child) => inlineText(child, context)).join('');
      if ('value' in node) return context.shield.restoreVerbatim(node.value);
      return '';
  }
}

/** What a reader sees of raw HTML: comments dropped, tags stripped, text kept. */
export function htmlText(html: string, context: InlineContext): string {
  const visible = html.replace(HTML_COMMENT, '').replace(HTML_BREAK, ' ').replace(HTML_TAG, '').replace(SOFT_BREAK, ' ');
  return context.shield.restoreText(visible, context.links);
}

/** Trims and folds runs of spaces left behind by removed syntax (`Title <!-- x -->` → `Title`). */
export function tidy(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').trim())
    .join('\n')
    .trim();
}
