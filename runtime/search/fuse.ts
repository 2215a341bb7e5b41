/**
 * The one ranking behind QRY-002 (lexical at L1), QRY-003 (hybrid) and QRY-007 keyword hints:
 * exact + BM25F + kind intent (rank.ts), then graph proximity (expand.ts), fused into one score.
 *
 * Fusion: final = lexical + exact + semantic + graph, where graph is the score that flows from the
 * best base matches (lexical + exact + semantic) along typed edges. The reported score is
 * sqrt(final / best final): 1 for the best result, monotonic, and min_score 0.5 keeps results with at
 * least a quarter of the best fused evidence. Orama's hybrid weights are never used.
 *
 * Semantic (L2, only with a query vector): the {@link SEMANTIC_POOL} nodes whose best chunk is most
 * similar by cosine, min-max normalised over that pool to 0–1 (the best = 1, the pool's last = 0)
 * and weighted {@link SEMANTIC_WEIGHT} — the same scale as lexical (best BM25F = 1), below an exact
 * id hit (2). Raw cosines of one model cluster tightly (e5: 0.75–0.9), so they are spread first.
 */
import type { KddIndex } from '../kdd-index.js';
import { expandGraph, type Expansion } from './expand.js';
import { isImpactQuestion, subjectAnalysis } from './impact-intent.js';
import { analyzeQuery, lexicalScores, type QueryAnalysis } from './rank.js';
import { topNodes } from './semantic.js';

/** How many top lexical matches spread their score over the graph. */
const SEEDS = 8;
/** A lexical match seeds the expansion only if it has this share of the best base score. */
const SEED_SHARE = 0.3;
/** Below this share of the final score the graph contribution does not count as a match source. */
const SOURCE_SHARE = 0.1;
/** Nodes the semantic list contributes (best chunk per node). */
export const SEMANTIC_POOL = 50;
/** Weight of a normalised semantic score (1 = as much as the best lexical match). */
export const SEMANTIC_WEIGHT = 1;

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
  /** Walk agent-proposed `IMPLICIT_*` edges (L3, #9). Default true. */
  includeImplicit?: boolean;
  /** `query_text` embedded with the bundle's model; adds the semantic list when the index has vectors. */
  queryVector?: Float32Array | null;
  /**
   * Leave out the candidates whose score is below this (callers that stop at `min_score` anyway):
   * the kept ones are exactly the leading candidates of the full list, and only they are sorted.
   */
  minScore?: number;
  /** The query already analysed (the site adds completions of a word being typed); default: `analyzeQuery(queryText)`. */
  analysis?: QueryAnalysis;
}

export interface Fused {
  analysis: QueryAnalysis;
  candidates: FusedCandidate[];
  expansion: Expansion | null;
  /** Whether the semantic list took part (vectors + query vector). */
  semantic: boolean;
  /** Node → position in `bundle.chunks` of its best chunk by cosine, for the nodes of the semantic list (`why`). */
  semanticChunks: Map<number, number> | null;
}

