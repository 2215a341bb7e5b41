/**
 * Index health: unresolved wiki-links (kept by the compiler as `dangling`, never dropped) and
 * orphan nodes (no edge in or out). Not a spec query; `kdd health` prints it.
 */
import type { KddIndex } from '../kdd-index.js';
import type { DanglingLink } from '../../model/graph.js';
import { paramsObject, requireIndex, type RawParams } from '../validate.js';
import { nodeRef, type NodeRef } from './answer-shapes.js';

export type HealthParams = Record<string, never>;

export interface HealthResult {
  /** Sorted by (from_node, target), as the bundle stores them. */
  dangling: DanglingLink[];
  /** Nodes with no incoming and no outgoing edge, sorted by id. */
  orphans: NodeRef[];
  total_nodes: number;
  total_edges: number;
  total_dangling: number;
  total_orphans: number;
}

export function health(index: KddIndex, params: HealthParams | RawParams = {}): HealthResult {
  const idx = requireIndex(index);
  paramsObject(params);
  const { nodes, edges, outgoing, incoming, dangling } = idx.bundle;
  const orphans = nodes.filter((_, i) => (outgoing[i]?.length ?? 0) === 0 && (incoming[i]?.length ?? 0) === 0).map(nodeRef);
  return {
    dangling: dangling.map((d) => ({ ...d })),
    orphans,
    total_nodes: nodes.length,
    total_edges: edges.length,
    total_dangling: dangling.length,
    total_orphans: orphans.length,
  };
}
