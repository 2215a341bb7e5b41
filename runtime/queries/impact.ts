/**
 * QRY-004 / UC-005 RetrieveImpact: what a change to a node affects.
 *
 * Dependency runs against the edges: a node that points AT the analysed node (a rule that
 * constrains an entity, a command that links to it) depends on it, so it is affected when the
 * analysed node changes. Only incoming edges propagate, whatever their `bidirectional` flag: a
 * WIKI_LINK says its author depends on the target, never the reverse (SCN-RetrieveImpact-002).
 * Feature files are not "affected": they are reported as scenarios to re-run (UC-005 step 6).
 */
import { IMPLICIT_EDGE_PREFIX, isAgentEdge, isImplicitEdgeType } from '../../model/enrichment.js';
import type { KddIndex } from '../kdd-index.js';
import type { GraphEdge, GraphNode, LayerViolation } from '../../model/graph.js';
import { boolParam, enumParam, intParam, paramsObject, requireIndex, stringParam, type RawParams } from '../validate.js';
import type { ParamsSpec } from '../param-spec.js';
import { depthParam, includeImplicitParam, nodeRefParam, respectLayersParam } from './_params.js';
import { compareCodeUnits } from '../../model/order.js';
import { compareBySpecificity, edgeRank, edgeTypeSpec } from '../../model/edges.js';
import { kindLabel } from '../../model/kinds.js';
import { implicitMark, nodeRef, type NodeRef } from './answer-shapes.js';
import { makeReferenceResolver, perBundle, requireNode } from './bundle-lookups.js';

export const CHANGE_TYPES = ['modify_attribute', 'add_attribute', 'remove', 'rename'] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];

/** QRY-004's parameters (validated below with these very objects; docs/queries.md). */
export const IMPACT_PARAMS = {
  node_id: nodeRefParam('The node that changes.'),
  change_type: {
    type: 'enum',
    values: CHANGE_TYPES,
    required: false,
    default: 'modify_attribute',
    code: 'INVALID_CHANGE_TYPE',
    description: 'Kind of change; it words each impact sentence.',
  },
  depth: depthParam(5, 3, 'Maximum propagation depth (hops).'),
  respect_layers: respectLayersParam,
  include_implicit: includeImplicitParam,
} as const satisfies ParamsSpec;

export interface ImpactParams {
  /** Id of the node to analyse (`Entity:KDDDocument`). Required. */
  node_id: string;
  /** Default `modify_attribute`; anything else → INVALID_CHANGE_TYPE. */
  change_type?: ChangeType;
  /** Maximum propagation depth. Default 3, range 1–5 (INVALID_DEPTH otherwise). */
  depth?: number;
  /**
   * When true (default, as in RetrievalQuery), impact does not propagate through edges marked
   * `layer_violation`; the violating edges met are reported in `layer_violations` instead
   * (RetrievalResult invariant). False follows them too and reports those on the paths.
   */
  respect_layers?: boolean;
  /** Propagate through the `IMPLICIT_*` edges an agent proposed (L3 enrichment, #9). Default true. */
  include_implicit?: boolean;
}

export interface DirectImpact extends NodeRef {
  /** The most specific type among the edges from this node to the analysed one. */
  edge_type: string;
  /** One sentence generated from the edge type and the change type. */
  impact: string;
  /** True when the edge is an agent's implicit relation (absent otherwise). */
  implicit?: true;
  /** The agent's confidence, with `implicit`. */
  confidence?: number;
}

export interface TransitiveImpact extends NodeRef {
  /** Hops from the analysed node (2…depth). */
  distance: number;
  /** Node ids from the analysed node to this one. */
  path: string[];
  /** Edge type of each hop of `path` (length = path.length − 1). */
  edge_types: string[];
  impact: string;
  /** True when any hop of `path` is an agent's implicit relation (absent otherwise). */
  implicit?: true;
}

export interface ScenarioToRerun {
  /** Path of the `.feature` file, relative to the specs root. */
  feature: string;
  feature_node: string;
  /** Scenario id (`SCN-IndexEntity-001`), or null when the whole feature validates an affected node. */
  scenario: string | null;
  /** Scenario name, or the feature title when `scenario` is null. */
  name: string;
  /** Affected (or analysed) node ids the scenario or feature validates. */
  validates: string[];
  reason: string;
}

