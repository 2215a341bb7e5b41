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
  const spans = chunkSpans(node);
  const headers = contextHeaders(node, new Set(spans.map((span) => span.section_index)));
  return spans.map((span) => {
    const section = node.sections[span.section_index]!;
    const text = section.text.slice(span.start, span.end);
    return {
      chunk_id: span.chunk_id,
      node_id: node.id,
      document_id: node.doc_id,
      document_kind: node.kind,
      section: section.heading,
      section_path: span.section_path,
      field: section.field,
      chunk_index: span.chunk_index,
      position: span.position,
      text,
      context_text: `${headers.get(span.section_index)!}\n${text}`,
      embeddable: span.embeddable,
      block: span.block,
      section_index: span.section_index,
      start: span.start,
      end: span.end,
    };
  });
}

/** Where a chunk lies and what identifies it: a {@link Chunk} without its texts. */
export type ChunkSpan = Pick<Chunk, 'chunk_id' | 'section_path' | 'chunk_index' | 'position' | 'embeddable' | 'block' | 'section_index' | 'start' | 'end'>;

/**
 * The chunks of {@link chunkAll} as spans only: what the pack stores (ids, places, the embeddable
 * flag), without cutting out each chunk's text or building its context line.
 */
export function chunkSpans(node: GraphNode): ChunkSpan[] {
  const embedFields = new Set((kindSpec(node.kind)?.sections ?? []).filter((spec) => spec.embed).map((spec) => spec.field));
  const paths = sectionPaths(node.sections);
  const spans: ChunkSpan[] = [];
  node.sections.forEach((section, index) => {
    const sectionPath = paths[index]!;
    const embeddable = section.field !== null && embedFields.has(section.field);
    splitSection(section.text).forEach((piece, chunkIndex) => {
      spans.push({
        chunk_id: `${node.id}#${sectionPath}:${chunkIndex}`,
        section_path: sectionPath,
        chunk_index: chunkIndex,
        position: spans.length,
        embeddable,
        block: piece.table ? 'table' : 'text',
        section_index: index,
        start: piece.start,
        end: piece.end,
      });
    });
  });
  return spans;
}

/**
 * The context header of each section in `wanted`: `[kind: doc_id] > [title] > [ancestor: summary]
 * > … > [heading]`. The document title is the root of every section path, unless it is itself a
 * section with text.
 */
