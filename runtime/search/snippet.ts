/**
 * Snippets from the section that best matches the query: each section is scored by the inverse
 * document frequency of the query concepts it contains, defining sections winning ties, and the
 * snippet is a window of that section around its first matching word.
 *
 * Query time is kept small (this runs once per returned hit, thousands of times a day):
 * - the query's term weights are computed once per analysis (`groups` array), not once per hit;
 * - each node's section terms are tokenised once into a flat list of term ids per section, so a
 *   section is scored with one lookup per distinct term instead of a pass over its words;
 * - each chosen section's whitespace-collapsed text and the first chunk where every term occurs are
 *   kept, so the window needs no regex scan or re-tokenising on a repeat.
 * The results are exactly those of the straightforward algorithm (same section, same window, same
 * floating-point sums in the same order). Caches are keyed by objects that are never mutated.
 */
import type { GraphNode } from '../../model/graph.js';
import { PRIMARY_SECTIONS } from './fields.js';
import { quickTerms, tokenize } from './tokenizer.js';
import type { TermAlternative, TextIndex } from './types.js';

const CHUNK = /[\p{L}\p{N}]+(?:[-:_./][\p{L}\p{N}]+)*/gu;
export const SNIPPET_CHARS = 240;

export interface Snippet {
  /** Heading of the section the snippet comes from (null when the node has no sections). */
  section: string | null;
  text: string;
}

interface TermWeight {
  group: number;
  w: number;
}

// Term weights of one query analysis (the `groups` array of a QueryAnalysis), per text index.
const WEIGHTS = new WeakMap<object, { text: TextIndex; weight: Map<string, TermWeight> }>();

function termWeights(groups: readonly (readonly TermAlternative[])[], text: TextIndex): Map<string, TermWeight> {
  const cached = WEIGHTS.get(groups);
  if (cached && cached.text === text) return cached.weight;
  const weight = new Map<string, TermWeight>();
  groups.forEach((group, g) => {
    for (const alt of group) {
      const df = text.docFrequency(alt.term);
      if (df > 0) weight.set(alt.term, { group: g, w: alt.weight * Math.log(1 + text.size / df) });
    }
  });
  WEIGHTS.set(groups, { text, weight });
  return weight;
}

export function bestSnippet(node: GraphNode, groups: readonly (readonly TermAlternative[])[], text: TextIndex): Snippet {
  return snippetAndSections(node, groups, text, 0).snippet;
}

/**
 * The snippet, and the sections of the node that hold a query term, best first (the order the
 * snippet's section is picked by; ties by position), at most `max`, leaving out the section the
 * snippet already shows whole: the passages that answer the query beyond the snippet. One scoring
 * pass serves both.
 */
export function snippetAndSections(node: GraphNode, groups: readonly (readonly TermAlternative[])[], text: TextIndex, max: number): { snippet: Snippet; sections: number[] } {
  const weight = termWeights(groups, text);
  const data = nodeData(node);
  const scores = sectionScores(node, data, weight);
  const best = bestSection(scores);
  const chosen = node.sections[best] ?? node.sections.find((s) => s.text.trim()) ?? null;
  if (!chosen) return { snippet: { section: null, text: node.title }, sections: [] };
  const at = best >= 0 ? sectionWindow(data, best, chosen.text) : null;
  const snippet = { section: chosen.heading, text: at ? cut(at, weight) : window(chosen.text) };
  if (!scores || max <= 0) return { snippet, sections: [] };
  const order: number[] = [];
  for (let s = 0; s < scores.length; s++) {
    if (scores[s]! > 0 && node.sections[s]!.text.trim() && !(s === best && at!.clean === snippet.text)) order.push(s);
  }
  return { snippet, sections: order.sort((a, b) => scores[b]! - scores[a]! || a - b).slice(0, max) };
}

/** Index of the best-scoring section (-1 when none contains a query term); ties go to the first. */
function bestSection(scores: Float64Array | null): number {
  let best = -1;
  let bestScore = 0;
  if (scores) for (let s = 0; s < scores.length; s++) if (scores[s]! > bestScore) (best = s), (bestScore = scores[s]!);
  return best;
}

/**
 * Each section's score (0 without a query term; null when no section has one): the sum, over the
 * query groups it contains, of the group's best term weight — summed in the order the groups first
 * occur in the section's terms — times 1.1 for a defining section.
 */
function sectionScores(node: GraphNode, data: NodeData, weight: ReadonlyMap<string, TermWeight>): Float64Array | null {
  const sections = node.sections;
  const byId = new Map<number, TermWeight>();
  for (const [term, tw] of weight) {
    const id = TERM_IDS.get(term);
    if (id !== undefined) byId.set(id, tw);
  }
  // Per section: [group, first position, best weight] triples of the groups found.
  let found: (number[] | undefined)[] | undefined;
  const { ids, starts } = data;
  for (let section = 0; section < sections.length; section++) {
    for (let k = starts[section]!; k < starts[section + 1]!; k++) {
      const tw = byId.get(ids[k]!);
      if (!tw) continue;
      const pos = k - starts[section]!;
      found ??= new Array<number[] | undefined>(sections.length);
      let list = found[section];
      if (!list) found[section] = list = [];
      let i = 0;
      while (i < list.length && list[i] !== tw.group) i += 3;
      if (i === list.length) list.push(tw.group, pos, tw.w);
      else {
        if (pos < list[i + 1]!) list[i + 1] = pos;
        if (tw.w > list[i + 2]!) list[i + 2] = tw.w;
      }
    }
  }
  if (!found) return null;
  const scores = new Float64Array(sections.length);
  for (let s = 0; s < sections.length; s++) {
    const list = found[s];
    if (!list) continue;
    let score = 0;
    if (list.length === 3) score += list[2]!;
    else {
      const order: number[] = [];
      for (let i = 0; i < list.length; i += 3) order.push(i);
      order.sort((a, b) => list[a + 1]! - list[b + 1]!);
      for (const i of order) score += list[i + 2]!;
    }
    const field = sections[s]!.field;
    if (field && PRIMARY_SECTIONS.has(field)) score *= 1.1;
    scores[s] = score;
  }
  return scores;
}