export interface ImpactResult {
  analyzed_node: NodeRef;
  change_type: ChangeType;
  depth: number;
  /** Sorted by id. */
  directly_affected: DirectImpact[];
  /** Sorted by (distance, id). */
  transitively_affected: TransitiveImpact[];
  /** Sorted by (feature, position of the scenario in the file). */
  scenarios_to_rerun: ScenarioToRerun[];
  /**
   * UC-005: violations may reveal a wrong dependency. With `respect_layers` the violating edges met
   * (and not followed); without it, those on the reported paths. Sorted by (from, to, type).
   */
  layer_violations: LayerViolation[];
  /** True when dependents exist beyond `depth` (UC-005 FA-2). */
  truncated: boolean;
  total_directly_affected: number;
  total_transitively_affected: number;
  total_scenarios: number;
}

/** How a node was reached: its parent in the dependency tree and the edge from it to the parent. */
interface Reach {
  distance: number;
  parent: number;
  edge: number;
  /** Sum of edge ranks along the path: fewer generic hops = a more specific explanation. */
  cost: number;
}

export function impact(index: KddIndex, params: ImpactParams | RawParams): ImpactResult {
  const idx = requireIndex(index);
  const raw = paramsObject(params);
  const P = IMPACT_PARAMS;
  const analysed = requireNode(idx, stringParam(raw, 'node_id', P.node_id));
  const changeType = enumParam(raw, 'change_type', P.change_type.values, P.change_type);
  const depth = intParam(raw, 'depth', P.depth);
  const respectLayers = boolParam(raw, 'respect_layers', P.respect_layers);
  const includeImplicit = boolParam(raw, 'include_implicit', P.include_implicit);

  const { nodes, edges } = idx.bundle;
  const { reached, truncated, skipped } = propagate(idx, analysed, depth, respectLayers, includeImplicit);
  const direct: DirectImpact[] = [];
  const transitive: TransitiveImpact[] = [];
  const violations: LayerViolation[] = skipped.map((e) => violationOf(idx, edges[e]!));
  for (const [position, reach] of reached) {
    const node = nodes[position]!;
    const chain = chainOf(reached, analysed, position);
    const hops = chain.map((e) => edges[e]!);
    for (const hop of hops) if (hop.layer_violation) violations.push(violationOf(idx, hop));
    if (reach.distance === 1) {
      direct.push({ ...nodeRef(node), edge_type: hops[0]!.edge_type, impact: directSentence(idx, hops[0]!, changeType), ...implicitMark(hops[0]!) });
    } else {
      transitive.push({
        ...nodeRef(node),
        distance: reach.distance,
        path: [nodes[analysed]!.id, ...hops.map((h) => h.from_node)],
        edge_types: hops.map((h) => h.edge_type),
        impact: chainSentence(idx, hops),
        ...(hops.some(isAgentEdge) ? { implicit: true as const } : {}),
      });
    }
  }
  direct.sort((a, b) => compareCodeUnits(a.id, b.id));
  transitive.sort((a, b) => a.distance - b.distance || compareCodeUnits(a.id, b.id));
  const scenarios = scenariosToRerun(idx, new Set([analysed, ...reached.keys()]));

  return {
    analyzed_node: nodeRef(nodes[analysed]!),
    change_type: changeType,
    depth,
    directly_affected: direct,
    transitively_affected: transitive,
    scenarios_to_rerun: scenarios,
    layer_violations: uniqueViolations(violations),
    truncated,
    total_directly_affected: direct.length,
    total_transitively_affected: transitive.length,
    total_scenarios: scenarios.length,
  };
}

const isFeature = (node: GraphNode | undefined) => node?.kind === 'feature';

/**
 * Level-by-level reverse BFS over incoming edges. Each node keeps its shortest distance; ties are
 * broken by the most specific path (typed hops beat WIKI_LINK hops), then parent id, then edge.
 */
