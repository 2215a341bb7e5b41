/**
 * QRY-001 RetrieveByGraph: the subgraph reachable from a root node within `depth` hops.
 */
import { isAgentEdge } from '../../model/enrichment.js';
import type { KddIndex } from '../kdd-index.js';
import type { GraphEdge, GraphNode, Kind } from '../../model/graph.js';
import { boolParam, enumParam, intParam, paramsObject, requireIndex, stringListParam, stringParam, type RawParams } from '../validate.js';
import type { ParamsSpec } from '../param-spec.js';
import { depthParam, includeImplicitParam, kindsParam, nodeRefParam, respectLayersParam } from './_params.js';
import { compareCodeUnits } from '../../model/order.js';
import { compareBySpecificity } from '../../model/edges.js';
import { edgeRef, nodeRef, type EdgeRef, type NodeRef } from './answer-shapes.js';
import { requireNode, resolveEdgeType } from './bundle-lookups.js';

export const GRAPH_DIRECTIONS = ['both', 'out', 'in'] as const;
export type GraphDirection = (typeof GRAPH_DIRECTIONS)[number];

/** QRY-001's parameters (validated below with these very objects; docs/queries.md). */
export const GRAPH_PARAMS = {
  root_node: nodeRefParam('The node to walk from.', ['node', 'node_id']),
  depth: depthParam(5, 2, 'Maximum hops from the root.'),
  edge_types: {
    type: 'list',
    code: 'INVALID_EDGE_TYPE',
    description: 'Edge types to follow, any case (ENTITY_RULE, EMITS, UC_APPLIES_RULE, WIKI_LINK…). Default: all.',
  },
  include_kinds: { ...kindsParam, description: 'Only return nodes of these kinds (the walk still passes through others). Default: all.' },
  direction: {
    type: 'enum',
    values: GRAPH_DIRECTIONS,
    required: false,
    default: 'both',
    caseInsensitive: true,
    description: '"out" follows the links the node makes, "in" the links pointing at it, "both" either way.',
  },
  respect_layers: respectLayersParam,
  include_implicit: includeImplicitParam,
} as const satisfies ParamsSpec;

export interface GraphParams {
  /** Id of the root node (`Entity:KDDDocument`). Required. */
  root_node: string;
  /** Maximum hops from the root. Default 2, range 1–5 (INVALID_DEPTH otherwise). */
  depth?: number;
  /** Edge types to follow, any case (`emits` = `EMITS`). Default: all. Unknown → INVALID_EDGE_TYPE. */
  edge_types?: readonly string[];
  /** Only nodes of these kinds are returned (the walk still passes through others). Default: all. */
  include_kinds?: readonly string[];
  /** When true (default), edges marked `layer_violation` are not followed (BR-LAYER-001). */
  respect_layers?: boolean;
  /**
   * Which way edges are walked (our extension). `both` (default) walks every edge either way;
   * `out`/`in` follow the stored direction, except that `bidirectional` edges (WIKI_LINK) are
   * navigable both ways, as GraphEdge defines them.
   */
  direction?: GraphDirection;
  /**
   * Follow the `IMPLICIT_*` edges an agent proposed (L3 enrichment, #9). Default true; they are
   * marked `implicit: true` in `edges` and `reached_via`.
   */
  include_implicit?: boolean;
}

export interface GraphCenterNode extends NodeRef {
  indexed_fields: GraphNode['indexed_fields'];
}

export interface GraphRelatedNode extends GraphCenterNode {
  /** Hops from the root (1…depth). */
  distance: number;
  /** The edge that first reached this node (most specific type when several join the same pair). */
  reached_via: EdgeRef;
}

export interface GraphResult {
  center_node: GraphCenterNode;
  /** Sorted by (distance, id). */
  related_nodes: GraphRelatedNode[];
  /** Every followable edge between returned nodes, in bundle order (from_node, to_node, edge_type). */
  edges: EdgeRef[];
  /** Returned nodes, the center included. */
  total_nodes: number;
  total_edges: number;
}

interface ResolvedGraphParams {
  root: number;
  depth: number;
  edgeTypes: ReadonlySet<string> | null;
  kinds: ReadonlySet<string> | null;
  respectLayers: boolean;
  direction: GraphDirection;
  includeImplicit: boolean;
}

