/**
 * The one ranking behind QRY-002 (lexical at L1), QRY-003 (hybrid) and QRY-007 keyword hints:
 * exact + BM25F + kind intent (rank.ts), then graph proximity (expand.ts), fused into one score.
 *
 * Fusion at L1 (no embeddings yet): final = lexical + exact + graph, where graph is the score that
 * flows from the best lexical matches along typed edges. The reported score is
 * sqrt(final / best final): 1 for the best result, monotonic, and min_score 0.5 keeps results with at
 * least a quarter of the best fused evidence. When embeddings arrive, the semantic list joins `final`
 * here with its own weight; Orama's hybrid weights are never used.
 */
import type { KddIndex } from '../kdd-index.js';
import { expandGraph, type Expansion } from './expand.js';
import { analyzeQuery, rankLexical, type QueryAnalysis } from './rank.js';

/** How many top lexical matches spread their score over the graph. */
const SEEDS = 8;
/** A lexical match seeds the expansion only if it has this share of the best base score. */
const SEED_SHARE = 0.3;
/** Below this share of the final score the graph contribution does not count as a match source. */
const SOURCE_SHARE = 0.1;

export type MatchSource = 'lexical' | 'semantic' | 'graph' | 'fusion';

export interface FusedCandidate {
  node: number;
  /** Relative score in 0–1 (1 = best), rounded to 4 decimals. */
  score: number;
  /** Unrounded fused evidence (for ties and debugging). */
  raw: number;
  match_source: MatchSource;
}

export interface FuseOptions {
  expandGraph: boolean;
  depth: number;
  respectLayers: boolean;
}

export interface Fused {
  analysis: QueryAnalysis;
  candidates: FusedCandidate[];
  expansion: Expansion | null;
}

export function fuse(index: KddIndex, queryText: string, options: FuseOptions): Fused {
  const analysis = analyzeQuery(queryText, (t) => index.text.docFrequency(t) > 0);
  const lexical = rankLexical(index, analysis);
  const base = new Map<number, number>();
  for (const c of lexical) base.set(c.node, c.lexical + c.exact);
  const top = lexical.length > 0 ? lexical[0]!.lexical + lexical[0]!.exact : 0;
  let expansion: Expansion | null = null;
  if (options.expandGraph && top > 0) {
    const seeds = lexical
      .slice(0, SEEDS)
      .filter((c) => c.lexical + c.exact >= SEED_SHARE * top)
      .map((c) => ({ node: c.node, score: c.lexical + c.exact }));
    expansion = expandGraph(index, seeds, options.depth, options.respectLayers);
  }
  const nodes = new Set<number>([...base.keys(), ...(expansion?.scores.keys() ?? [])]);
  const raw: { node: number; raw: number; lex: number; graph: number }[] = [];
  for (const node of nodes) {
    const lex = base.get(node) ?? 0;
    const graph = expansion?.scores.get(node) ?? 0;
    raw.push({ node, raw: lex + graph, lex, graph });
  }
  raw.sort((a, b) => b.raw - a.raw || a.node - b.node);
  const best = raw[0]?.raw ?? 0;
  const candidates = raw.map((r) => ({
    node: r.node,
    raw: r.raw,
    score: best > 0 ? Math.round(Math.sqrt(r.raw / best) * 1e4) / 1e4 : 0,
    match_source: (r.lex === 0 ? 'graph' : r.graph >= SOURCE_SHARE * r.raw ? 'fusion' : 'lexical') as MatchSource,
  }));
  return { analysis, candidates, expansion };
}
