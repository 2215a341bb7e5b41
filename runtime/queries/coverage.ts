/**
 * QRY-005 RetrieveCoverage: which related artefacts KDD governance expects for a node's kind, and
 * which of them exist. The expectations are the `coverage` rows of the kind table (model/kinds.ts);
 * a kind without one answers UNKNOWN_KIND.
 */
import type { KddIndex } from '../kdd-index.js';
import { createError } from '../../model/errors.js';
import { kindSpec, type CoverageRule } from '../../model/kinds.js';
import { paramsObject, requireIndex, stringParam, type RawParams } from '../validate.js';
import type { ParamsSpec } from '../param-spec.js';
import { nodeRefParam } from './_params.js';
import { compareCodeUnits } from '../../model/order.js';
import { nodeRef, percent, type NodeRef } from './answer-shapes.js';
import { requireNode } from './bundle-lookups.js';

export interface CoverageParams {
  /** Id of the node to analyse. Required. */
  node_id: string;
}

/**
 * `covered`: the proving edge exists. `partial`: only a weaker link exists (another edge type, or
 * the opposite direction) to an artefact of the right kind. `missing`: nothing.
 */
export type CoverageStatus = 'covered' | 'partial' | 'missing';

export interface CoverageItem extends CoverageRule {
  status: CoverageStatus;
  /** Node ids that satisfy (or, for `partial`, hint at) the expectation, sorted. */
  found: string[];
}

export interface CoverageResult {
  analyzed_node: NodeRef;
  required: CoverageItem[];
  /** Expectations that are covered or partial. */
  present: number;
  missing: number;
  /** present / required × 100, one decimal. */
  coverage_percent: number;
}

/** QRY-005's parameters (validated below with these very objects; docs/queries.md). */
export const COVERAGE_PARAMS = { node_id: nodeRefParam('The node whose governance coverage is checked.') } as const satisfies ParamsSpec;

export function coverage(index: KddIndex, params: CoverageParams | RawParams): CoverageResult {
  const idx = requireIndex(index);
  const position = requireNode(idx, stringParam(paramsObject(params), 'node_id', COVERAGE_PARAMS.node_id));
  const node = idx.bundle.nodes[position]!;
  const rules = kindSpec(node.kind)?.coverage;
  if (!rules) throw createError('UNKNOWN_KIND', { kind: node.kind, detail: 'no coverage rules are defined for it' });

  const required = rules.map((r) => assess(idx, position, r));
  const present = required.filter((item) => item.status !== 'missing').length;
  return {
    analyzed_node: nodeRef(node),
    required,
    present,
    missing: required.length - present,
    coverage_percent: percent(present, required.length),
  };
}

function assess(index: KddIndex, position: number, r: CoverageRule): CoverageItem {
  const { nodes, edges, outgoing, incoming } = index.bundle;
  const strong = new Set<string>();
  const weak = new Set<string>();
  const consider = (edgeIds: readonly number[], direction: 'in' | 'out') => {
    for (const e of edgeIds) {
      const edge = edges[e]!;
      const otherId = direction === 'out' ? edge.to_node : edge.from_node;
      const other = nodes[index.nodeIndex.get(otherId) ?? -1];
      if (!other || other.id === nodes[position]!.id || !r.kinds.includes(other.kind)) continue;
      const proves = direction === r.direction && (r.edge_type === 'WIKI_LINK' || edge.edge_type === r.edge_type);
      (proves ? strong : weak).add(other.id);
    }
  };
  consider(outgoing[position] ?? [], 'out');
  consider(incoming[position] ?? [], 'in');
  const status: CoverageStatus = strong.size ? 'covered' : weak.size ? 'partial' : 'missing';
  const found = [...(strong.size ? strong : weak)].sort(compareCodeUnits);
  return { ...r, kinds: [...r.kinds], status, found };
}