function propagate(
  index: KddIndex,
  analysed: number,
  depth: number,
  respectLayers: boolean,
  includeImplicit: boolean,
): { reached: Map<number, Reach>; truncated: boolean; skipped: number[] } {
  const { nodes, edges, incoming } = index.bundle;
  const reached = new Map<number, Reach>();
  const skipped: number[] = [];
  const costOf = (n: number) => reached.get(n)?.cost ?? 0;
  let frontier = [analysed];
  for (let distance = 1; distance <= depth && frontier.length > 0; distance++) {
    const best = new Map<number, Reach>();
    for (const parent of frontier) {
      for (const e of incoming[parent] ?? []) {
        const dependent = index.nodeIndex.get(edges[e]!.from_node);
        if (dependent === undefined || dependent === analysed || reached.has(dependent) || isFeature(nodes[dependent])) continue;
        if (!includeImplicit && isAgentEdge(edges[e]!)) continue;
        if (respectLayers && edges[e]!.layer_violation) {
          skipped.push(e);
          continue;
        }
        const offer: Reach = { distance, parent, edge: e, cost: costOf(parent) + edgeRank(edges[e]!.edge_type) };
        const current = best.get(dependent);
        if (!current || preferred(index, offer, current)) best.set(dependent, offer);
      }
    }
    frontier = [...best.keys()].sort((a, b) => a - b);
    for (const node of frontier) reached.set(node, best.get(node)!);
  }
  const truncated = frontier.some((node) =>
    (incoming[node] ?? []).some((e) => {
      const dependent = index.nodeIndex.get(edges[e]!.from_node);
      const followable = !(respectLayers && edges[e]!.layer_violation) && (includeImplicit || !isAgentEdge(edges[e]!));
      return followable && dependent !== undefined && dependent !== analysed && !reached.has(dependent) && !isFeature(nodes[dependent]);
    }),
  );
  return { reached, truncated, skipped };
}

function preferred(index: KddIndex, a: Reach, b: Reach): boolean {
  const { nodes, edges } = index.bundle;
  const order =
    a.cost - b.cost ||
    compareBySpecificity(edges[a.edge]!, edges[b.edge]!) ||
    compareCodeUnits(nodes[a.parent]!.id, nodes[b.parent]!.id) ||
    a.edge - b.edge;
  return order < 0;
}

/** Edge indices from the analysed node out to `position` (first hop first). */
function chainOf(reached: ReadonlyMap<number, Reach>, analysed: number, position: number): number[] {
  const chain: number[] = [];
  for (let at = position; at !== analysed; ) {
    const reach = reached.get(at)!;
    chain.unshift(reach.edge);
    at = reach.parent;
  }
  return chain;
}

// ── Sentences ───────────────────────────────────────────────────────────────────────────────

const ADVICE: Readonly<Record<ChangeType, string>> = {
  modify_attribute: 'review it against the modified attributes',
  add_attribute: 'check whether it should account for the new attribute',
  remove: 'its reference would dangle',
  rename: 'its links must follow the new name',
};

const verb = (edgeType: string) =>
  edgeTypeSpec(edgeType)?.verb ??
  (isImplicitEdgeType(edgeType) ? `probably ${edgeType.slice(IMPLICIT_EDGE_PREFIX.length).toLowerCase().replace(/_/g, ' ')} (implicit, agent-inferred)` : `is related to (${edgeType})`);
const label = (index: KddIndex, id: string) => index.bundle.nodes[index.nodeIndex.get(id)!]?.doc_id ?? id;

function directSentence(index: KddIndex, edge: GraphEdge, changeType: ChangeType): string {
  const from = index.bundle.nodes[index.nodeIndex.get(edge.from_node)!]!;
  return `${kindLabel(from.kind)} ${from.doc_id} ${verb(edge.edge_type)} ${label(index, edge.to_node)}: ${ADVICE[changeType]}`;
}

/** `Use case UC-001 applies BR-DOCUMENT-001, which constrains KDDDocument` (hops listed analysed-first). */
function chainSentence(index: KddIndex, hops: readonly GraphEdge[]): string {
  const last = hops[hops.length - 1]!;
  const from = index.bundle.nodes[index.nodeIndex.get(last.from_node)!]!;
  const clauses = [...hops].reverse().map((hop) => `${verb(hop.edge_type)} ${label(index, hop.to_node)}`);
  return `${kindLabel(from.kind)} ${from.doc_id} ${clauses.join(', which ')}`;
}

// ── Layer violations on the paths ───────────────────────────────────────────────────────────

function violationOf(index: KddIndex, edge: GraphEdge): LayerViolation {
  const layer = (id: string) => index.bundle.nodes[index.nodeIndex.get(id)!]!.layer;
  return {
    from_node: edge.from_node,
    to_node: edge.to_node,
    from_layer: layer(edge.from_node),
    to_layer: layer(edge.to_node),
    edge_type: edge.edge_type,
    source_file: edge.source_file,
  };
}

function uniqueViolations(list: readonly LayerViolation[]): LayerViolation[] {
  const key = (v: LayerViolation) => `${v.from_node}\u0000${v.to_node}\u0000${v.edge_type}`;
  const unique = new Map(list.map((v) => [key(v), v]));
  return [...unique.keys()].sort(compareCodeUnits).map((k) => unique.get(k)!);
}

