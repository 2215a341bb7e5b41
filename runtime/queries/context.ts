/**
 * QRY-003 RetrieveHybrid — the main entry point for agents (`POST /v1/retrieve/context`).
 *
 * Lexical (exact ids, BM25F, bilingual vocabulary, kind intent) + graph expansion, fused into one
 * ranking (runtime/search/fuse.ts). With L2 vectors and a precomputed `query_vector` (the library
 * facade embeds the text; the runtime never loads a model) the semantic list joins the fusion and
 * `retrieval_strategy` is `semantic+lexical+graph`. Otherwise (L1, or no vector: browser, model not
 * pulled) the answer says so with a `NO_EMBEDDINGS` warning and `retrieval_strategy: 'lexical+graph'`
 * (UC-004 FA-1).
 *
 * respect_layers (UC-004 FA-3): layer-violating edges are never walked, so no result is reached
 * through one and `graph_expansion` holds none; the violating edges met are listed in
 * `layer_violations`. Nodes that match the query text themselves are kept.
 */
import { warning, type KddWarning } from '../../model/errors.js';
import { isAgentEdge } from '../../model/enrichment.js';
import { compareBySpecificity } from '../../model/edges.js';
import { implicitMark } from './answer-shapes.js';
import type { KddIndex } from '../kdd-index.js';
import { type GraphEdge, type GraphNode, type Kind, type Layer, type LayerViolation } from '../../model/graph.js';
import { fuse, type FusedCandidate, type MatchSource } from '../search/fuse.js';
import { isImpactQuestion } from '../search/impact-intent.js';
import { explainNode, type Why } from '../search/explain.js';
import { sectionPassage, snippetAndSections } from '../search/snippet.js';
import { queryVectorParam } from '../search/semantic.js';
import { createBudget, take, tokensOfLength, type TokenBudget } from '../tokens.js';
import { boolParam, intParam, numberParam, requireIndex, stringListParam, stringParam, type RawParams } from '../validate.js';
import type { ParamsSpec } from '../param-spec.js';
import { depthParam, explainParam, includeImplicitParam, kindsParam, layersParam, limitParam, queryTextParam, respectLayersParam } from './_params.js';

export interface ContextParams {
  /** Natural-language query, at least 3 characters. */
  query_text: string;
  /** Spread relevance along graph edges. Default true. */
  expand_graph?: boolean;
  /** Graph expansion depth, 1–5. Default 2. */
  depth?: number;
  include_kinds?: Kind[];
  include_layers?: Layer[];
  /** Never walk layer-violating edges (BR-LAYER-001). Default true. */
  respect_layers?: boolean;
  /** Walk the `IMPLICIT_*` edges an agent proposed (L3 enrichment, #9). Default true. */
  include_implicit?: boolean;
  /** Minimum fused score, 0–1 (1 = the best result). Default 0.5. */
  min_score?: number;
  /** 1–100. Default 10. */
  limit?: number;
  /** Token budget of the results. Default 8000. */
  max_tokens?: number;
  /** `query_text` embedded with the bundle's model (`bundle.vectors.model`); adds the semantic list. */
  query_vector?: Float32Array | number[];
  /** Add `why` to each result (matched terms and fields, expansions, graph path). Default false. */
  explain?: boolean;
}

export interface ContextHit {
  node_id: string;
  kind: Kind;
  layer: Layer;
  title: string;
  score: number;
  match_source: MatchSource;
  /** Heading of the section the snippet was taken from. */
  section: string | null;
  snippet: string;
  source_file: string;
  /**
   * The sections that answer the query (those holding its words, best first), beyond what the
   * snippet already shows: at most {@link MAX_PASSAGES}, fewer for lower-ranked results; omitted
   * when none fitted.
   */
  passages?: Passage[];
  /** Present when some of those passages did not fit the token budget. */
  truncated?: true;
  /** Estimated tokens of this entry. */
  tokens: number;
  /** Why it ranked (only with `explain: true`; counted in `tokens`). */
  why?: Why;
}

/** A section of a result: its heading and its text (whole, or the window around the query's first word). */
export interface Passage {
  section: string;
  text: string;
}

export interface ExpansionEdge {
  from_node: string;
  to_node: string;
  edge_type: string;
  /** True on an agent's implicit relation (absent otherwise). */
  implicit?: true;
  confidence?: number;
}

