/**
 * The layer map's data (`#/layers`, #18), computed in the worker from the full graph: per layer the
 * kinds and their node counts, every layer violation (an edge from a lower layer up to a higher
 * one, BR-LAYER-001), and the dangling-link and orphan counts of `health`.
 */
import type { KddIndex } from '../kdd-index.js';
import { KINDS, LAYERS } from '../../model/graph.js';
import { health } from '../queries/health.js';
import { violations } from '../queries/violations.js';
import type { LayerMap, MapNode } from '../../formats/site-bundle.js';

/** Up to this many nodes every node is drawn; above it only the ends of violations (the rest are counted). */
export const DRAW_ALL_NODES = 300;

export function layerMap(index: KddIndex): LayerMap {
  const { nodes } = index.bundle;
  const found = violations(index, {});
  const checked = health(index, {});
  const ref = (id: string): MapNode => {
    const node = nodes[index.nodeIndex.get(id) ?? -1];
    return node ? { id: node.id, title: node.title, kind: node.kind, layer: node.layer } : { id, title: id, kind: '', layer: '' };
  };
  const ends = new Set(found.violations.flatMap((v) => [v.from_node, v.to_node]));
  const drawAll = nodes.length <= DRAW_ALL_NODES;
  const layers = LAYERS.map((layer) => {
    const inLayer = nodes.filter((n) => n.layer === layer);
    const kinds = KINDS.map((kind) => {
      const ofKind = inLayer.filter((n) => n.kind === kind);
      const shown = ofKind.filter((n) => drawAll || ends.has(n.id)).map((n) => ref(n.id));
      return { kind, count: ofKind.length, shown };
    }).filter((k) => k.count > 0);
    return { layer, count: inLayer.length, kinds };
  }).filter((l) => l.count > 0);
  return {
    layers,
    violations: found.violations.map((v) => ({ from: ref(v.from_node), to: ref(v.to_node), edge_type: v.edge_type, section: v.section, explanation: v.explanation })),
    nodes: nodes.length,
    edges: found.total_edges_analyzed,
    dangling: checked.total_dangling,
    orphans: checked.total_orphans,
    all_nodes_drawn: drawAll,
  };
}
