/**
 * The graph half of the site sub-bundle (formats/site-bundle.ts): what the node, graph, impact, layer
 * map, violations and health pages fetch instead of the full bundle. A pure function of the bundle.
 *
 * Nodes are grouped into chunks of {@link GRAPH_CHUNK} that link to each other (a greedy growth:
 * each chunk starts at the first node not yet placed and repeatedly takes the outside node with the
 * most edges into it), so a depth-2 neighbourhood spans a few chunks instead of one chunk per
 * neighbour. Bundle order (sorted ids) would scatter a document's neighbours over the whole tree.
 */
import type { Bundle } from '../../formats/bundle/types.js';
import type { KddIndex } from '../../runtime/kdd-index.js';
import { KINDS, LAYERS } from '../../model/graph.js';
import { impact } from '../../runtime/queries/impact.js';
import { runQuery } from '../../runtime/queries/registry.js';
import { layerMap } from '../../runtime/views/layer-map.js';
import { encodeVarints, GRAPH_CHUNK, SITE_FORMAT, type GraphChunk, type GraphMeta, type IdShard, type ShardRef } from '../../formats/site-bundle.js';
import { danglingByNode, nodeView } from '../../runtime/views/node-view.js';
import { compareCodeUnits } from '../../model/order.js';
import { runsWithin } from './shards.js';

/** Encoded bytes per id directory shard. */
const ID_SHARD_BYTES = 8 * 1024;

/** `emit` packs a value into a content-hashed file and answers its name. */
export function packSiteGraph(bundle: Bundle, bundleFile: string, emit: (value: unknown) => string): GraphMeta {
  const { nodes, edges, outgoing, incoming } = bundle;
  const nodeIndex = new Map(nodes.map((node, i) => [node.id, i]));
  // impact(), violations, health and the layer map read only the graph: the text index is not needed.
  const index = { bundle, hash: bundleFile, nodeIndex, text: null, vectors: null } as unknown as KddIndex;
  const order = localityOrder(bundle);
  const slot = new Int32Array(nodes.length);
  order.forEach((position, i) => (slot[position] = Math.floor(i / GRAPH_CHUNK) * GRAPH_CHUNK + (i % GRAPH_CHUNK)));
  const edgeTypes = [...new Set(edges.map((e) => e.edge_type))].sort();
  const typeCode = new Map(edgeTypes.map((type, i) => [type, i]));
  const dangling = danglingByNode(bundle);
  const adjacency = (list: readonly number[] | undefined, other: 'to_node' | 'from_node') => {
    const values = [list?.length ?? 0];
    for (const e of list ?? []) {
      const edge = edges[e]!;
      values.push(slot[nodeIndex.get(edge[other])!]!, (typeCode.get(edge.edge_type)! << 1) | (edge.layer_violation ? 1 : 0));
    }
    return values;
  };
  const chunks: string[] = [];
  for (let start = 0; start < order.length; start += GRAPH_CHUNK) {
    const members = order.slice(start, start + GRAPH_CHUNK);
    const chunk: GraphChunk = {
      ids: members.map((p) => nodes[p]!.id),
      titles: members.map((p) => nodes[p]!.title),
      kinds: Uint8Array.from(members, (p) => KINDS.indexOf(nodes[p]!.kind)),
      layers: Uint8Array.from(members, (p) => LAYERS.indexOf(nodes[p]!.layer)),
      out: encodeVarints(members.flatMap((p) => adjacency(outgoing[p], 'to_node'))),
      in: encodeVarints(members.flatMap((p) => adjacency(incoming[p], 'from_node'))),
      details: members.map((p) => emit(nodeView(bundle, nodeIndex, p, dangling.get(nodes[p]!.id) ?? []))),
      impacts: members.map((p) => emit(impact(index, { node_id: nodes[p]!.id }))),
    };
    chunks.push(emit(chunk));
  }
  return {
    format: SITE_FORMAT,
    source: bundleFile,
    nodes: nodes.length,
    edge_types: edgeTypes,
    kind_names: [...KINDS],
    layer_names: [...LAYERS],
    chunks,
    ids: idShards(nodes.map((node, p) => [node.id, slot[p]!] as const)).map(({ first, shard }) => ({ first, file: emit(shard) }) satisfies ShardRef),
    // The same answers the worker would compute from the full bundle (57 MB at 10k documents).
    reports: {
      layers: emit(layerMap(index)),
      violations: emit(runQuery('violations', index, {})),
      health: emit(runQuery('health', index, {})),
    },
  };
}

/** Node positions, grouped so that each run of GRAPH_CHUNK holds nodes that link to each other. */
function localityOrder(bundle: Bundle): number[] {
  const { nodes, edges, outgoing, incoming } = bundle;
  const nodeIndex = new Map(nodes.map((node, i) => [node.id, i]));
  const neighbours = (p: number): number[] => [
    ...(outgoing[p] ?? []).map((e) => nodeIndex.get(edges[e]!.to_node)!),
    ...(incoming[p] ?? []).map((e) => nodeIndex.get(edges[e]!.from_node)!),
  ];
  const placed = new Uint8Array(nodes.length);
  const order: number[] = [];
  let next = 0;
  while (order.length < nodes.length) {
    const end = Math.min(order.length + GRAPH_CHUNK, nodes.length);
    // One chunk: grown from the first node not yet placed; a new seed when the growth runs dry.
    // `gain` counts the links from each outside node into the chunk; ties go to the lower position.
    const gain = new Map<number, number>();
    while (order.length < end) {
      let pick = -1;
      let best = 0;
      for (const [n, g] of gain) if (g > best || (g === best && n < pick)) (best = g), (pick = n);
      if (pick < 0) {
        while (placed[next]) next++;
        pick = next;
      }
      placed[pick] = 1;
      order.push(pick);
      gain.delete(pick);
      for (const n of neighbours(pick)) if (!placed[n]) gain.set(n, (gain.get(n) ?? 0) + 1);
    }
  }
  return order;
}

function idShards(entries: (readonly [id: string, slot: number])[]): { first: string; shard: IdShard }[] {
  const sorted = [...entries].sort((a, b) => compareCodeUnits(a[0], b[0]));
  return runsWithin(sorted, ([id]) => id.length + 3, ID_SHARD_BYTES).map((run) => ({
    first: run[0]![0],
    shard: { ids: run.map(([id]) => id).join('\n'), slots: encodeVarints(run.map(([, slot]) => slot)) },
  }));
}
