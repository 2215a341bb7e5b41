/** Bundle edges: columns of node indices, string-table indices and flags (docs/bundle-format.md). */
import type { GraphEdge, GraphNode } from '../../model/graph.js';
import { corrupt, decodeUints, encodeUints, StringTable } from './columns.js';

export interface EncodedEdges {
  count: number;
  strings: string[];
  /** Node reference: value < nodes = node index; else `strings[value - nodes]` (an id no node has). */
  from: Uint8Array;
  to: Uint8Array;
  /** String-table index of `edge_type` / `extraction_method`. */
  type: Uint8Array;
  method: Uint8Array;
  /** 0 = the from-node's `source_file`; else `strings[value - 1]`. */
  source: Uint8Array;
  /** Index into `metadata` (distinct metadata objects, each `[key, value, …]` as string indices). */
  meta: Uint8Array;
  metadata: number[][];
  /** bit 0 `layer_violation`, bit 1 `bidirectional`. */
  flags: Uint8Array;
}

export function encodeEdges(edges: readonly GraphEdge[], nodes: readonly GraphNode[]): EncodedEdges {
  const position = new Map<string, number>();
  nodes.forEach((node, i) => position.set(node.id, i));
  const strings = new StringTable();
  const ref = (id: string) => position.get(id) ?? nodes.length + strings.id(id);
  const count = edges.length;
  const from = new Array<number>(count);
  const to = new Array<number>(count);
  const type = new Array<number>(count);
  const method = new Array<number>(count);
  const source = new Array<number>(count);
  const meta = new Array<number>(count);
  const flags = new Array<number>(count);
  const metaIds = new Map<string, number>();
  const metadata: number[][] = [];
  edges.forEach((edge, i) => {
    from[i] = ref(edge.from_node);
    to[i] = ref(edge.to_node);
    type[i] = strings.id(edge.edge_type);
    method[i] = strings.id(edge.extraction_method);
    const fromNode = from[i]! < nodes.length ? nodes[from[i]!] : undefined;
    source[i] = fromNode && fromNode.source_file === edge.source_file ? 0 : 1 + strings.id(edge.source_file);
    const flat: number[] = [];
    for (const key of Object.keys(edge.metadata)) flat.push(strings.id(key), strings.id(edge.metadata[key]!));
    const signature = flat.join(',');
    let m = metaIds.get(signature);
    if (m === undefined) metaIds.set(signature, (m = metadata.push(flat) - 1));
    meta[i] = m;
    flags[i] = (edge.layer_violation ? 1 : 0) | (edge.bidirectional ? 2 : 0);
  });
  return {
    count,
    strings: strings.list,
    from: encodeUints(from),
    to: encodeUints(to),
    type: encodeUints(type),
    method: encodeUints(method),
    source: encodeUints(source),
    meta: encodeUints(meta),
    metadata,
    flags: encodeUints(flags),
  };
}

export interface DecodedEdges {
  edges: GraphEdge[];
  outgoing: number[][];
  incoming: number[][];
}

/** Edge columns checked against the tables they index: {@link edgesFrom} reads them without checks. */
export interface EdgeColumns {
  count: number;
  strings: readonly string[];
  from: ArrayLike<number>;
  to: ArrayLike<number>;
  type: ArrayLike<number>;
  method: ArrayLike<number>;
  source: ArrayLike<number>;
  meta: ArrayLike<number>;
  /** The distinct metadata objects (edges with equal metadata share one, never mutated). */
  metadata: Record<string, string>[];
  flags: ArrayLike<number>;
}

export function decodeEdges(data: unknown, nodes: readonly GraphNode[]): DecodedEdges {
  return edgesFrom(checkEdges(data, nodes.length), nodes);
}

/**
 * The columns of `data` for a graph of `nodeCount` nodes, every value checked (INDEX_UNAVAILABLE
 * when one is out of range), without making an edge: what a build that may never read the edges
 * keeps (compiler/graph/edge-facts.ts).
 */
export function checkEdges(data: unknown, nodeCount: number): EdgeColumns {
  const encoded = data as Partial<EncodedEdges> | null;
  if (!encoded || typeof encoded.count !== 'number' || !Array.isArray(encoded.strings) || !Array.isArray(encoded.metadata)) {
    throw corrupt('edges are missing');
  }
  const { count, strings } = encoded;
  const n = nodeCount;
  const from = decodeUints(encoded.from, count, 'edge from');
  const to = decodeUints(encoded.to, count, 'edge to');
  const type = decodeUints(encoded.type, count, 'edge type');
  const method = decodeUints(encoded.method, count, 'edge method');
  const source = decodeUints(encoded.source, count, 'edge source');
  const meta = decodeUints(encoded.meta, count, 'edge metadata');
  const flags = decodeUints(encoded.flags, count, 'edge flags');
  for (const value of strings) if (typeof value !== 'string') throw corrupt('edge string table holds a non-string');
  // Every column checked against its table once, so the loop of edgesFrom indexes without checks.
  const m = strings.length;
  if (count > 0 && (max(type) >= m || max(method) >= m || max(source) > m || max(from) >= n + m || max(to) >= n + m || max(meta) >= encoded.metadata.length)) {
    throw corrupt('edge column value out of range');
  }
  for (let i = 0; i < count; i++) if (source[i] === 0 && from[i]! >= n) throw corrupt('edge column value out of range');
  const metadata = encoded.metadata.map((flat) => {
    const object: Record<string, string> = {};
    if (!Array.isArray(flat)) throw corrupt('edge metadata is malformed');
    for (let k = 0; k < flat.length; k += 2) {
      const key = strings[flat[k]!];
      const value = strings[flat[k + 1]!];
      if (typeof key !== 'string' || typeof value !== 'string') throw corrupt('edge string index out of range');
      object[key] = value;
    }
    return object;
  });
  return { count, strings, from, to, type, method, source, meta, metadata, flags };
}

/** The edges of checked `columns` over `nodes` (the graph's nodes sorted by id, as encoded), with each node's outgoing and incoming edge positions. */
export function edgesFrom(columns: EdgeColumns, nodes: readonly GraphNode[]): DecodedEdges {
  const { count, strings, from, to, type, method, source, meta, metadata, flags } = columns;
  const n = nodes.length;
  const ids = nodes.map((node) => node.id);
  const outgoing: number[][] = [];
  const incoming: number[][] = [];
  for (let i = 0; i < n; i++) outgoing.push([]), incoming.push([]);
  const edges = new Array<GraphEdge>(count);
  for (let i = 0; i < count; i++) {
    const f = from[i]!;
    const t = to[i]!;
    const s = source[i]!;
    const flag = flags[i]!;
    // Keys in code-unit order, as the packer's canonical form has them.
    edges[i] = {
      bidirectional: (flag & 2) !== 0,
      edge_type: strings[type[i]!]!,
      extraction_method: strings[method[i]!] as GraphEdge['extraction_method'],
      from_node: f < n ? ids[f]! : strings[f - n]!,
      layer_violation: (flag & 1) !== 0,
      metadata: metadata[meta[i]!]!,
      source_file: s === 0 ? nodes[f]!.source_file : strings[s - 1]!,
      to_node: t < n ? ids[t]! : strings[t - n]!,
    };
    if (f < n) outgoing[f]!.push(i);
    if (t < n) incoming[t]!.push(i);
  }
  return { edges, outgoing, incoming };
}

function max(values: ArrayLike<number>): number {
  let top = 0;
  for (let i = 0; i < values.length; i++) if (values[i]! > top) top = values[i]!;
  return top;
}
