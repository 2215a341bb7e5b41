/**
 * Graph integration of L3 enrichments (CMD-003 postconditions, #9), pure functions the build calls
 * right after the link stage:
 *
 * - {@link enrichmentEdges}: implicit relations → `IMPLICIT_<TYPE>` edges, `extraction_method:
 *   'implicit'`, metadata `confidence`/`evidence`/`relation`. They never join an authored edge
 *   (different type) and never count as layer violations: BR-LAYER-001 judges what authors wrote.
 * - {@link applyEnrichments}: adds them to a linked graph and records the summaries that the pack
 *   stage turns into a searchable section. Graph nodes are left untouched (the `.kdd-index/` node
 *   files stay a function of the specs alone).
 * - An enrichment whose `source_hash` no longer matches its node is stale and ignored silently
 *   (`kdd enrich --all --changed` refreshes those).
 */
import { createHash } from 'node:crypto';
import { ENRICHMENT_SECTION_FIELD, ENRICHMENT_SECTION_HEADING, implicitEdgeType } from '../../model/enrichment.js';
import type { GraphEdge, GraphNode, IndexManifest } from '../../model/graph.js';
import { warning, type BuildWarning } from '../diagnostics.js';
import { stableJson } from '../../formats/canonical.js';
import type { Graph } from '../graph/link.js';
import { compareEdgeKeys } from '../../model/edges.js';
import { enrichmentFileName, ENRICHMENTS_DIR, type Enrichment, type EnrichmentSet } from './artifact.js';

/**
 * The edges of current enrichments. Enrichments of unknown nodes, stale ones (source hash moved)
 * and relations to nodes that no longer exist give no edge. Sorted like the graph's edges.
 */
export function enrichmentEdges(enrichments: readonly Enrichment[], nodes: readonly GraphNode[]): GraphEdge[] {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  return current(enrichments, byId)
    .flatMap(({ enrichment, node }) => edgesOf(enrichment, node, byId))
    .sort(compareEdgeKeys);
}

export interface AppliedEnrichments {
  /** The linked graph plus agent edges (sorted) and `enrichment_summaries`. */
  graph: Graph;
  /** The enrichments in effect (current for their node), sorted by node id. */
  applied: Enrichment[];
  warnings: BuildWarning[];
}

export function applyEnrichments(graph: Graph, set: EnrichmentSet | undefined): AppliedEnrichments {
  if (!set || (set.enrichments.length === 0 && set.warnings.length === 0)) return { graph, applied: [], warnings: [] };
  const byId = new Map(graph.nodes.map((node) => [node.id, node]));
  const warnings = [...set.warnings];
  for (const enrichment of set.enrichments) {
    if (!byId.has(enrichment.node_id)) warnings.push(ignored(enrichment, `node ${enrichment.node_id} is not in the index`));
  }
  const live = current(set.enrichments, byId);
  const extra: GraphEdge[] = [];
  for (const { enrichment, node } of live) {
    for (const relation of enrichment.implicit_relations) {
      if (!byId.has(relation.target)) warnings.push(ignored(enrichment, `relation to ${relation.target}, which is not in the index`));
    }
    extra.push(...edgesOf(enrichment, node, byId));
  }
  if (live.length === 0) return { graph, applied: [], warnings };
  const summaries: Record<string, string> = {};
  for (const { enrichment } of live) summaries[enrichment.node_id] = enrichment.summary;
  return {
    graph: { ...graph, edges: [...graph.edges, ...extra].sort(compareEdgeKeys), enrichment_summaries: summaries },
    applied: live.map(({ enrichment }) => enrichment),
    warnings,
  };
}

/**
 * `stats.enrichments` (CMD-003) and `enrichments` (node id → digest of what was applied): the
 * digest makes an incremental build see a changed summary even when no edge changed, so it repacks.
 */
export function enrichManifest(manifest: IndexManifest, applied: readonly Enrichment[]): IndexManifest {
  if (applied.length === 0) return manifest;
  const digests: Record<string, string> = {};
  for (const enrichment of applied) digests[enrichment.node_id] = createHash('sha256').update(stableJson(enrichment)).digest('hex').slice(0, 16);
  return { ...manifest, stats: { ...manifest.stats, enrichments: applied.length }, enrichments: digests };
}

/**
 * Pack-stage view of the nodes: each enriched node gains a last section holding the agent's
 * summary (field `enrichment`), so the text index finds it. Appended last, so the chunk ids of
 * the authored sections (and their L2 vectors) do not move; `enrichment` is not an embedded field.
 */
export function withEnrichmentSections(nodes: readonly GraphNode[], summaries: Readonly<Record<string, string>> | undefined): GraphNode[] {
  if (!summaries) return nodes as GraphNode[];
  return nodes.map((node) => {
    const summary = Object.prototype.hasOwnProperty.call(summaries, node.id) ? summaries[node.id] : undefined;
    if (summary === undefined) return node;
    return { ...node, sections: [...node.sections, { heading: ENRICHMENT_SECTION_HEADING, depth: 2, field: ENRICHMENT_SECTION_FIELD, text: summary }] };
  });
}

function current(enrichments: readonly Enrichment[], byId: ReadonlyMap<string, GraphNode>): { enrichment: Enrichment; node: GraphNode }[] {
  const out: { enrichment: Enrichment; node: GraphNode }[] = [];
  for (const enrichment of enrichments) {
    const node = byId.get(enrichment.node_id);
    if (node && node.source_hash === enrichment.source_hash) out.push({ enrichment, node });
  }
  return out;
}

function edgesOf(enrichment: Enrichment, node: GraphNode, ids: ReadonlyMap<string, GraphNode>): GraphEdge[] {
  const edges = new Map<string, GraphEdge>();
  for (const relation of enrichment.implicit_relations) {
    if (!ids.has(relation.target) || relation.target === node.id) continue;
    const edge: GraphEdge = {
      from_node: node.id,
      to_node: relation.target,
      edge_type: implicitEdgeType(relation.relation_type),
      source_file: node.source_file,
      extraction_method: 'implicit',
      metadata: { confidence: relation.confidence.toFixed(2), evidence: relation.evidence, relation: relation.relation_type },
      layer_violation: false,
      bidirectional: false,
    };
    const key = `${edge.to_node}\u0000${edge.edge_type}`;
    const old = edges.get(key);
    if (!old || Number(old.metadata.confidence) < relation.confidence) edges.set(key, edge);
  }
  return [...edges.values()].sort(compareEdgeKeys);
}

function ignored(enrichment: Enrichment, detail: string): BuildWarning {
  return warning('ENRICHMENT_IGNORED', { file: `${ENRICHMENTS_DIR}/${enrichmentFileName(enrichment.node_id)}`, detail });
}