/**
 * A section as a passage of at most `chars` characters: its whole text when it fits, otherwise the
 * window of its whitespace-collapsed text that starts near its first query word.
 */
export function sectionPassage(node: GraphNode, section: number, groups: readonly (readonly TermAlternative[])[], text: TextIndex, chars: number): string {
  const whole = node.sections[section]!.text.trim();
  if (whole.length <= chars) return whole;
  const data = nodeData(node);
  return cut(sectionWindow(data, section, node.sections[section]!.text), termWeights(groups, text), chars);
}

interface SectionWindow {
  /** The section text with whitespace runs collapsed, trimmed. */
  clean: string;
  /**
   * Term → start (in `clean`) of the first chunk whose tokens include it, for the chunks before
   * `scanned`; null when `clean` fits whole. Filled as far as queries needed it, never further.
   */
  first: Map<string, number> | null;
  scanned: number;
}

interface NodeData {
  /**
   * Each section's distinct terms in order of first occurrence, as {@link TERM_IDS} ids: section s
   * holds `ids[starts[s]..starts[s + 1])` (a position is an index in that range). One flat typed
   * array per node: what a cached node keeps costs the collector next to nothing to move or scan.
   */
  ids: Int32Array;
  starts: Int32Array;
  windows: (SectionWindow | undefined)[];
}

/** Every term met in a cached node's sections → a small number. */
const TERM_IDS = new Map<string, number>();
/** Past this many terms (a long-lived process over changing specs), numbering starts again with an empty cache. */
const TERM_IDS_MAX = 500_000;

function termId(term: string): number {
  let id = TERM_IDS.get(term);
  if (id === undefined) TERM_IDS.set(term, (id = TERM_IDS.size));
  return id;
}

// Section data of recently returned nodes: agents ask about the same few nodes again and again.
// Keyed by the node object (never mutated); bounded, oldest first out.
const CACHE = new Map<GraphNode, NodeData>();
const CACHE_MAX = 2000;

function nodeData(node: GraphNode): NodeData {
  let data = CACHE.get(node);
  if (!data) {
    if (TERM_IDS.size >= TERM_IDS_MAX) TERM_IDS.clear(), CACHE.clear();
    const ids: number[] = [];
    const starts = new Int32Array(node.sections.length + 1);
    node.sections.forEach((s, i) => {
      for (const t of new Set(quickTerms(`${s.heading}\n${s.text}`))) ids.push(termId(t));
      starts[i + 1] = ids.length;
    });
    data = { ids: Int32Array.from(ids), starts, windows: [] };
    if (CACHE.size >= CACHE_MAX) CACHE.delete(CACHE.keys().next().value!);
    CACHE.set(node, data);
  }
  return data;
}

function sectionWindow(data: NodeData, section: number, text: string): SectionWindow {
  let w = data.windows[section];
  if (!w) {
    const clean = collapse(text);
    data.windows[section] = w = { clean, first: clean.length > SNIPPET_CHARS ? new Map() : null, scanned: 0 };
  }
  return w;
}

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();
const SCAN = new RegExp(CHUNK.source, 'gu');

/**
 * The window of a section that starts near its first query word (or at its start). The first
 * chunk holding a query term is found among the chunks already scanned (a term met before
 * `scanned` is in `first`; one not met yet can only start later), else by scanning on from there.
 */
function cut(section: SectionWindow, weight: ReadonlyMap<string, unknown>, chars = SNIPPET_CHARS): string {
  const { clean, first } = section;
  if (!first || clean.length <= chars) return clean;
  let at = -1;
  for (const t of weight.keys()) {
    const p = first.get(t);
    if (p !== undefined && (at < 0 || p < at)) at = p;
  }
  if (at < 0 && section.scanned < clean.length) {
    SCAN.lastIndex = section.scanned;
    for (let m = SCAN.exec(clean); m !== null; m = SCAN.exec(clean)) {
      let hit = false;
      for (const t of tokenize(m[0])) {
        if (!first.has(t)) first.set(t, m.index);
        if (!hit && weight.has(t)) hit = true;
      }
      section.scanned = SCAN.lastIndex;
      if (hit) {
        at = m.index;
        break;
      }
    }
    if (at < 0) section.scanned = clean.length;
  }
  return around(clean, at < 0 ? 0 : at, chars);
}

/** A section with no query word: its start. */
function window(text: string): string {
  const clean = collapse(text);
  return clean.length <= SNIPPET_CHARS ? clean : around(clean, 0);
}

function around(clean: string, at: number, chars = SNIPPET_CHARS): string {
  // Start a little before the match, on a word boundary.
  let start = Math.max(0, at - 60);
  if (start > 0) start = clean.indexOf(' ', start) + 1 || start;
  const end = Math.min(clean.length, start + chars);
  return (start > 0 ? '…' : '') + clean.slice(start, end).trim() + (end < clean.length ? '…' : '');
}