export function graph(index: KddIndex, params: GraphParams | RawParams): GraphResult {
  const idx = requireIndex(index);
  const p = resolveParams(idx, params);
  const { nodes, edges } = idx.bundle;
  const reached = walk(idx, p);

  const related: GraphRelatedNode[] = [];
  for (const [position, via] of reached) {
    const node = nodes[position]!;
    if (p.kinds && !p.kinds.has(node.kind)) continue;
    related.push({ ...centerOf(node), distance: via.distance, reached_via: edgeRef(edges[via.edge]!) });
  }
  related.sort((a, b) => a.distance - b.distance || compareCodeUnits(a.id, b.id));

  const kept = new Set([p.root, ...related.map((r) => idx.nodeIndex.get(r.id)!)]);
  const subgraph = subgraphEdges(idx, kept, p).map((e) => edgeRef(edges[e]!));

  return {
    center_node: centerOf(nodes[p.root]!),
    related_nodes: related,
    edges: subgraph,
    total_nodes: related.length + 1,
    total_edges: subgraph.length,
  };
}

/**
 * Followable edges with both ends kept, in bundle order: the outgoing lists of the kept nodes hold
 * every such edge exactly once, so the answer costs their degree, not the whole edge list.
 */
function subgraphEdges(index: KddIndex, kept: ReadonlySet<number>, p: ResolvedGraphParams): number[] {
  const { edges, outgoing } = index.bundle;
  const found: number[] = [];
  for (const from of kept) {
    for (const e of outgoing[from] ?? []) {
      const edge = edges[e]!;
      if (!followable(edge, p)) continue;
      const to = index.nodeIndex.get(edge.to_node);
      if (to !== undefined && kept.has(to)) found.push(e);
    }
  }
  return found.sort((a, b) => a - b);
}

function resolveParams(index: KddIndex, raw: GraphParams | RawParams): ResolvedGraphParams {
  const params = paramsObject(raw);
  const P = GRAPH_PARAMS;
  const root = requireNode(index, stringParam(params, 'root_node', P.root_node));
  const edgeTypes = stringListParam(params, 'edge_types', P.edge_types).map((t) => resolveEdgeType(index, t));
  const kinds = stringListParam(params, 'include_kinds', P.include_kinds);
  return {
    root,
    depth: intParam(params, 'depth', P.depth),
    edgeTypes: edgeTypes.length ? new Set(edgeTypes) : null,
    kinds: kinds.length ? new Set<Kind | string>(kinds) : null,
    respectLayers: boolParam(params, 'respect_layers', P.respect_layers),
    direction: enumParam(params, 'direction', P.direction.values, P.direction),
    includeImplicit: boolParam(params, 'include_implicit', P.include_implicit),
  };
}

function centerOf(node: GraphNode): GraphCenterNode {
  return { ...nodeRef(node), indexed_fields: node.indexed_fields };
}

function followable(edge: GraphEdge, p: ResolvedGraphParams): boolean {
  if (p.respectLayers && edge.layer_violation) return false;
  if (!p.includeImplicit && isAgentEdge(edge)) return false;
  return !p.edgeTypes || p.edgeTypes.has(edge.edge_type);
}

/**
 * Level-by-level BFS. A node is reached at its shortest distance; among the edges that reach it at
 * that distance the most specific wins, then the smallest parent id, then bundle order — so the
 * answer never depends on visiting order.
 */
function walk(index: KddIndex, p: ResolvedGraphParams): Map<number, { distance: number; edge: number }> {
  const { edges, outgoing, incoming } = index.bundle;
  const reached = new Map<number, { distance: number; edge: number }>();
  const seen = new Set([p.root]);
  let frontier = [p.root];
  for (let distance = 1; distance <= p.depth && frontier.length > 0; distance++) {
    const best = new Map<number, { edge: number; parent: number }>();
    for (const parent of frontier) {
      const offer = (edge: number, neighbour: number | undefined) => {
        if (neighbour === undefined || seen.has(neighbour)) return;
        const current = best.get(neighbour);
        if (!current || better(edges, { edge, parent }, current)) best.set(neighbour, { edge, parent });
      };
      for (const e of outgoing[parent] ?? []) {
        const edge = edges[e]!;
        if (followable(edge, p) && (p.direction !== 'in' || edge.bidirectional)) offer(e, index.nodeIndex.get(edge.to_node));
      }
      for (const e of incoming[parent] ?? []) {
        const edge = edges[e]!;
        if (followable(edge, p) && (p.direction !== 'out' || edge.bidirectional)) offer(e, index.nodeIndex.get(edge.from_node));
      }
    }
    frontier = [...best.keys()].sort((a, b) => a - b);
    for (const node of frontier) {
      seen.add(node);
      reached.set(node, { distance, edge: best.get(node)!.edge });
    }
  }
  return reached;
}

function better(edges: readonly GraphEdge[], a: { edge: number; parent: number }, b: { edge: number; parent: number }): boolean {
  return (compareBySpecificity(edges[a.edge]!, edges[b.edge]!) || a.parent - b.parent || a.edge - b.edge) < 0;
}
