/**
 * Why a node ranked: the query terms it contains and in which fields, the translations / same-concept
 * words that matched in place of the word typed, the exact id or title it answered, whether its kind is
 * the one asked for, the glossary row that defines an asked word, and the graph path that carried
 * score to it from a matching node.
 * Computed only for returned hits and only when asked (`explain: true`): it is small, but an agent's
 * token budget is better spent on specs by default.
 */
import type { KddIndex } from '../kdd-index.js';
import { definitionMatches } from './definitions.js';
import type { Expansion } from './expand.js';
import { fold } from './tokenizer.js';
import type { QueryAnalysis } from './rank.js';

export interface TermMatch {
  /** Index term (stemmed, accent-folded) found in the node. */
  term: string;
  /** Fields holding it: id, title, kind, heading, primary (defining sections), body. */
  fields: string[];
  /**
   * When the term is a translation / same-concept word: the query term it stands for; when it is a
   * concept an everyday phrasing of the query stands for: that phrasing ("same time" for `overlap`).
   */
  expanded_from?: string;
}

export interface PathStep {
  from_node: string;
  edge_type: string;
  to_node: string;
}

export interface Why {
  matched: TermMatch[];
  /** Id, title, alias or file name of the node that the query (or a word of it) equals. */
  exact?: string;
  /** The node is of a kind the query names ("which rule…"). */
  kind_asked?: true;
  /** Edges from a matching node to this one along which graph score flowed (best path). */
  graph_path?: PathStep[];
  /** Impact question (context): the edge by which this node depends on the question's subject. */
  depends_on?: PathStep;
  /** L2, a result of the semantic list: the chunk whose vector was closest to the query's. */
  semantic_chunk?: string;
  /** A glossary: the defined term whose row holds the query's words (definitions.ts). */
  definition?: string;
}

const step = (s: PathStep) => `${s.from_node} -${s.edge_type}-> ${s.to_node}`;

/**
 * `why` as short readable phrases, one per kind of reason, in the same words at every door (the
 * CLI prints one per line, MCP joins them on one line, the docs site under each result).
 * `spell` shows an index term as a reader knows it (the docs site: the word typed for its stem).
 */
export function describeWhy(why: Why, spell: (term: string) => string = (term) => term): string[] {
  const terms = why.matched.map((m) => `${m.expanded_from ? `${spell(m.expanded_from)}→${m.term}` : spell(m.term)} (${m.fields.join(', ')})`);
  const parts = [`matched: ${terms.length > 0 ? terms.join('; ') : 'no query term'}`];
  if (why.exact) parts.push(`exact: "${why.exact}"`);
  if (why.kind_asked) parts.push('kind: the one the query asks for');
  if (why.graph_path) parts.push(`graph: ${why.graph_path.map(step).join(', ')}`);
  if (why.depends_on) parts.push(`depends on the subject: ${step(why.depends_on)}`);
  if (why.semantic_chunk) parts.push(`semantic: closest passage ${why.semantic_chunk}`);
  if (why.definition) parts.push(`definition: the glossary row "${why.definition}"`);
  return parts;
}

/** Longest path reported (the walk's depth is at most 5). */
const MAX_PATH = 5;

/** @param viaGraph the graph brought part of the node's score (its match source is `graph` or `fusion`). */
export function explainNode(index: KddIndex, analysis: QueryAnalysis, expansion: Expansion | null, node: number, viaGraph: boolean): Why {
  const matched: TermMatch[] = [];
  for (const group of analysis.groups) {
    const typed = group[0]!.term;
    for (const alt of group) {
      const fields = index.text.fieldsOf(alt.term, node);
      if (fields.length === 0) continue;
      const from = alt.from ?? (alt.term === typed ? undefined : typed);
      matched.push(from === undefined ? { term: alt.term, fields } : { term: alt.term, fields, expanded_from: from });
      break;
    }
  }
  const why: Why = { matched };
  const exact = analysis.exact.filter((e) => index.text.lookup(fold(e.key)).includes(node)).sort((a, b) => b.bonus - a.bonus)[0];
  if (exact) why.exact = exact.key;
  const target = index.bundle.nodes[node]!;
  if (analysis.kinds.has(target.kind)) why.kind_asked = true;
  const path = expansion && viaGraph ? graphPath(index, expansion, node) : [];
  if (path.length > 0) why.graph_path = path;
  const definition = definitionMatches(index, analysis, node).get(node);
  if (definition) why.definition = definition.term;
  return why;
}

/**
 * The shortest chain of edges from a seed of the walk (a top lexical match) other than `node` to `node`
 * (breadth-first, edges in bundle order, layer-violating edges the walk skipped left out): the way
 * the graph score came, in reading order. Empty when no seed is within {@link MAX_PATH} hops.
 */
function graphPath(index: KddIndex, expansion: Expansion, node: number): PathStep[] {
  const { bundle } = index;
  const seeds = new Set(expansion.seeds.filter((seed) => seed !== node));
  if (seeds.size === 0) return [];
  // Breadth-first from `node`; `back[v]` = the edge that reached v (toward `node`).
  const back = new Map<number, number>([[node, -1]]);
  let frontier = [node];
  for (let hop = 0; hop < MAX_PATH && frontier.length > 0; hop++) {
    const next: number[] = [];
    for (const u of frontier) {
      for (const e of [...(bundle.outgoing[u] ?? []), ...(bundle.incoming[u] ?? [])]) {
        if (expansion.skipped.has(e)) continue;
        const edge = bundle.edges[e]!;
        const id = bundle.nodes[u]!.id;
        const v = index.nodeIndex.get(edge.from_node === id ? edge.to_node : edge.from_node);
        if (v === undefined || back.has(v)) continue;
        back.set(v, e);
        if (seeds.has(v)) return stepsFrom(index, back, v);
        next.push(v);
      }
    }
    frontier = next;
  }
  return [];
}

/** The edges from `seed` back to the start of the search, as steps in that order. */
function stepsFrom(index: KddIndex, back: ReadonlyMap<number, number>, seed: number): PathStep[] {
  const { bundle } = index;
  const steps: PathStep[] = [];
  for (let at = seed, e = back.get(at)!; e >= 0; e = back.get(at)!) {
    const edge = bundle.edges[e]!;
    steps.push({ from_node: edge.from_node, edge_type: edge.edge_type, to_node: edge.to_node });
    const id = bundle.nodes[at]!.id;
    at = index.nodeIndex.get(edge.from_node === id ? edge.to_node : edge.from_node)!;
  }
  return steps;
}
