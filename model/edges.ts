/**
 * The edge-type table: what the project knows per edge type, in one place. How specific a type is
 * (which edge explains a path), how much relevance it carries in graph expansion, how impact
 * sentences read it, and the two edge orders (by specificity for answers, by ends for storage).
 *
 * Isomorphic: no Node-only imports (the compiler and the queries both read it).
 */
import { isAgentEdge, isImplicitEdgeType } from './enrichment.js';
import { STRUCTURAL_EDGE_TYPES, type GraphEdge, type StructuralEdgeType } from './graph.js';
import { compareCodeUnits } from './order.js';

export interface EdgeTypeSpec {
  /**
   * How specific the type is, lower first: typed structural edges (ENTITY_RULE, EMITS…) 0, the
   * generic WIKI_LINK 2, the LAYER_DEPENDENCY the compiler derives from layers alone 3. Business
   * relations rank 1 and the `IMPLICIT_*` edges an agent proposed (L3, #9) rank 4 (see
   * {@link edgeRank}). When a pair of nodes is joined by both a WIKI_LINK and a typed edge, the
   * typed one is the one worth reporting; an agent's guess never explains a path an author stated.
   */
  rank: number;
  /** How strongly the type carries relevance in graph expansion (QRY-003 step 5), 0–1. */
  weight: number;
  /** What `from` does to `to` in impact sentences (QRY-004; the dependent is always `from_node`). */
  verb: string;
}

/** Every structural type has a row: typing the table by StructuralEdgeType lets the compiler check it. */
export const EDGE_TYPE_TABLE: Readonly<Record<StructuralEdgeType, EdgeTypeSpec>> = {
  WIKI_LINK: { rank: 2, weight: 0.55, verb: 'references' },
  DOMAIN_RELATION: { rank: 0, weight: 0.7, verb: 'is related to' },
  ENTITY_RULE: { rank: 0, weight: 1, verb: 'constrains' },
  ENTITY_POLICY: { rank: 0, weight: 1, verb: 'governs' },
  EMITS: { rank: 0, weight: 0.9, verb: 'emits' },
  CONSUMES: { rank: 0, weight: 0.9, verb: 'consumes' },
  UC_APPLIES_RULE: { rank: 0, weight: 1, verb: 'applies' },
  UC_EXECUTES_CMD: { rank: 0, weight: 1, verb: 'executes' },
  UC_STORY: { rank: 0, weight: 0.7, verb: 'realises' },
  VIEW_TRIGGERS_UC: { rank: 0, weight: 0.7, verb: 'triggers' },
  VIEW_USES_COMPONENT: { rank: 0, weight: 0.6, verb: 'uses' },
  COMPONENT_USES_ENTITY: { rank: 0, weight: 0.6, verb: 'displays' },
  REQ_TRACES_TO: { rank: 0, weight: 0.7, verb: 'traces to' },
  VALIDATES: { rank: 0, weight: 0.8, verb: 'validates' },
  DECIDES_FOR: { rank: 0, weight: 0.7, verb: 'decides for' },
  CROSS_DOMAIN_REF: { rank: 0, weight: 0.5, verb: 'references across domains' },
  LAYER_DEPENDENCY: { rank: 3, weight: 0.5, verb: 'depends on' },
};

/** A free lower-case business relation (`pertenece_a`): more specific than a wiki-link, less than a typed edge. */
const BUSINESS_RELATION = { rank: 1, weight: 0.65 } as const;
/** Agent-proposed `IMPLICIT_*` edges (L3): a guess carries less than an authored wiki-link. */
const AGENT_GUESS = { rank: 4, weight: 0.45 } as const;

const STRUCTURAL = new Set<string>(STRUCTURAL_EDGE_TYPES);

/** The table's row for a structural type; undefined for business relations and agent edges. */
export function edgeTypeSpec(edgeType: string): EdgeTypeSpec | undefined {
  return STRUCTURAL.has(edgeType) ? EDGE_TYPE_TABLE[edgeType as StructuralEdgeType] : undefined;
}

/** How specific an edge type is, lower first ({@link EdgeTypeSpec.rank}). */
export function edgeRank(edgeType: string): number {
  if (isImplicitEdgeType(edgeType)) return AGENT_GUESS.rank;
  return edgeTypeSpec(edgeType)?.rank ?? BUSINESS_RELATION.rank;
}

/** How much of a node's relevance the edge passes on in graph expansion. */
export function edgeWeight(edge: Pick<GraphEdge, 'edge_type' | 'extraction_method'>): number {
  return edgeTypeSpec(edge.edge_type)?.weight ?? (isAgentEdge(edge) ? AGENT_GUESS.weight : BUSINESS_RELATION.weight);
}

/** Orders edges most specific first, then by type name, for deterministic "best edge" choices. */
export function compareBySpecificity(a: GraphEdge, b: GraphEdge): number {
  return edgeRank(a.edge_type) - edgeRank(b.edge_type) || compareCodeUnits(a.edge_type, b.edge_type);
}

/** The bundle's and `.kdd-index/`'s storage order of edges: by from, to, then type. */
export function compareEdgeKeys(a: GraphEdge, b: GraphEdge): number {
  return compareCodeUnits(a.from_node, b.from_node) || compareCodeUnits(a.to_node, b.to_node) || compareCodeUnits(a.edge_type, b.edge_type);
}