// ── Scenarios (UC-005 step 6) ───────────────────────────────────────────────────────────────

interface ScenarioFields {
  id?: unknown;
  name?: unknown;
  tags?: unknown;
  links?: unknown;
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** A feature's scenarios with their references already resolved, and its rank in answer order. */
interface FeatureScenarios {
  position: number;
  /** Position in (source_file, id) order: the order answers list features in. */
  rank: number;
  scenarios: { id: string; name: string; targets: readonly number[] }[];
}

/**
 * Per bundle, once: every feature's scenarios with resolved references, and for each node the
 * features that can list it (a scenario reference or an outgoing edge reaches it). An impact
 * answer then visits only the features that touch its affected set, not every feature.
 */
const featureTables = perBundle((index) => {
  const { bundle } = index;
  const resolve = makeReferenceResolver(index);
  const positions = bundle.nodes.map((_, i) => i).filter((i) => isFeature(bundle.nodes[i]));
  positions.sort((a, b) => compareCodeUnits(bundle.nodes[a]!.source_file, bundle.nodes[b]!.source_file) || compareCodeUnits(bundle.nodes[a]!.id, bundle.nodes[b]!.id));
  const features: FeatureScenarios[] = [];
  const byTarget = new Map<number, number[]>();
  const touch = (target: number, feature: number) => {
    const list = byTarget.get(target);
    if (!list) byTarget.set(target, [feature]);
    else if (list[list.length - 1] !== feature) list.push(feature);
  };
  positions.forEach((position, rank) => {
    const feature = bundle.nodes[position]!;
    const raw = (Array.isArray(feature.indexed_fields.scenarios) ? feature.indexed_fields.scenarios : []) as ScenarioFields[];
    const scenarios = raw.map((scenario) => {
      const name = typeof scenario.name === 'string' ? scenario.name : '';
      const targets: number[] = [];
      for (const ref of [...strings(scenario.links), ...strings(scenario.tags)]) {
        const target = resolve(ref);
        if (target === undefined) continue;
        targets.push(target);
        touch(target, rank);
      }
      const id = typeof scenario.id === 'string' && scenario.id !== '' ? scenario.id : name;
      return { id, name, targets };
    });
    features.push({ position, rank, scenarios });
    for (const e of bundle.outgoing[position] ?? []) {
      const target = index.nodeIndex.get(bundle.edges[e]!.to_node);
      if (target !== undefined) touch(target, rank);
    }
  });
  return { features, byTarget };
});

/**
 * A scenario is listed when its own links, tags, or the feature edges extracted from it
 * (`metadata.section` = scenario name) reach an affected node; otherwise the whole feature is
 * listed when any of its edges does.
 */
function scenariosToRerun(index: KddIndex, targets: ReadonlySet<number>): ScenarioToRerun[] {
  const { nodes, edges, outgoing } = index.bundle;
  const { features, byTarget } = featureTables(index);
  const ranks = new Set<number>();
  for (const target of targets) for (const rank of byTarget.get(target) ?? []) ranks.add(rank);
  const out: ScenarioToRerun[] = [];
  for (const rank of [...ranks].sort((a, b) => a - b)) {
    const { position, scenarios } = features[rank]!;
    const feature = nodes[position]!;
    const hitEdges = (outgoing[position] ?? []).map((e) => edges[e]!).filter((edge) => targets.has(index.nodeIndex.get(edge.to_node) ?? -1));
    let listed = 0;
    for (const scenario of scenarios) {
      const hits = new Set<string>();
      for (const target of scenario.targets) if (targets.has(target)) hits.add(nodes[target]!.id);
      for (const edge of hitEdges) if (scenario.name !== '' && edge.metadata.section === scenario.name) hits.add(edge.to_node);
      if (hits.size === 0) continue;
      listed++;
      out.push(scenarioEntry(feature, scenario.id, scenario.name, hits));
    }
    if (listed === 0 && hitEdges.length > 0) {
      out.push(scenarioEntry(feature, null, feature.title, new Set(hitEdges.map((edge) => edge.to_node))));
    }
  }
  return out;
}

function scenarioEntry(feature: GraphNode, scenario: string | null, name: string, hits: ReadonlySet<string>): ScenarioToRerun {
  const validates = [...hits].sort(compareCodeUnits);
  const what = scenario === null ? 'The feature' : 'The scenario';
  return {
    feature: feature.source_file,
    feature_node: feature.id,
    scenario,
    name,
    validates,
    reason: `${what} validates ${validates.join(', ')}`,
  };
}
