/** How query answers name nodes and edges, and how they print shares. */
import { isAgentEdge } from '../../model/enrichment.js';
import type { GraphEdge, GraphNode } from '../../model/graph.js';

/** The compact node shape shared by query answers. */
export interface NodeRef {
  id: string;
  kind: GraphNode['kind'];
  title: string;
  layer: GraphNode['layer'];
  source_file: string;
}

export function nodeRef(node: GraphNode): NodeRef {
  return { id: node.id, kind: node.kind, title: node.title, layer: node.layer, source_file: node.source_file };
}

/** An edge as answers show it (the stored direction, whatever direction it was walked in). */
export interface EdgeRef {
  from_node: string;
  to_node: string;
  edge_type: string;
  /** Present (true) only on edges an agent proposed (L3 enrichment, `IMPLICIT_*`); absent otherwise. */
  implicit?: true;
  /** The agent's confidence (0–1), on implicit edges only. */
  confidence?: number;
}

export function edgeRef(edge: GraphEdge): EdgeRef {
  const ref: EdgeRef = { from_node: edge.from_node, to_node: edge.to_node, edge_type: edge.edge_type };
  return isAgentEdge(edge) ? { ...ref, ...implicitMark(edge) } : ref;
}

/** `{ implicit: true, confidence }` for an agent edge (spread into answers), `{}` otherwise. */
export function implicitMark(edge: GraphEdge): { implicit?: true; confidence?: number } {
  if (!isAgentEdge(edge)) return {};
  const confidence = Number(edge.metadata.confidence);
  return Number.isFinite(confidence) ? { implicit: true, confidence } : { implicit: true };
}

/** Rounds to one decimal, as the spec prints percentages (`75.0`, `0.8`). */
export function percent(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10;
}
