/**
 * The node page's data (`#/node/ID`) from a whole bundle: the node, its edges both ways with the
 * node at the other end, the wiki-link labels its fields may use, and its dangling links.
 * Isomorphic: the sub-bundle packer (compiler/pack/site-bundle.ts) writes one per node, and the
 * worker builds it itself when it has only the full bundle.
 */
import type { Bundle } from '../../formats/bundle/types.js';
import type { GraphEdge, GraphNode } from '../../model/graph.js';
import { baseName } from '../search/fields.js';
import type { EdgeView, NodeView } from '../../formats/site-bundle.js';

type Graph = Pick<Bundle, 'nodes' | 'edges' | 'outgoing' | 'incoming' | 'dangling'>;

export function nodeView(bundle: Graph, nodeIndex: ReadonlyMap<string, number>, position: number, dangling: readonly string[]): NodeView {
  const { nodes, edges, outgoing, incoming } = bundle;
  const view = (edge: GraphEdge, otherId: string): EdgeView => {
    const other = nodes[nodeIndex.get(otherId) ?? -1];
    return {
      edge_type: edge.edge_type,
      other: other ? { id: other.id, title: other.title, kind: other.kind, layer: other.layer } : { id: otherId, title: otherId, kind: '', layer: '' },
      layer_violation: edge.layer_violation,
      section: edge.metadata.section ?? null,
    };
  };
  const out = (outgoing[position] ?? []).map((e) => view(edges[e]!, edges[e]!.to_node));
  const inc = (incoming[position] ?? []).map((e) => view(edges[e]!, edges[e]!.from_node));
  const links: Record<string, string> = {};
  for (const e of out) {
    const target = nodes[nodeIndex.get(e.other.id) ?? -1];
    if (!target) continue;
    for (const label of [target.id, target.doc_id, target.title, baseName(target.source_file), ...target.aliases]) links[label] ??= target.id;
  }
  return { node: pageFields(nodes[position]!), outgoing: out, incoming: inc, links, dangling: [...dangling] };
}

/**
 * The node as its page draws it: the section texts only when it has no extracted fields (the page
 * then shows them instead). Otherwise they would only repeat the fields and the rendered document,
 * a third of every detail piece (34 MB of a 10k-document site).
 */
function pageFields(node: GraphNode): GraphNode {
  return Object.keys(node.indexed_fields).length === 0 ? node : { ...node, sections: [] };
}

/** Dangling targets per source node id (the bundle keeps them sorted by source). */
export function danglingByNode(bundle: Pick<Bundle, 'dangling'>): Map<string, string[]> {
  const byNode = new Map<string, string[]>();
  for (const d of bundle.dangling) byNode.set(d.from_node, [...(byNode.get(d.from_node) ?? []), d.target]);
  return byNode;
}