export function fuse(index: KddIndex, queryText: string, options: FuseOptions): Fused {
  // A pre-analysed query (the site's prefix completion) is taken as given.
  const asked = options.analysis ?? analyzeQuery(queryText, (t) => index.text.docFrequency(t) > 0);
  // An impact question: rank by its subject, not by the words that frame it (impact-intent.ts).
  const analysis = isImpactQuestion(queryText, asked.terms) ? subjectAnalysis(asked) : asked;
  // Lexical base scores live in per-index scratch arrays (lex.total[node], lex.has(node)): no map.
  const lex = lexicalScores(index, analysis);
  const semanticList = semanticScores(index, options.queryVector);
  const semantic = semanticList?.scores ?? null;
  const lexOf = (node: number) => (lex.has(node) ? lex.total[node]! : 0);
  // Base = lexical + semantic: the lexical nodes, then the semantic-only ones.
  let baseNodes = lex.nodes;
  if (semantic) {
    baseNodes = [...lex.nodes];
    for (const node of semantic.keys()) if (!lex.has(node)) baseNodes.push(node);
  }
  const inBase = semantic ? (node: number) => lex.has(node) || semantic.has(node) : (node: number) => lex.has(node);
  const baseOf = semantic ? (node: number) => (semantic.has(node) ? lexOf(node) + semantic.get(node)! : lexOf(node)) : lexOf;
  // The SEEDS best base matches (score desc, node asc): a bounded insertion, not a full sort.
  const seedNodes: number[] = [];
  const seedScores: number[] = [];
  for (const node of baseNodes) {
    const score = baseOf(node);
    let i = seedNodes.length;
    while (i > 0 && (score > seedScores[i - 1]! || (score === seedScores[i - 1]! && node < seedNodes[i - 1]!))) i--;
    if (i >= SEEDS) continue;
    seedNodes.splice(i, 0, node);
    seedScores.splice(i, 0, score);
    if (seedNodes.length > SEEDS) seedNodes.pop(), seedScores.pop();
  }
  const top = seedScores[0] ?? 0;
  let expansion: Expansion | null = null;
  if (options.expandGraph && top > 0) {
    const seeds: { node: number; score: number }[] = [];
    for (let i = 0; i < seedNodes.length; i++) if (seedScores[i]! >= SEED_SHARE * top) seeds.push({ node: seedNodes[i]!, score: seedScores[i]! });
    expansion = expandGraph(index, seeds, options.depth, options.respectLayers, options.includeImplicit ?? true);
  }
  const graphScores = expansion?.scores;
  // The best fused score (the reported scores are relative to it).
  let best = 0;
  for (const node of baseNodes) {
    const r = lexOf(node) + (semantic?.get(node) ?? 0) + (graphScores?.get(node) ?? 0);
    if (r > best) best = r;
  }
  if (graphScores) for (const [node, graph] of graphScores) if (graph > best && !inBase(node)) best = graph;
  const minScore = options.minScore ?? -Infinity;
  const raw: RawScore[] = [];
  const keep = (node: number, lex: number, sem: number, graph: number) => {
    const r = lex + sem + graph;
    const score = best > 0 ? Math.round(Math.sqrt(r / best) * 1e4) / 1e4 : 0;
    if (score >= minScore) raw.push({ node, raw: r, score, lex, sem, graph });
  };
  for (const node of baseNodes) keep(node, lexOf(node), semantic?.get(node) ?? 0, graphScores?.get(node) ?? 0);
  if (graphScores) for (const [node, graph] of graphScores) if (!inBase(node)) keep(node, 0, 0, graph);
  raw.sort((a, b) => b.raw - a.raw || a.node - b.node);
  const candidates = raw.map((r) => ({ node: r.node, raw: r.raw, score: r.score, match_source: matchSource(r) }));
  return { analysis, candidates, expansion, semantic: semantic !== null, semanticChunks: semanticList?.chunks ?? null };
}

interface RawScore {
  node: number;
  raw: number;
  score: number;
  lex: number;
  sem: number;
  graph: number;
}

/**
 * Which evidence found a node: lexical when it matched the text at all, semantic / graph when they
 * bring at least {@link SOURCE_SHARE} of its final score; two or more sources = `fusion`. (At L1
 * this is the rule it always was: lexical, lexical + graph = fusion, graph only = graph.)
 */
function matchSource(r: { raw: number; lex: number; sem: number; graph: number }): MatchSource {
  const sources: MatchSource[] = [];
  if (r.lex > 0) sources.push('lexical');
  if (r.sem > 0 && r.sem >= SOURCE_SHARE * r.raw) sources.push('semantic');
  if (r.graph > 0 && r.graph >= SOURCE_SHARE * r.raw) sources.push('graph');
  if (sources.length > 1) return 'fusion';
  return sources[0] ?? (r.sem > r.graph ? 'semantic' : 'graph');
}

/**
 * Node → normalised semantic score (0–1 × weight) and node → its best chunk, or null when there is
 * no semantic phase.
 */
function semanticScores(index: KddIndex, vector: Float32Array | null | undefined): { scores: Map<number, number>; chunks: Map<number, number> } | null {
  if (!vector || !index.vectors) return null;
  const pool = topNodes(index, vector, SEMANTIC_POOL).filter((hit) => hit.cosine > 0);
  const scores = new Map<number, number>();
  const chunks = new Map<number, number>();
  if (pool.length === 0) return { scores, chunks };
  const bestCos = pool[0]!.cosine;
  const floor = pool.length > 1 ? pool.at(-1)!.cosine : 0;
  for (const hit of pool) {
    const share = bestCos > floor ? (hit.cosine - floor) / (bestCos - floor) : 1;
    if (share > 0) scores.set(hit.node, SEMANTIC_WEIGHT * share), chunks.set(hit.node, hit.chunk);
  }
  return { scores, chunks };
}
