/**
 * QRY-006 RetrieveLayerViolations: edges that go up the layer hierarchy (BR-LAYER-001).
 * The compiler precomputes the list (`bundle.layer_violations`); this query filters and explains it.
 */
import type { KddIndex } from '../kdd-index.js';
import type { LayerViolation } from '../../model/graph.js';
import type { ParamsSpec } from '../param-spec.js';
import { kindsParam, layersParam } from './_params.js';
import { paramsObject, requireIndex, stringListParam, type RawParams } from '../validate.js';
import { percent } from './answer-shapes.js';

export interface ViolationsParams {
  /** Keep violations whose source node has one of these kinds. Default: all. */
  include_kinds?: readonly string[];
  /** Keep violations whose source node is in one of these layers. Default: all. */
  include_layers?: readonly string[];
}

export interface ViolationEntry extends LayerViolation {
  /** Heading of the section the link was written in, when the compiler recorded it. */
  section: string | null;
  /** `01-domain should not reference 02-behavior`. */
  explanation: string;
}

export interface ViolationsResult {
  /** In bundle order: sorted by (from_node, to_node, edge_type). */
  violations: ViolationEntry[];
  total_violations: number;
  /** Every edge of the index (the rule is checked on all of them at build time). */
  total_edges_analyzed: number;
  /** total_violations / total_edges_analyzed × 100, one decimal (a percentage). */
  violation_rate: number;
}

/** QRY-006's parameters (validated below with these very objects; docs/queries.md). */
export const VIOLATIONS_PARAMS = {
  include_kinds: { ...kindsParam, description: 'Only violations whose source node has one of these kinds. Default: all.' },
  include_layers: { ...layersParam, description: 'Only violations whose source node is in one of these layers. Default: all.' },
} as const satisfies ParamsSpec;

export function violations(index: KddIndex, params: ViolationsParams | RawParams = {}): ViolationsResult {
  const idx = requireIndex(index);
  const raw = paramsObject(params);
  const kinds = new Set(stringListParam(raw, 'include_kinds', VIOLATIONS_PARAMS.include_kinds));
  const layers = new Set(stringListParam(raw, 'include_layers', VIOLATIONS_PARAMS.include_layers));
  const { nodes, edges, outgoing } = idx.bundle;

  const list: ViolationEntry[] = [];
  for (const v of idx.bundle.layer_violations) {
    const from = idx.nodeIndex.get(v.from_node);
    const kind = from === undefined ? undefined : nodes[from]!.kind;
    if (kinds.size && (kind === undefined || !kinds.has(kind))) continue;
    if (layers.size && !layers.has(v.from_layer)) continue;
    const edge = (from === undefined ? [] : outgoing[from] ?? [])
      .map((e) => edges[e]!)
      .find((e) => e.to_node === v.to_node && e.edge_type === v.edge_type);
    list.push({
      ...v,
      section: edge?.metadata.section ?? null,
      explanation: `${v.from_layer} should not reference ${v.to_layer}`,
    });
  }
  return {
    violations: list,
    total_violations: list.length,
    total_edges_analyzed: edges.length,
    violation_rate: percent(list.length, edges.length),
  };
}
