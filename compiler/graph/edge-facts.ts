/**
 * A graph's edges, made only when a stage reads them. A one-edit build whose links did not change
 * takes the previous graph from the record cache (compiler/incremental/relink.ts): its 110,000 edges
 * (10,800 documents) sit there as the bundle's columns, and what the build asks of them when it does
 * not write the edge files is their count, their count per type, each node's out-degree and their
 * bundle bytes, all of which the columns answer. Making the edge objects cost ~30 ms of the main
 * thread and the collector's time to copy them twice (docs/decisions/one-edit-build.md, "lazy edges").
 *
 * `graph.edges` stays an ordinary read: a graph with deferred edges makes them on first access, once.
 * The helpers below answer from the columns while the edges are not made, and from the edges after:
 * the same answers either way (test/compiler/lazy-edges.test.ts).
 */
import { checkEdges, edgesFrom, type EdgeColumns, type EncodedEdges } from '../../formats/bundle/edges.js';
import type { GraphEdge, GraphNode } from '../../model/graph.js';
import { inKeyOrder } from '../../model/order.js';
import { packedEdges, rememberPackedEdges } from '../cache/packed-node.js';
import type { Graph } from './link.js';

interface Deferred {
  columns: EdgeColumns;
  encoded: EncodedEdges;
  /** The graph's nodes sorted by id: what the columns' node positions index. */
  nodes: readonly GraphNode[];
  /** The edges once made. */
  made: GraphEdge[] | null;
}

/** By graph (and by any object {@link withGraph} made from one): its deferred edges. */
const deferredOf = new WeakMap<object, Deferred>();

/**
 * `graph` (its `edges` a placeholder) with edges made from `encoded` over `graph.nodes` when first
 * read. The columns are checked now: a corrupt column throws here, where the caller can still
 * link anew, not in a later stage.
 */
export function deferEdges<T extends Graph>(graph: T, encoded: EncodedEdges): T {
  const deferred: Deferred = { columns: checkEdges(encoded, graph.nodes.length), encoded, nodes: graph.nodes, made: null };
  Object.defineProperty(graph, 'edges', {
    enumerable: true,
    configurable: true,
    // No setter: a stage that replaced the edges would leave the columns answering for other edges.
    get: () => {
      if (deferred.made === null) {
        deferred.made = edgesFrom(deferred.columns, deferred.nodes).edges;
        // Their bundle bytes are the columns they were made from (compiler/cache/packed-node.ts).
        rememberPackedEdges(deferred.made, encoded);
      }
      return deferred.made;
    },
  });
  deferredOf.set(graph, deferred);
  return graph;
}

/**
 * `{ ...graph, ...extra }` without making `graph`'s edges: the copy reads them through the same
 * deferral (a spread would read every property, and so make them).
 */
export function withGraph<T extends object>(graph: Graph, extra: T): Graph & T {
  const copy = Object.defineProperties({}, Object.getOwnPropertyDescriptors(graph)) as Graph;
  Object.assign(copy, extra);
  const deferred = deferredOf.get(graph);
  if (deferred) deferredOf.set(copy, deferred);
  return copy as Graph & T;
}

/** How many edges `graph` has. */
export function edgeCount(graph: Graph): number {
  const deferred = deferredOf.get(graph);
  return deferred ? deferred.columns.count : graph.edges.length;
}

/** Edges per `edge_type`, keys in code-unit order. */
export function edgeTypeCounts(graph: Graph): Record<string, number> {
  const deferred = deferredOf.get(graph);
  const perType = new Map<string, number>();
  if (!deferred || deferred.made) {
    for (const edge of graph.edges) perType.set(edge.edge_type, (perType.get(edge.edge_type) ?? 0) + 1);
  } else {
    const { count, type, strings } = deferred.columns;
    const perIndex = new Array<number>(strings.length).fill(0);
    for (let i = 0; i < count; i++) perIndex[type[i]!]!++;
    // The string table holds each string once, so each type has one index.
    strings.forEach((name, i) => perIndex[i]! > 0 && perType.set(name, perIndex[i]!));
  }
  return inKeyOrder(perType);
}

/** Outgoing edges (`from_node`) of each id of `ids`, ids with none left out. */
export function outDegrees(graph: Graph, ids: ReadonlySet<string>): Map<string, number> {
  const degree = new Map<string, number>();
  const count = (id: string) => ids.has(id) && degree.set(id, (degree.get(id) ?? 0) + 1);
  const deferred = deferredOf.get(graph);
  if (!deferred || deferred.made) {
    for (const edge of graph.edges) count(edge.from_node);
    return degree;
  }
  const { from, strings } = deferred.columns;
  const { nodes } = deferred;
  const wanted = new Uint8Array(nodes.length);
  nodes.forEach((node, i) => (wanted[i] = ids.has(node.id) ? 1 : 0));
  for (let i = 0; i < deferred.columns.count; i++) {
    const f = from[i]!;
    if (f >= nodes.length) count(strings[f - nodes.length]!);
    else if (wanted[f]) count(nodes[f]!.id);
  }
  return degree;
}

/**
 * The bundle's encoding of `graph`'s edges against `nodes` (its nodes sorted by id, as packed): for
 * deferred edges the columns they come from, as `packedEdges` gives for edges a cache remembered.
 */
export function graphPackedEdges(graph: Pick<Graph, 'edges'>, nodes: readonly GraphNode[]): EncodedEdges {
  return deferredOf.get(graph)?.encoded ?? packedEdges(graph.edges, nodes);
}
