/**
 * QRY-005 RetrieveCoverage: which related artefacts KDD governance expects for a node's kind, and
 * which of them exist. The expectations are one declarative table, {@link COVERAGE_RULES}.
 */
import type { KddIndex } from '../kdd-index.js';
import { createError } from '../../model/errors.js';
import { KINDS, type Kind } from '../../model/graph.js';
import { paramsObject, requireIndex, stringParam, type RawParams } from '../validate.js';
import type { ParamsSpec } from '../param-spec.js';
import { nodeRefParam } from './_params.js';
import { compareCodeUnits } from '../../model/order.js';
import { nodeRef, percent, type NodeRef } from './answer-shapes.js';
import { requireNode } from './bundle-lookups.js';

export interface CoverageRule {
  /** snake_case name of the expectation (`events`, `business_rules`). */
  category: string;
  description: string;
  /** The edge that proves the relation. `WIKI_LINK` means any link between the two counts. */
  edge_type: string;
  /** `out`: the analysed node points at the artefact; `in`: the artefact points at the node. */
  direction: 'in' | 'out';
  /** Kinds of artefact that satisfy the expectation. */
  kinds: readonly Kind[];
}

const ENTITY_LIKE: readonly Kind[] = ['entity', 'role', 'system'];
const RULES: readonly Kind[] = ['business-rule', 'business-policy', 'cross-policy'];
const rule = (category: string, description: string, edge_type: string, direction: 'in' | 'out', kinds: readonly Kind[]): CoverageRule => ({
  category,
  description,
  edge_type,
  direction,
  kinds,
});

const tracedBy = rule('requirements', 'Traced by at least one requirement', 'REQ_TRACES_TO', 'in', ['requirement']);
const validatedBy = rule('features', 'Validated by at least one BDD feature', 'VALIDATES', 'in', ['feature']);
const referencedByUseCase = rule('use_cases', 'Referenced by at least one use case', 'WIKI_LINK', 'in', ['use-case']);

/**
 * What each kind should be connected to (QRY-005 Purpose and example; edge types from GraphEdge).
 * Kinds missing here (prd, nfr, glossary, release, value-unit) answer UNKNOWN_KIND.
 */
export const COVERAGE_RULES: Readonly<Partial<Record<Kind, readonly CoverageRule[]>>> = {
  entity: [
    rule('events', 'At least one domain event', 'EMITS', 'out', ['event']),
    rule('business_rules', 'At least one business rule', 'ENTITY_RULE', 'in', ['business-rule']),
    referencedByUseCase,
    tracedBy,
  ],
  role: [referencedByUseCase],
  system: [referencedByUseCase],
  event: [rule('producers', 'Emitted by at least one entity, command or process', 'EMITS', 'in', [...ENTITY_LIKE, 'command', 'process'])],
  'business-rule': [
    rule('entities', 'Constrains at least one entity', 'ENTITY_RULE', 'out', ENTITY_LIKE),
    rule('use_cases', 'Applied by at least one use case', 'UC_APPLIES_RULE', 'in', ['use-case']),
    validatedBy,
  ],
  'business-policy': [
    rule('entities', 'Governs at least one entity', 'ENTITY_POLICY', 'out', ENTITY_LIKE),
    rule('use_cases', 'Applied by at least one use case', 'UC_APPLIES_RULE', 'in', ['use-case']),
  ],
  'cross-policy': [rule('use_cases', 'Applied by at least one use case', 'UC_APPLIES_RULE', 'in', ['use-case'])],
  command: [
    rule('events', 'Emits at least one event', 'EMITS', 'out', ['event']),
    rule('use_cases', 'Executed by at least one use case', 'UC_EXECUTES_CMD', 'in', ['use-case']),
    tracedBy,
    validatedBy,
  ],
  query: [rule('use_cases', 'Executed by at least one use case', 'UC_EXECUTES_CMD', 'in', ['use-case']), tracedBy, validatedBy],
  process: [
    rule('events', 'Emits or consumes at least one event', 'WIKI_LINK', 'out', ['event']),
    rule('use_cases', 'Orchestrates at least one use case', 'WIKI_LINK', 'out', ['use-case']),
  ],
  'use-case': [
    rule('commands', 'Executes at least one command', 'UC_EXECUTES_CMD', 'out', ['command', 'query']),
    rule('business_rules', 'Applies at least one business rule', 'UC_APPLIES_RULE', 'out', RULES),
    tracedBy,
    validatedBy,
  ],
  'ui-view': [rule('use_cases', 'Triggers at least one use case', 'VIEW_TRIGGERS_UC', 'out', ['use-case'])],
  'ui-component': [
    rule('entities', 'Displays at least one entity', 'COMPONENT_USES_ENTITY', 'out', ENTITY_LIKE),
    rule('views', 'Used by at least one view', 'VIEW_USES_COMPONENT', 'in', ['ui-view']),
  ],
  'ui-flow': [rule('use_cases', 'Triggers at least one use case', 'VIEW_TRIGGERS_UC', 'out', ['use-case'])],
  requirement: [
    rule('traces', 'Traces to at least one use case, rule or command', 'REQ_TRACES_TO', 'out', ['use-case', ...RULES, 'command', 'query']),
    validatedBy,
  ],
  objective: [rule('use_cases', 'Realised by at least one use case', 'UC_STORY', 'in', ['use-case'])],
  adr: [rule('decisions', 'Decides for at least one artefact', 'DECIDES_FOR', 'out', KINDS)],
  feature: [rule('validates', 'Validates at least one use case, rule, command or requirement', 'VALIDATES', 'out', ['use-case', ...RULES, 'command', 'query', 'requirement'])],
};

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
  const rules = COVERAGE_RULES[node.kind];
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