function contextHeaders(node: GraphNode, wanted: ReadonlySet<number>): Map<number, string> {
  const identity = `[${node.kind}: ${node.doc_id}]`;
  const headers = new Map<number, string>();
  const stack: { depth: number; section: NodeSection }[] = [];
  node.sections.forEach((section, index) => {
    while (stack.length > 0 && stack.at(-1)!.depth >= section.depth) stack.pop();
    const ancestors = stack.map((entry) => entry.section);
    stack.push({ depth: section.depth, section });
    if (!wanted.has(index)) return;
    const title = node.title && node.title !== node.doc_id && !ancestors.some((ancestor) => ancestor.depth === 1) && section.depth !== 1 ? [`[${node.title}]`] : [];
    headers.set(index, [identity, ...title, ...ancestors.filter((ancestor) => ancestor.heading || ancestor.text.trim()).map(summaryLine), ...(section.heading ? [`[${section.heading}]`] : [])].join(' > '));
  });
  return headers;
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

// A tree's headings repeat (every entity has its `Descripción`): the pack slugs each distinct one
// once. Bounded so a long-lived process does not grow without limit.
const HEADING_SLUGS = new Map<string, string>();
const HEADING_SLUGS_MAX = 50_000;

function headingSlug(heading: string): string {
  let known = HEADING_SLUGS.get(heading);
  if (known === undefined) {
    if (HEADING_SLUGS.size >= HEADING_SLUGS_MAX) HEADING_SLUGS.clear();
    HEADING_SLUGS.set(heading, (known = slug(heading)));
  }
  return known;
}

/** Dotted slug path per section (ancestors by depth), made unique with `~2`, `~3`… in document order. */
function sectionPaths(sections: readonly NodeSection[]): string[] {
  const seen = new Map<string, number>();
  const stack: { depth: number; path: string }[] = [];
  return sections.map((section) => {
    while (stack.length > 0 && stack.at(-1)!.depth >= section.depth) stack.pop();
    const own = section.depth === 0 ? '_preamble' : section.depth === 1 ? '_title' : headingSlug(section.heading);
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
  table: boolean;
}

// The chunker reads every character of a tree's sections once per build: the tests below scan the
// section text in place instead of cutting blocks, lines and words out of it.

/** Per UTF-16 code unit: 1 = whitespace as `\s` and `trim` see it, 2 = not, 0 = not looked at yet. */
const UNIT_SPACE = new Uint8Array(0x10000);

function isSpace(unit: number): boolean {
  let known = UNIT_SPACE[unit]!;
  if (known === 0) UNIT_SPACE[unit] = known = /\s/.test(String.fromCharCode(unit)) ? 1 : 2;
  return known === 1;
}

/** Whether `text[start, end)` holds fewer than `limit` words (runs of non-whitespace). */
function fewerWords(text: string, start: number, end: number, limit: number): boolean {
  let words = 0;
  let inWord = false;
  for (let i = start; i < end; i++) {
    const space = isSpace(text.charCodeAt(i));
    if (!space && !inWord && ++words >= limit) return false;
    inWord = !space;
  }
  return true;
}

/** Whether every line of `text[start, end)` looks like a table row (`a | b`, or `|` first), two lines at least. */
function isTable(text: string, start: number, end: number): boolean {
  let lines = 0;
  for (let lineStart = start; ; ) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0 || lineEnd > end) lineEnd = end;
    const bar = text.indexOf(' | ', lineStart);
    if (!(bar >= 0 && bar + 3 <= lineEnd)) {
      let i = lineStart;
      while (i < lineEnd && isSpace(text.charCodeAt(i))) i++;
      if (i === lineEnd || text.charCodeAt(i) !== 0x7c) return false;
    }
    lines++;
    if (lineEnd >= end) return lines >= 2;
    lineStart = lineEnd + 1;
  }
}

/** `{ start, end }` without leading and trailing whitespace, or null when nothing is left. */
function trimSpan(text: string, span: Span): Span | null {
  let { start, end } = span;
  while (start < end && isSpace(text.charCodeAt(start))) start++;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
  return start < end ? { start, end } : null;
}

/** Blocks = maximal runs of text between blank lines, as spans of the section text (trimmed). */
function blocks(text: string): Span[] {
  const spans: Span[] = [];
  const separator = /\n[ \t]*\n\s*/g;
  let start = 0;
  const push = (from: number, to: number) => {
    const span = trimSpan(text, { start: from, end: to });
    if (span) spans.push(span);
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
    if (isTable(text, span.start, span.end)) {
      flushRun();
      const table = splitLong(text, span);
      tables.add(table);
      pieces.push(table);
      continue;
    }
    if (run && fewerWords(text, run.start, run.end, MIN_WORDS) && span.end - run.start < MAX_CHARS) {
      run = { start: run.start, end: span.end };
    } else {
      flushRun();
      run = span;
    }
  }
  // A trailing short block joins the previous prose chunk when that keeps it under the limit.
  const lastRun = run as Span | null;
  if (lastRun && fewerWords(text, lastRun.start, lastRun.end, MIN_WORDS)) {
    const previous = pieces.at(-1);
    const tail = previous?.at(-1);
    if (previous && tail && !tables.has(previous) && lastRun.end - tail.start < MAX_CHARS) {
      previous[previous.length - 1] = { start: tail.start, end: lastRun.end };
      run = null;
    }
  }
  flushRun();
  return pieces.flatMap((group) => group.map((span) => ({ ...span, table: tables.has(group) })));
}

/**
 * Splits a span longer than MAX_CHARS-1 at the best boundary available: line breaks (lists,
 * tables), then sentence ends, then whitespace, then anywhere. Pieces are trimmed spans.
 */
function splitLong(text: string, span: Span): Span[] {
  if (span.end - span.start < MAX_CHARS) return [span];
  // Tables and lists break between rows/items; prose between sentences.
  const lineFirst = isTable(text, span.start, span.end) || /^\s*[-*] /m.test(text.slice(span.start, span.end));
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
    while (start < span.end && isSpace(text.charCodeAt(start))) start++;
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