export interface ContextResult {
  strategy: 'hybrid';
  /** What actually ran: `lexical+graph` at L1, `lexical` without expansion, `semantic+…` with a query vector at L2. */
  retrieval_strategy: 'semantic+lexical+graph' | 'semantic+lexical' | 'lexical+graph' | 'lexical';
  results: ContextHit[];
  graph_expansion: ExpansionEdge[];
  layer_violations: LayerViolation[];
  total_results: number;
  total_nodes: number;
  total_tokens: number;
  /** True when the budget left something out (a result or a passage); a `TOKEN_LIMIT_EXCEEDED` warning says so too. */
  truncated: boolean;
  warnings: KddWarning[];
}

export const CONTEXT_DEFAULTS = { expand_graph: true, depth: 2, respect_layers: true, min_score: 0.5, limit: 10, max_tokens: 8000 } as const;

/** QRY-003's parameters (validated below with these very objects; docs/queries.md). */
export const CONTEXT_PARAMS = {
  query_text: queryTextParam,
  include_kinds: kindsParam,
  include_layers: layersParam,
  expand_graph: { type: 'boolean', default: CONTEXT_DEFAULTS.expand_graph, description: 'Spread relevance along graph edges to related specs.', cli: { flag: 'no-expand', negate: true } },
  depth: depthParam(5, CONTEXT_DEFAULTS.depth, 'Graph expansion depth (hops).'),
  respect_layers: respectLayersParam,
  include_implicit: includeImplicitParam,
  min_score: { type: 'number', min: 0, max: 1, default: CONTEXT_DEFAULTS.min_score, code: 'INVALID_SCORE_RANGE', description: 'Minimum relative score (1 = the best hit); lower it to see more.' },
  limit: { ...limitParam, default: CONTEXT_DEFAULTS.limit },
  max_tokens: { type: 'integer', min: 1, default: CONTEXT_DEFAULTS.max_tokens, description: 'Token budget of the answer; results that do not fit are cut (TOKEN_LIMIT_EXCEEDED).' },
  explain: explainParam,
} as const satisfies ParamsSpec;

export function context(index: KddIndex, params: ContextParams | RawParams): ContextResult {
  requireIndex(index);
  const raw = params as RawParams;
  const P = CONTEXT_PARAMS;
  const queryText = stringParam(raw, 'query_text', P.query_text);
  const expand = boolParam(raw, 'expand_graph', P.expand_graph);
  const depth = intParam(raw, 'depth', P.depth);
  const kinds = new Set(stringListParam(raw, 'include_kinds', P.include_kinds));
  const layers = new Set(stringListParam(raw, 'include_layers', P.include_layers));
  const respectLayers = boolParam(raw, 'respect_layers', P.respect_layers);
  const includeImplicit = boolParam(raw, 'include_implicit', P.include_implicit);
  const minScore = numberParam(raw, 'min_score', P.min_score);
  const limit = intParam(raw, 'limit', P.limit);
  const maxTokens = intParam(raw, 'max_tokens', P.max_tokens);
  const explain = boolParam(raw, 'explain', P.explain);

  const queryVector = queryVectorParam(index, raw);

  const { bundle } = index;
  const fused = fuse(index, queryText, { expandGraph: expand, depth, respectLayers, includeImplicit, queryVector, minScore });
  const budget = createBudget(maxTokens);
  // What fills the budget (BP-BUDGET-001): first every result that fits as its snippet entry, best
  // first, so that no relevant document is left out for the sake of the first ones' full text; then,
  // best result first, its passages (the sections that hold the query's words, best first; fewer
  // further down the ranking). Tokens go to what answers the query, never to a document's other
  // sections.
  const results: ContextHit[] = [];
  const entries: Entry[] = [];
  const passes = (c: FusedCandidate) => {
    if (c.score < minScore) return false;
    const node = bundle.nodes[c.node]!;
    return (kinds.size === 0 || kinds.has(node.kind)) && (layers.size === 0 || layers.has(node.layer));
  };
  const { groups } = fused.analysis;
  const impact = isImpactQuestion(queryText, fused.analysis.terms) ? impactAnswer(index, fused.candidates.filter(passes), limit, respectLayers, includeImplicit) : null;
  for (const c of impact?.members ?? fused.candidates) {
    if (results.length >= limit || c.score < minScore) break;
    if (!passes(c)) continue;
    const node = bundle.nodes[c.node]!;
    const { snippet, sections: plan } = snippetAndSections(node, groups, index.text, passagesFor(results.length));
    const hit = toHit(node, c.score, c.match_source, snippet, plan.length > 0);
    if (explain) {
      hit.why = explainNode(index, fused.analysis, fused.expansion, c.node, c.match_source === 'graph' || c.match_source === 'fusion');
      const edge = impact?.dependants.get(c.node);
      if (edge) hit.why.depends_on = { from_node: edge.from_node, edge_type: edge.edge_type, to_node: edge.to_node };
      const chunk = fused.semanticChunks?.get(c.node);
      if (chunk !== undefined) hit.why.semantic_chunk = bundle.chunks[chunk]!.id;
    }
    const length = JSON.stringify(hit).length;
    hit.tokens = tokensOfLength(length);
    if (!take(budget, hit.tokens)) break;
    results.push(hit);
    entries.push({ node, plan, length });
  }
  addPassages(results, entries, (node, s) => ({ section: node.sections[s]!.heading, text: sectionPassage(node, s, groups, index.text, PASSAGE_CHARS) }), budget);

  const returned = new Set(results.map((r) => r.node_id));
  const warnings: KddWarning[] = [];
  if (!fused.semantic) {
    warnings.push(warning('NO_EMBEDDINGS', { level: bundle.manifest.index_level }));
  }
  if (budget.exceeded) warnings.push(warning('TOKEN_LIMIT_EXCEEDED', { max_tokens: maxTokens }));
  return {
    strategy: 'hybrid',
    retrieval_strategy: `${fused.semantic ? 'semantic+' : ''}${expand ? 'lexical+graph' : 'lexical'}` as ContextResult['retrieval_strategy'],
    results,
    graph_expansion: expand ? subgraph(index, returned, respectLayers, includeImplicit) : [],
    layer_violations: violations(index, fused.expansion?.skipped, returned, respectLayers),
    total_results: results.length,
    total_nodes: results.length,
    total_tokens: budget.used,
    truncated: budget.exceeded,
    warnings,
  };
}

