/**
 * Neighbourhoods for the graph page: {@link neighbourhood} walks a {@link GraphStore} (in the
 * worker, fetching chunks level by level), {@link filterNeighbourhood} narrows an answer to some
 * edge types, layers and a smaller depth (on the page, no fetch). Both walk edges either way.
 */
import type { Neighbourhood, NeighbourhoodEdge } from '../protocol.js';
import type { GraphStore } from './store.js';
import { compareCodeUnits } from '../../../model/order.js';

/** Nodes a neighbourhood holds at most: a readable picture, and a bound on the chunks fetched. */
export const MAX_GRAPH_NODES = 250;

export async function neighbourhood(store: GraphStore, id: string, depth: number, maxNodes = MAX_GRAPH_NODES): Promise<Neighbourhood> {
  const root = await store.slotOf(id);
  if (root === null) throw Object.assign(new Error(`Node not found: ${id}`), { code: 'NODE_NOT_FOUND' });
  const distance = new Map<number, number>([[root, 0]]);
  let frontier = [root];
  let truncated = false;
  for (let d = 1; d <= depth && frontier.length > 0; d++) {
    await store.load(frontier);
    const next: number[] = [];
    for (const slot of frontier) {
      for (const adjacent of [...store.out(slot), ...store.in(slot)]) {
        if (distance.has(adjacent.slot)) continue;
        if (distance.size >= maxNodes) {
          truncated = true;
          continue;
        }
        distance.set(adjacent.slot, d);
        next.push(adjacent.slot);
      }
    }
    frontier = next;
  }
  await store.load(distance.keys());
  const edges: NeighbourhoodEdge[] = [];
  for (const slot of distance.keys()) {
    const from = store.label(slot).id;
    for (const adjacent of store.out(slot)) {
      if (distance.has(adjacent.slot) && adjacent.slot !== slot) edges.push({ from, to: store.label(adjacent.slot).id, type: adjacent.type, violation: adjacent.violation });
    }
  }
  const nodes = [...distance].map(([slot, d]) => ({ ...store.label(slot), distance: d }));
  nodes.sort((a, b) => a.distance - b.distance || compareCodeUnits(a.id, b.id));
  edges.sort((a, b) => compareCodeUnits(a.from, b.from) || compareCodeUnits(a.to, b.to) || compareCodeUnits(a.type, b.type));
  return { center: id, depth, nodes, edges, truncated };
}

/**
 * The part of `graph` reachable from its centre within `depth` hops over edges of `edgeTypes`
 * through nodes of `layers` (the centre always stays), with distances measured again.
 */
export function filterNeighbourhood(graph: Neighbourhood, depth: number, edgeTypes: ReadonlySet<string>, layers: ReadonlySet<string>): Neighbourhood {
  const byId = new Map(graph.nodes.map((node) => [node.id, node]));
  const links = new Map<string, string[]>();
  const edges = graph.edges.filter((e) => edgeTypes.has(e.type) && layers.has(byId.get(e.from)!.layer) && layers.has(byId.get(e.to)!.layer));
  for (const e of edges) {
    links.set(e.from, [...(links.get(e.from) ?? []), e.to]);
    links.set(e.to, [...(links.get(e.to) ?? []), e.from]);
  }
  const distance = new Map([[graph.center, 0]]);
  let frontier = [graph.center];
  for (let d = 1; d <= depth; d++) {
    const next: string[] = [];
    for (const id of frontier) for (const other of links.get(id) ?? []) if (!distance.has(other)) distance.set(other, d), next.push(other);
    frontier = next;
  }
  return {
    ...graph,
    depth,
    nodes: graph.nodes.filter((n) => distance.has(n.id)).map((n) => ({ ...n, distance: distance.get(n.id)! })),
    edges: edges.filter((e) => distance.has(e.from) && distance.has(e.to)),
  };
}
