/**
 * Hierarchical paragraph chunking (BR-EMBEDDING-001, entity Embedding).
 *
 * A node's `sections` (flat, in document order, each with its own body only) are cut into chunks:
 *  - a section body's blocks are separated by blank lines: paragraphs, lists (`- item` lines),
 *    tables (`a | b | c` rows), code;
 *  - a prose block under {@link MIN_WORDS} words is merged with the next one (a trailing short
 *    block joins the previous chunk) while the result stays under {@link MAX_CHARS};
 *  - a table is one chunk of its own (never merged with prose);
 *  - a block over {@link MAX_CHARS} is split at sentence boundaries (lists and tables at line
 *    boundaries; words, then characters, as last resorts).
 *
 * `text` (raw_text) is always a verbatim slice of the section text, and consecutive chunks of a
 * section are separated only by whitespace, so no word is lost. `context_text` (what is embedded) is
 * `[kind: doc_id] > [title] > [ancestor heading: summary] > … > [heading]`, a newline, then the
 * text (the title part is left out when it equals the doc id; a summary is the ancestor's first
 * sentence, ≤ 120 chars, when it has a body).
 *
 * `chunk_id` = `${node.id}#${section_path}:${chunk_index}` — derived from content structure only,
 * so it is stable across rebuilds and equal in {@link chunkNode} and {@link chunkAll}.
 *
 * Pure and isomorphic (no I/O): the runtime may use it too.
 */
import type { Kind, GraphNode, NodeSection } from '../../model/graph.js';
import { kindSpec } from '../../model/kinds.js';

export const MIN_WORDS = 20;
/** Every chunk's `text` is shorter than this many characters (UTF-16 code units). */
export const MAX_CHARS = 2000;
const SUMMARY_CHARS = 120;

export interface Chunk {
  /** `${node_id}#${section_path}:${chunk_index}`; unique within a node. */
  chunk_id: string;
  node_id: string;
  document_id: string;
  document_kind: Kind;
  /** Heading of the section as written ('' for text before the first heading). */
  section: string;
  /** Dotted slug path of the section (`flujo_principal.paso_3`), unique within the node. */
  section_path: string;
  /** Canonical field of the section (kind table), or null. */
  field: string | null;
  /** Zero-based index of the chunk within its section. */
  chunk_index: number;
  /** Zero-based order of the chunk in the list returned (document order). */
  position: number;
  /** raw_text: a verbatim slice of the section text, 1..MAX_CHARS-1 characters. */
  text: string;
  /** What is embedded: identity line, ancestor context, heading, text. */
  context_text: string;
  /** Whether BR-EMBEDDING-001 embeds this chunk (the section's field has `embed: true`). */
  embeddable: boolean;
  /** 'table' when the chunk is a table, else 'text'. */
  block: 'text' | 'table';
  /** Where `text` lives: `node.sections[section_index].text.slice(start, end) === text`. */
  section_index: number;
  start: number;
  end: number;
}

/** Chunks of the embeddable sections only (what L2 embeds), positions 0..n-1. */
export function chunkNode(node: GraphNode): Chunk[] {
  return renumber(chunkAll(node).filter((chunk) => chunk.embeddable));
}

