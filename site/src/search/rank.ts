/**
 * The search page's ranking: QRY-002's lexical fusion (runtime/search/fuse.ts, no graph expansion,
 * since the sub-bundle carries no edges) with the same kind/layer filtering as
 * runtime/queries/search.ts, but answering node positions so the caller picks where the row text
 * comes from (doc chunks or the full bundle). Snippet highlighting lives here too.
 */
import type { KddIndex } from '../../../runtime/kdd-index.js';
import type { GraphNode } from '../../../model/graph.js';
import { fuse } from '../../../runtime/search/fuse.js';
import { describeWhy, explainNode, type Why } from '../../../runtime/search/explain.js';
import { analyzeQuery } from '../../../runtime/search/rank.js';
import { bestSnippet } from '../../../runtime/search/snippet.js';
import { tokenize } from '../../../runtime/search/tokenizer.js';
import type { TermAlternative } from '../../../runtime/search/types.js';
import type { SearchRequest, Segment } from '../protocol.js';
import { completeLastWord, type Vocabulary } from './prefix.js';

/** Looser than QRY-002's 0.7: a browsing user wants the tail too, ranked below. */
export const MIN_SCORE = 0.3;
export const DEFAULT_LIMIT = 20;
/** QRY-002 refuses shorter queries (QUERY_TOO_SHORT). */
export const MIN_QUERY = 3;

export interface Ranked {
  /** Each hit with why it ranked (runtime/search/explain.ts, as `--explain` gives it at the other doors). */
  hits: { node: number; score: number; why: Why }[];
  groups: TermAlternative[][];
}

/**
 * `vocabulary` lists the index terms a partial last word can grow into (search as you type,
 * prefix.ts); without it the query ranks exactly as QRY-002's lexical ranking.
 */
export function rank(index: KddIndex, request: SearchRequest, vocabulary?: Vocabulary): Ranked {
  const q = request.q.trim();
  if (q.length < MIN_QUERY) return { hits: [], groups: [] };
  const kinds = new Set(request.kinds ?? []);
  const layers = new Set(request.layers ?? []);
  const limit = request.limit ?? DEFAULT_LIMIT;
  const known = (t: string) => index.text.docFrequency(t) > 0;
  const analyzed = analyzeQuery(q, known);
  const analysis = vocabulary ? completeLastWord(q, analyzed, index.text, vocabulary) : analyzed;
  const fused = fuse(index, q, { expandGraph: false, depth: 1, respectLayers: true, analysis });
  const hits: Ranked['hits'] = [];
  for (const c of fused.candidates) {
    if (hits.length >= limit || c.score < MIN_SCORE) break;
    const node = index.bundle.nodes[c.node]!;
    if ((kinds.size > 0 && !kinds.has(node.kind)) || (layers.size > 0 && !layers.has(node.layer))) continue;
    hits.push({ node: c.node, score: c.score, why: explainNode(index, fused.analysis, null, c.node, false) });
  }
  return { hits, groups: fused.analysis.groups };
}

/** The runtime's snippet window for `node`, split into highlighted and plain runs. */
export function snippetOf(node: GraphNode, groups: readonly (readonly TermAlternative[])[], index: KddIndex): { section: string | null; segments: Segment[] } {
  const snippet = bestSnippet(node, groups, index.text);
  return { section: snippet.section, segments: highlight(snippet.text, groups) };
}

const WORD = /[\p{L}\p{N}]+(?:[-:_.][\p{L}\p{N}]+)*/gu;

/** Marks each word whose index terms meet the query's (stems and translations included). */
export function highlight(text: string, groups: readonly (readonly TermAlternative[])[]): Segment[] {
  const wanted = new Set(groups.flatMap((group) => group.map((alt) => alt.term)));
  const out: Segment[] = [];
  let at = 0;
  for (const m of text.matchAll(WORD)) {
    if (!tokenize(m[0]).some((t) => wanted.has(t))) continue;
    const start = m.index ?? 0;
    if (start > at) out.push([text.slice(at, start), false]);
    out.push([m[0], true]);
    at = start + m[0].length;
  }
  if (at < text.length) out.push([text.slice(at), false]);
  return out;
}

/** `why` as the search page shows it: the runtime's phrases, with each query stem spelled as typed. */
export function describeHit(why: Why, q: string): string[] {
  const typed = new Map<string, string>();
  for (const m of q.matchAll(WORD)) for (const term of tokenize(m[0])) if (!typed.has(term)) typed.set(term, m[0].toLowerCase());
  return describeWhy(why, (term) => typed.get(term) ?? term);
}
