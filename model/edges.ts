/** What the project knows per edge type: how specific each type is, which orders answers' edge choices. */
import { isImplicitEdgeType } from './enrichment.js';
import { STRUCTURAL_EDGE_TYPES, type GraphEdge } from './graph.js';
import { compareCodeUnits } from './order.js';

/**
 * How specific an edge type is, lower first: typed structural edges (ENTITY_RULE, EMITS…), then
 * business relations (`pertenece_a`), then the generic WIKI_LINK, then the implicit
 * LAYER_DEPENDENCY the compiler derives from layers alone, then the `IMPLICIT_*` edges an agent
 * proposed (L3, #9). When a pair of nodes is joined by both a WIKI_LINK and a typed edge, the typed
 * one is the one worth reporting; an agent's guess never explains a path an author stated.
 */
export function edgeRank(edgeType: string): number {
  if (isImplicitEdgeType(edgeType)) return 4;
  if (edgeType === 'LAYER_DEPENDENCY') return 3;
  if (edgeType === 'WIKI_LINK') return 2;
  return (STRUCTURAL_EDGE_TYPES as readonly string[]).includes(edgeType) ? 0 : 1;
}

/** Orders edges most specific first, then by type name, for deterministic "best edge" choices. */
export function compareBySpecificity(a: GraphEdge, b: GraphEdge): number {
  return edgeRank(a.edge_type) - edgeRank(b.edge_type) || compareCodeUnits(a.edge_type, b.edge_type);
}
