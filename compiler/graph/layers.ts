/** BR-LAYER-001: the layer hierarchy as numbers, and the violation test on an edge. */
import type { GraphEdge, GraphNode, Layer } from '../../model/graph.js';

/** 00-requirements and 05-architecture sit outside the 01→04 flow: rank 0, never a violation source. */
const RANK: Record<Layer, number> = {
  '00-requirements': 0,
  '01-domain': 1,
  '02-behavior': 2,
  '03-experience': 3,
  '04-verification': 4,
  '05-architecture': 0,
};

export function layerRank(layer: Layer): number {
  return RANK[layer];
}

/** An edge violates the rule when it goes from a lower layer of the flow up to a higher one. */
export function isLayerViolation(from: Layer, to: Layer): boolean {
  const origin = RANK[from];
  return origin > 0 && origin < RANK[to];
}

/** LAYER_DEPENDENCY: a valid downward dependency between two layers of the flow (N > M ≥ 1). */
export function isLayerDependency(from: Layer, to: Layer): boolean {
  return RANK[to] > 0 && RANK[from] > RANK[to];
}

/** The implicit LAYER_DEPENDENCY edge for a pair of linked nodes, or null when they do not descend layers. */
export function layerDependencyEdge(from: GraphNode, to: GraphNode): GraphEdge | null {
  if (!isLayerDependency(from.layer, to.layer)) return null;
  return {
    from_node: from.id,
    to_node: to.id,
    edge_type: 'LAYER_DEPENDENCY',
    source_file: from.source_file,
    extraction_method: 'implicit',
    metadata: { from_layer: from.layer, to_layer: to.layer },
    layer_violation: false,
    bidirectional: false,
  };
}
