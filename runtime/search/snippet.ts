/**
 * Snippets from the section that best matches the query: each section is scored by the inverse
 * document frequency of the query concepts it contains, defining sections winning ties, and the
 * snippet is a window of that section around its first matching word.
 */
import type { GraphNode } from '../model.js';
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

export function bestSnippet(node: GraphNode, groups: readonly (readonly TermAlternative[])[], text: TextIndex): Snippet {
  const weight = new Map<string, { group: number; w: number }>();
  groups.forEach((group, g) => {
    for (const alt of group) {
      const df = text.docFrequency(alt.term);
      if (df > 0) weight.set(alt.term, { group: g, w: alt.weight * Math.log(1 + text.size / df) });
    }
  });
  let best = -1;
  let bestScore = 0;
  const terms = sectionTerms(node);
  node.sections.forEach((section, i) => {
    const seen = new Map<number, number>();
    for (const t of terms[i]!) {
      const hit = weight.get(t);
      if (hit && hit.w > (seen.get(hit.group) ?? 0)) seen.set(hit.group, hit.w);
    }
    let score = 0;
    for (const w of seen.values()) score += w;
    if (section.field && PRIMARY_SECTIONS.has(section.field)) score *= 1.1;
    if (score > bestScore) (best = i), (bestScore = score);
  });
  const chosen = node.sections[best] ?? node.sections.find((s) => s.text.trim()) ?? null;
  if (!chosen) return { section: null, text: node.title };
  return { section: chosen.heading, text: window(chosen.text, best >= 0 ? weight : new Map()) };
}

// Section terms of recently returned nodes: agents ask about the same few nodes again and again.
// Keyed by the node object (never mutated); bounded, oldest first out.
const CACHE = new Map<GraphNode, string[][]>();
const CACHE_MAX = 2000;

function sectionTerms(node: GraphNode): string[][] {
  let terms = CACHE.get(node);
  if (!terms) {
    terms = node.sections.map((s) => [...new Set(quickTerms(`${s.heading}\n${s.text}`))]);
    if (CACHE.size >= CACHE_MAX) CACHE.delete(CACHE.keys().next().value!);
    CACHE.set(node, terms);
  }
  return terms;
}

function window(text: string, weight: ReadonlyMap<string, unknown>): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= SNIPPET_CHARS) return clean;
  let at = 0;
  for (const m of clean.matchAll(CHUNK)) {
    if (tokenize(m[0]).some((t) => weight.has(t))) {
      at = m.index ?? 0;
      break;
    }
  }
  // Start a little before the match, on a word boundary.
  let start = Math.max(0, at - 60);
  if (start > 0) start = clean.indexOf(' ', start) + 1 || start;
  const end = Math.min(clean.length, start + SNIPPET_CHARS);
  return (start > 0 ? '…' : '') + clean.slice(start, end).trim() + (end < clean.length ? '…' : '');
}
