/**
 * Link stage: all DocumentRecords → the graph. Resolves every raw link, types the edges by the
 * kind table's rules, flags layer violations (BR-LAYER-001), adds implicit LAYER_DEPENDENCY edges,
 * and keeps unresolved links as dangling references. Pure: same records ⇒ same graph.
 */
import type { DanglingLink, GraphEdge, GraphNode, LayerViolation } from '../../runtime/model.js';
import { warning, type BuildWarning } from '../diagnostics.js';
import type { DocumentRecord, RawLink } from '../kinds/extract.js';
import { kindSpec } from '../kinds/table.js';
import { isLayerDependency, isLayerViolation } from './layers.js';
import { LinkResolver } from './resolve.js';

export interface Graph {
  /** Sorted by id. */
  nodes: GraphNode[];
  /** Sorted by (from_node, to_node, edge_type). */
  edges: GraphEdge[];
  dangling: DanglingLink[];
  layer_violations: LayerViolation[];
  warnings: BuildWarning[];
  /** L3: node id → agent summary (compiler/enrich/edges.ts); the pack stage makes it searchable. */
  enrichment_summaries?: Readonly<Record<string, string>>;
}

/** Records must come sorted by source path: on a duplicate id the first path wins. */
export function linkRecords(records: readonly DocumentRecord[]): Graph {
  const warnings: BuildWarning[] = [];
  const byId = new Map<string, DocumentRecord>();
  for (const record of records) {
    const existing = byId.get(record.node.id);
    if (existing) {
      warnings.push(warning('DUPLICATE_ID', { file: record.node.source_file, id: record.node.id, other: existing.node.source_file }));
    } else byId.set(record.node.id, record);
  }
  const kept = [...byId.values()].sort((a, b) => compare(a.node.id, b.node.id));
  const nodes = kept.map((record) => record.node);
  const resolver = new LinkResolver(nodes);
  const edges = new Map<string, GraphEdge>();
  const dangling = new Map<string, DanglingLink>();

  for (const { node, links } of kept) {
    for (const link of links) {
      if (!link.target) continue; // [[#Section]]: a reference inside the same document
      const resolution = resolver.resolve(link.target, node.domain, link.domain);
      if (!resolution) {
        if (link.origin === 'wiki') addDangling(dangling, node, link);
        continue;
      }
      if (resolution.others.length > 0) {
        warnings.push(warning('AMBIGUOUS_LINK', { file: node.source_file, target: link.target, candidates: [resolution.node, ...resolution.others].join(', '), chosen: resolution.node }));
      }
      const target = byId.get(resolution.node)!.node;
      if (target.id === node.id) continue;
      for (const edge of edgesForLink(node, target, link)) {
        const key = `${edge.from_node}\u0000${edge.to_node}\u0000${edge.edge_type}`;
        // Same edge found twice (an attribute type and a relations row): keep the one that says more.
        const existing = edges.get(key);
        if (!existing || Object.keys(edge.metadata).length > Object.keys(existing.metadata).length) edges.set(key, edge);
      }
    }
  }
  addLayerDependencies(edges, byId);
  const sortedEdges = [...edges.values()].sort(compareEdges);
  return {
    nodes,
    edges: sortedEdges,
    dangling: [...dangling.values()].sort((a, b) => compare(a.from_node, b.from_node) || compare(a.target, b.target)),
    layer_violations: layerViolations(sortedEdges, byId),
    warnings,
  };
}

function edgesForLink(from: GraphNode, to: GraphNode, link: RawLink): GraphEdge[] {
  const metadata: Record<string, string> = {};
  if (link.section) metadata.section = link.section;
  if (link.alias) metadata.display_alias = link.alias;
  if (link.anchor) metadata.anchor = link.anchor;
  const make = (edge_type: string, extraction_method: GraphEdge['extraction_method'], extra: Record<string, string> = {}, bidirectional = false): GraphEdge => ({
    from_node: from.id,
    to_node: to.id,
    edge_type,
    source_file: from.source_file,
    extraction_method,
    metadata: sortKeys({ ...metadata, ...extra }),
    layer_violation: isLayerViolation(from.layer, to.layer),
    bidirectional,
  });
  const edges: GraphEdge[] = [];
  const spec = kindSpec(from.kind);
  for (const rule of spec?.edges ?? []) {
    if (rule.in && !(link.field && rule.in.includes(link.field))) continue;
    if (rule.to && !rule.to.includes(to.kind)) continue;
    const extra: Record<string, string> = rule.type === 'DOMAIN_RELATION' && link.cardinality ? { cardinality: link.cardinality } : {};
    edges.push(make(rule.type, rule.in ? 'section_content' : 'wiki_link', extra));
  }
  if (link.relation) {
    edges.push(make(link.relation, 'section_content', link.cardinality ? { cardinality: link.cardinality } : {}));
  }
  if (link.domain) edges.push(make('CROSS_DOMAIN_REF', 'wiki_link', { domain: link.domain }));
  else if (link.origin === 'wiki' || edges.length === 0) edges.push(make('WIKI_LINK', 'wiki_link', {}, true));
  return edges;
}

/** One implicit edge per connected node pair that crosses layers downwards (04→03→02→01). */
function addLayerDependencies(edges: Map<string, GraphEdge>, byId: ReadonlyMap<string, DocumentRecord>): void {
  const pairs = new Set<string>();
  for (const edge of [...edges.values()]) {
    const pair = `${edge.from_node}\u0000${edge.to_node}`;
    if (pairs.has(pair)) continue;
    pairs.add(pair);
    const from = byId.get(edge.from_node)!.node;
    const to = byId.get(edge.to_node)!.node;
    if (!isLayerDependency(from.layer, to.layer)) continue;
    edges.set(`${pair}\u0000LAYER_DEPENDENCY`, {
      from_node: from.id,
      to_node: to.id,
      edge_type: 'LAYER_DEPENDENCY',
      source_file: from.source_file,
      extraction_method: 'implicit',
      metadata: { from_layer: from.layer, to_layer: to.layer },
      layer_violation: false,
      bidirectional: false,
    });
  }
}

function addDangling(dangling: Map<string, DanglingLink>, node: GraphNode, link: RawLink): void {
  const target = link.domain ? `${link.domain}::${link.target}` : link.target!;
  const key = `${node.id}\u0000${target}`;
  if (!dangling.has(key)) dangling.set(key, { from_node: node.id, target, source_file: node.source_file, section: link.section });
}

function layerViolations(edges: readonly GraphEdge[], byId: ReadonlyMap<string, DocumentRecord>): LayerViolation[] {
  return edges
    .filter((edge) => edge.layer_violation)
    .map((edge) => ({
      from_node: edge.from_node,
      to_node: edge.to_node,
      from_layer: byId.get(edge.from_node)!.node.layer,
      to_layer: byId.get(edge.to_node)!.node.layer,
      edge_type: edge.edge_type,
      source_file: edge.source_file,
    }));
}

/** Code-unit order, not locale order: the same on every machine. */
export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function compareEdges(a: GraphEdge, b: GraphEdge): number {
  return compare(a.from_node, b.from_node) || compare(a.to_node, b.to_node) || compare(a.edge_type, b.edge_type);
}

function sortKeys(record: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => compare(a, b)));
}
