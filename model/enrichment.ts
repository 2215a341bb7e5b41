/**
 * L3 enrichment vocabulary shared by the compiler (which turns an agent's implicit relations into
 * edges, compiler/enrich/edges.ts) and the queries (which mark them and can leave them out).
 *
 * An agent edge is a GraphEdge with `extraction_method: 'implicit'` AND an `IMPLICIT_<TYPE>` edge
 * type. The prefix matters: the compiler already derives `LAYER_DEPENDENCY` edges with
 * `extraction_method: 'implicit'` from layers alone, and those are authored facts, not guesses.
 * A prefixed type also never collides with an authored edge between the same two nodes (edges are
 * keyed by from, to and type), so authored and agent edges stay apart. See docs/enrich.md.
 *
 * Isomorphic: no Node-only imports.
 */
import type { GraphEdge } from './graph.js';

/** The relation types an agent may propose (CMD-003 "relaciones implícitas"), lower snake case. */
export const IMPLICIT_RELATION_TYPES = [
  'affects',
  'depends_on',
  'constrains',
  'triggers',
  'emits',
  'consumes',
  'uses',
  'implements',
  'validates',
  'related_to',
] as const;
export type ImplicitRelationType = (typeof IMPLICIT_RELATION_TYPES)[number];

export const IMPLICIT_EDGE_PREFIX = 'IMPLICIT_';

/** `affects` → `IMPLICIT_AFFECTS`. */
export function implicitEdgeType(relation: ImplicitRelationType): string {
  return `${IMPLICIT_EDGE_PREFIX}${relation.toUpperCase()}`;
}

/** True for an edge type produced from an agent's enrichment (not for LAYER_DEPENDENCY). */
export function isImplicitEdgeType(edgeType: string): boolean {
  return edgeType.startsWith(IMPLICIT_EDGE_PREFIX);
}

/** True for an edge an agent proposed (L3), as opposed to one the specs state. */
export function isAgentEdge(edge: Pick<GraphEdge, 'edge_type' | 'extraction_method'>): boolean {
  return edge.extraction_method === 'implicit' && isImplicitEdgeType(edge.edge_type);
}

/** Field name of the NodeSection that carries an agent's summary in the bundle (searchable text). */
export const ENRICHMENT_SECTION_FIELD = 'enrichment';
export const ENRICHMENT_SECTION_HEADING = 'Enrichment summary (agent)';