/** Chunks of every section with text (RAG `chunks` at L1), positions 0..n-1; `embeddable` marks L2's. */
export function chunkAll(node: GraphNode): Chunk[] {
  const embedFields = new Set((kindSpec(node.kind)?.sections ?? []).filter((spec) => spec.embed).map((spec) => spec.field));
  const identity = `[${node.kind}: ${node.doc_id}]`;
  const paths = sectionPaths(node.sections);
  const chunks: Chunk[] = [];
  const stack: { depth: number; section: NodeSection }[] = [];
  node.sections.forEach((section, index) => {
    while (stack.length > 0 && stack.at(-1)!.depth >= section.depth) stack.pop();
    const ancestors = stack.map((entry) => entry.section);
    stack.push({ depth: section.depth, section });
    const pieces = splitSection(section.text);
    if (pieces.length === 0) return;
    // The document title is the root of every section path, unless it is itself a section with text.
    const title = node.title && node.title !== node.doc_id && !ancestors.some((ancestor) => ancestor.depth === 1) && section.depth !== 1 ? [`[${node.title}]`] : [];
    const header = [identity, ...title, ...ancestors.filter((ancestor) => ancestor.heading || ancestor.text.trim()).map(summaryLine), ...(section.heading ? [`[${section.heading}]`] : [])].join(' > ');
    const sectionPath = paths[index]!;
    pieces.forEach((piece, chunkIndex) => {
      chunks.push({
        chunk_id: `${node.id}#${sectionPath}:${chunkIndex}`,
        node_id: node.id,
        document_id: node.doc_id,
        document_kind: node.kind,
        section: section.heading,
        section_path: sectionPath,
        field: section.field,
        chunk_index: chunkIndex,
        position: 0,
        text: piece.text,
        context_text: `${header}\n${piece.text}`,
        embeddable: section.field !== null && embedFields.has(section.field),
        block: piece.table ? 'table' : 'text',
        section_index: index,
        start: piece.start,
        end: piece.end,
      });
    });
  });
  return renumber(chunks);
}

function renumber(chunks: Chunk[]): Chunk[] {
  return chunks.map((chunk, position) => ({ ...chunk, position }));
}

/** `[Heading: first sentence…]` for an ancestor with a body, `[Heading]` otherwise. */
function summaryLine(section: NodeSection): string {
  const firstBlock = section.text.trim().split(/\n\s*\n/)[0] ?? '';
  const firstSentence = (firstBlock.split(/(?<=[.!?])\s+/)[0] ?? '').replace(/\s+/g, ' ').trim();
  const summary = firstSentence.length > SUMMARY_CHARS ? `${firstSentence.slice(0, SUMMARY_CHARS).replace(/\s+\S*$/, '')}…` : firstSentence;
  const heading = section.heading || 'Preamble';
  return summary ? `[${heading}: ${summary}]` : `[${heading}]`;
}

// ── Section paths ──────────────────────────────────────────────────────────────────────────────