function toHit(node: GraphNode, score: number, source: MatchSource, snippet: { section: string | null; text: string }, more: boolean): ContextHit {
  return {
    node_id: node.id,
    kind: node.kind,
    layer: node.layer,
    title: node.title,
    score,
    match_source: source,
    section: snippet.section,
    snippet: snippet.text,
    source_file: node.source_file,
    ...(more && { truncated: true as const }),
    tokens: 0,
  };
}

/** Sections given to one result at most (BP-BUDGET-001 `max_sections_per_item`). */
export const MAX_PASSAGES = 3;
/** Longest passage, in characters (~300 tokens): a longer section is cut around the query's first word. */
export const PASSAGE_CHARS = 1200;

/**
 * Passages the result at `rank` (0 = best) may receive: {@link MAX_PASSAGES} for the first three,
 * one less for each next three, none from the tenth on — shorter cuts for the documents less likely
 * to answer (measured against equal shares in docs/decisions/retrieval-generalization.md).
 */
const passagesFor = (rank: number) => Math.max(0, MAX_PASSAGES - Math.floor(rank / 3));

/** A snippet entry taken into the answer: its node, its planned passages, its JSON length (with `tokens: 0`). */
interface Entry {
  node: GraphNode;
  plan: number[];
  length: number;
}

/**
 * Adds the planned passages to the snippet entries, best result first, each passage if the budget
 * holds it (one that does not fit is skipped and the next is tried, BP-BUDGET-001). Entry lengths
 * are tracked in JSON characters, so each passage is measured once and no entry is measured again;
 * an entry that received all its planned passages loses `truncated`.
 */
function addPassages(hits: ContextHit[], entries: readonly Entry[], passageOf: (node: GraphNode, section: number) => Passage, budget: TokenBudget): void {
  hits.forEach((hit, i) => {
    const { node, plan } = entries[i]!;
    let { length } = entries[i]!;
    const taken: Passage[] = [];
    for (const section of plan) {
      const passage = passageOf(node, section);
      // `,"passages":[…]` opens with the first passage; each further one adds its comma.
      const longer = length + JSON.stringify(passage).length + (taken.length === 0 ? ',"passages":[]'.length : 1);
      if (!take(budget, tokensOfLength(longer) - hit.tokens)) continue;
      taken.push(passage);
      length = longer;
      hit.tokens = tokensOfLength(length);
    }
    if (taken.length === 0) return;
    const { truncated, tokens, why, ...head } = hit;
    const complete = taken.length === plan.length;
    // Dropping `truncated` only shortens the entry: the budget gets the difference back.
    if (complete) length -= ',"truncated":true'.length;
    const full: ContextHit = { ...head, passages: taken, ...(!complete && { truncated }), tokens: tokensOfLength(length), ...(why && { why }) };
    budget.used -= tokens - full.tokens;
    for (const key of Object.keys(hit)) delete (hit as unknown as Record<string, unknown>)[key];
    Object.assign(hit, full);
  });
}

/** Edges whose two ends are both returned, one per node pair (typed over WIKI_LINK, authored over agent edges). */
function subgraph(index: KddIndex, returned: ReadonlySet<string>, respectLayers: boolean, includeImplicit: boolean): ExpansionEdge[] {
  const { bundle } = index;
  const byPair = new Map<string, GraphEdge>();
  for (const id of [...returned].sort()) {
    const at = index.nodeIndex.get(id)!;
    for (const e of bundle.outgoing[at] ?? []) {
      const edge = bundle.edges[e]!;
      if (!returned.has(edge.to_node) || edge.from_node === edge.to_node || (respectLayers && edge.layer_violation)) continue;
      const agent = isAgentEdge(edge);
      if (agent && !includeImplicit) continue;
      const key = `${edge.from_node}\u0000${edge.to_node}`;
      // The pair is named by its most specific edge, as graph, impact and hints name it.
      const old = byPair.get(key);
      if (!old || compareBySpecificity(edge, old) < 0) byPair.set(key, edge);
    }
  }
  return [...byPair.values()].map((e) => ({ from_node: e.from_node, to_node: e.to_node, edge_type: e.edge_type, ...implicitMark(e) }));
}

/** Layer-violating edges that touch a returned node: skipped ones when respecting layers, else walked ones. */
function violations(index: KddIndex, skipped: ReadonlySet<number> | undefined, returned: ReadonlySet<string>, respectLayers: boolean): LayerViolation[] {
  const { bundle } = index;
  const out: LayerViolation[] = [];
  const edgeIds = respectLayers ? [...(skipped ?? [])] : [...returned].flatMap((id) => bundle.outgoing[index.nodeIndex.get(id)!] ?? []);
  for (const e of [...new Set(edgeIds)].sort((a, b) => a - b)) {
    const edge = bundle.edges[e]!;
    if (!edge.layer_violation || !(returned.has(edge.from_node) || returned.has(edge.to_node))) continue;
    if (!respectLayers && !(returned.has(edge.from_node) && returned.has(edge.to_node))) continue;
    const from = bundle.nodes[index.nodeIndex.get(edge.from_node)!];
    const to = bundle.nodes[index.nodeIndex.get(edge.to_node)!];
    if (!from || !to) continue;
    out.push({ from_node: edge.from_node, to_node: edge.to_node, from_layer: from.layer, to_layer: to.layer, edge_type: edge.edge_type, source_file: edge.source_file });
  }
  return out;
}

/**
 * The answer to an impact question ("if the grace period changes…, which documents change?"): its
 * subject (the best result) and the documents that depend on it — those with an edge to it, which
 * QRY-004 reports as directly affected — before any other result, as far as `limit` allows. The
 * members keep their ranking order. Measured against the plain ranking in
 * docs/decisions/retrieval-generalization.md (budget filling).
 */
function impactAnswer(index: KddIndex, admitted: readonly FusedCandidate[], limit: number, respectLayers: boolean, includeImplicit: boolean): { members: FusedCandidate[]; dependants: Map<number, GraphEdge> } {
  // Dependant → its most specific edge to the subject (as graph, impact and hints name a pair).
  const dependants = new Map<number, GraphEdge>();
  const subject = admitted[0];
  if (!subject) return { members: [], dependants };
  const { bundle } = index;
  for (const e of bundle.incoming[subject.node] ?? []) {
    const edge = bundle.edges[e]!;
    if ((respectLayers && edge.layer_violation) || (!includeImplicit && isAgentEdge(edge))) continue;
    const from = index.nodeIndex.get(edge.from_node);
    const old = from === undefined ? undefined : dependants.get(from);
    if (from === undefined || from === subject.node || (old && compareBySpecificity(edge, old) >= 0)) continue;
    dependants.set(from, edge);
  }
  const members = new Set<FusedCandidate>([subject]);
  for (const c of admitted) if (members.size < limit && dependants.has(c.node)) members.add(c);
  for (const c of admitted) if (members.size < limit) members.add(c);
  return { members: admitted.filter((c) => members.has(c)), dependants };
}