/** Accents folded, lower case, words joined by `separator` (`Flujo Principal` → `flujo_principal`). */
export function slug(text: string, separator: '_' | '-' = '_'): string {
  return (
    text
      .normalize('NFD')
      .replace(/\p{Mn}/gu, '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, separator)
      .replace(new RegExp(`^${separator}+|${separator}+$`, 'g'), '') || 'section'
  );
}

/** Dotted slug path per section (ancestors by depth), made unique with `~2`, `~3`… in document order. */
function sectionPaths(sections: readonly NodeSection[]): string[] {
  const seen = new Map<string, number>();
  const stack: { depth: number; path: string }[] = [];
  return sections.map((section) => {
    while (stack.length > 0 && stack.at(-1)!.depth >= section.depth) stack.pop();
    const own = section.depth === 0 ? '_preamble' : section.depth === 1 ? '_title' : slug(section.heading);
    const parent = stack.filter((entry) => entry.depth >= 2).at(-1)?.path;
    let path = section.depth >= 2 && parent ? `${parent}.${own}` : own;
    const count = (seen.get(path) ?? 0) + 1;
    seen.set(path, count);
    if (count > 1) path = `${path}~${count}`;
    stack.push({ depth: section.depth, path });
    return path;
  });
}

// ── Splitting a section body ─────────────────────────────────────────────────────────────────────

interface Span {
  start: number;
  end: number;
}
interface Piece extends Span {
  text: string;
  table: boolean;
}

const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;

/** Lines that look like table rows (`a | b`), every line of the block. */
function isTable(block: string): boolean {
  const lines = block.split('\n');
  return lines.length >= 2 && lines.every((line) => line.includes(' | ') || /^\s*\|/.test(line));
}

/** Blocks = maximal runs of text between blank lines, as spans of the section text (trimmed). */
function blocks(text: string): Span[] {
  const spans: Span[] = [];
  const separator = /\n[ \t]*\n\s*/g;
  let start = 0;
  const push = (from: number, to: number) => {
    const slice = text.slice(from, to);
    const lead = slice.length - slice.trimStart().length;
    const trail = slice.length - slice.trimEnd().length;
    if (from + lead < to - trail) spans.push({ start: from + lead, end: to - trail });
  };
  for (let match = separator.exec(text); match; match = separator.exec(text)) {
    push(start, match.index);
    start = match.index + match[0].length;
  }
  push(start, text.length);
  return spans;
}

function splitSection(text: string): Piece[] {
  const spans = blocks(text);
  const pieces: Span[][] = [];
  const tables = new Set<Span[]>();
  let run: Span | null = null;
  const flushRun = () => {
    if (run) pieces.push(splitLong(text, run));
    run = null;
  };
  for (const span of spans) {
    const block = text.slice(span.start, span.end);
    if (isTable(block)) {
      flushRun();
      const table = splitLong(text, span);
      tables.add(table);
      pieces.push(table);
      continue;
    }
    if (run && wordCount(text.slice(run.start, run.end)) < MIN_WORDS && span.end - run.start < MAX_CHARS) {
      run = { start: run.start, end: span.end };
    } else {
      flushRun();
      run = span;
    }
  }
  // A trailing short block joins the previous prose chunk when that keeps it under the limit.
  const lastRun = run as Span | null;
  if (lastRun && wordCount(text.slice(lastRun.start, lastRun.end)) < MIN_WORDS) {
    const previous = pieces.at(-1);
    const tail = previous?.at(-1);
    if (previous && tail && !tables.has(previous) && lastRun.end - tail.start < MAX_CHARS) {
      previous[previous.length - 1] = { start: tail.start, end: lastRun.end };
      run = null;
    }
  }
  flushRun();
  return pieces.flatMap((group) => group.map((span) => ({ ...span, text: text.slice(span.start, span.end), table: tables.has(group) })));
}

/**
 * Splits a span longer than MAX_CHARS-1 at the best boundary available: line breaks (lists,
 * tables), then sentence ends, then whitespace, then anywhere. Pieces are trimmed spans.
 */
function splitLong(text: string, span: Span): Span[] {
  if (span.end - span.start < MAX_CHARS) return [span];
  const block = text.slice(span.start, span.end);
  // Tables and lists break between rows/items; prose between sentences.
  const lineFirst = isTable(block) || /^\s*[-*] /m.test(block);
  const out: Span[] = [];
  let start = span.start;
  while (span.end - start >= MAX_CHARS) {
    const window = text.slice(start, start + MAX_CHARS - 1);
    const lines = lineFirst ? lastBoundary(window, /\n/g) : null;
    let cut = lines ?? lastBoundary(window, /(?<=[.!?;:…])\s+/g) ?? lastBoundary(window, /\s+/g) ?? window.length;
    // Never cut a surrogate pair in two.
    if (cut === window.length && /[\uD800-\uDBFF]/.test(window[cut - 1]!)) cut--;
    const end = start + cut;
    const piece = trimSpan(text, { start, end });
    if (piece) out.push(piece);
    start = end;
    while (start < span.end && /\s/.test(text[start]!)) start++;
  }
  const rest = trimSpan(text, { start, end: span.end });
  if (rest) out.push(rest);
  return out;
}

/** Offset (> 0) of the last boundary match in `window` leaving a non-empty first part, or null. */
function lastBoundary(window: string, pattern: RegExp): number | null {
  let best: number | null = null;
  for (let match = pattern.exec(window); match; match = pattern.exec(window)) {
    if (match.index > 0 && window.slice(0, match.index).trim()) best = match.index;
    if (match[0].length === 0) pattern.lastIndex++;
  }
  return best;
}

function trimSpan(text: string, span: Span): Span | null {
  let { start, end } = span;
  while (start < end && /\s/.test(text[start]!)) start++;
  while (end > start && /\s/.test(text[end - 1]!)) end--;
  return start < end ? { start, end } : null;
}
