/**
 * Link stage: all DocumentRecords → the graph. Resolves every raw link, types the edges by the
 * kind table's rules, flags layer violations (BR-LAYER-001), adds implicit LAYER_DEPENDENCY edges,
 * and keeps unresolved links as dangling references. Pure: same records ⇒ same graph.
 */
import type { DanglingLink, DanglingOccurrence, GraphEdge, GraphNode, LayerViolation } from '../../model/graph.js';
import { warning, type BuildWarning } from '../diagnostics.js';
import type { DocumentRecord, RawLink } from '../../model/records.js';
import { canonical } from '../../formats/canonical.js';
import { kindSpec } from '../../model/kinds.js';
import { compareCodeUnits } from '../../model/order.js';
import { isLayerViolation, layerDependencyEdge } from './layers.js';
import { LinkResolver } from './resolve.js';

export interface Graph {
  /** Sorted by id. */
  nodes: GraphNode[];
  /** Sorted by (from_node, to_node, edge_type). */
  edges: GraphEdge[];
  dangling: DanglingLink[];
  /**
   * Bare ids (Gherkin) that resolve to no node, grouped like `dangling`: never reported, but kept so
   * that a merge of bundles, which have no raw links, resolves them as a merge of indexes does.
   */
  unresolved_ids: DanglingLink[];
  layer_violations: LayerViolation[];
  warnings: BuildWarning[];
  /** L3: node id → agent summary (compiler/enrich/edges.ts); the pack stage makes it searchable. */
  enrichment_summaries?: Readonly<Record<string, string>>;
}

/**
 * Records must come sorted by source path. On a duplicate id the established document keeps it
 * (docs/integrity.md): the file with the oldest commit in `firstCommitTimes` (path → ISO time, from
 * git), a committed file before one never committed, then the first path. A file added later can
 * therefore never take over a node, and the choice depends on the tree and its history only, so an
 * incremental build and a full one agree. The DUPLICATE_ID warning names the file that lost.
 */
export function linkRecords(records: readonly DocumentRecord[], firstCommitTimes: ReadonlyMap<string, string> = new Map()): Graph {
  const warnings: BuildWarning[] = [];
  const byId = new Map<string, DocumentRecord>();
  for (const record of records) {
    const existing = byId.get(record.node.id);
    if (!existing) {
      byId.set(record.node.id, record);
      continue;
    }
    const [winner, loser] = olderFirst(record, existing, firstCommitTimes) ? [record, existing] : [existing, record];
    byId.set(record.node.id, winner);
    warnings.push(warning('DUPLICATE_ID', { file: loser.node.source_file, id: record.node.id, other: winner.node.source_file }));
  }
  const kept = [...byId.values()].sort((a, b) => compareCodeUnits(a.node.id, b.node.id));
  const resolver = new LinkResolver(kept.map((record) => record.node));
  const edges: GraphEdge[] = [];
  const unresolved = newUnresolved();
  for (const record of kept) edges.push(...linkNode(record, resolver, byId, unresolved, warnings));
  return graphOf(kept, byId, edges, unresolved, warnings);
}

/** Whether `a` is older than `b`, which comes first in path order: only an older commit beats that. */
function olderFirst(a: DocumentRecord, b: DocumentRecord, firstCommitTimes: ReadonlyMap<string, string>): boolean {
  const [x, y] = [firstCommitTimes.get(a.node.source_file), firstCommitTimes.get(b.node.source_file)];
  return x !== undefined && (y === undefined || x < y);
}

/**
 * {@link linkRecords} after an edit that changed links only: `previous` is the graph of records
 * with the same nodes (ids, titles, aliases, kinds, layers, files: the same resolver) and the same
 * links except those of the nodes in `changed`. Only those are linked again; every other node keeps
 * its edges, dangling links and warnings. Equal to `linkRecords(records)`.
 */
export function relinkRecords(records: readonly DocumentRecord[], previous: Graph, changed: ReadonlySet<string>): Graph {
  const byId = new Map(records.map((record) => [record.node.id, record]));
  const kept = [...byId.values()].sort((a, b) => compareCodeUnits(a.node.id, b.node.id));
  const resolver = new LinkResolver(kept.map((record) => record.node));
  const edgesOf = groupBy(previous.edges, (edge) => edge.from_node);
  const danglingOf = groupBy(previous.dangling, (link) => link.from_node);
  const unresolvedIdsOf = groupBy(previous.unresolved_ids, (link) => link.from_node);
  const warningsOf = groupBy(previous.warnings, (w) => w.file);
  const edges: GraphEdge[] = [];
  const unresolved = newUnresolved();
  const warnings: BuildWarning[] = [];
  for (const record of kept) {
    const { node } = record;
    if (changed.has(node.id)) {
      edges.push(...linkNode(record, resolver, byId, unresolved, warnings));
      continue;
    }
    edges.push(...(edgesOf.get(node.id) ?? []));
    for (const link of danglingOf.get(node.id) ?? []) unresolved.wiki.set(danglingKey(node.id, link.target), link);
    for (const link of unresolvedIdsOf.get(node.id) ?? []) unresolved.id.set(danglingKey(node.id, link.target), link);
    warnings.push(...(warningsOf.get(node.source_file) ?? []));
  }
  return graphOf(kept, byId, edges, unresolved, warnings);
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/**
 * One node's edges, in (to_node, edge_type) order; its dangling links and warnings go to the maps.
 * Nodes are visited in id order and every edge leaves the node being visited, so concatenating the
 * nodes' lists yields the global (from, to, type) order directly.
 */
function linkNode(record: DocumentRecord, resolver: LinkResolver, byId: ReadonlyMap<string, DocumentRecord>, unresolved: Unresolved, warnings: BuildWarning[]): GraphEdge[] {
  const { node, links } = record;
  const own: GraphEdge[] = [];
  for (const link of links) {
    if (!link.target) continue; // [[#Section]]: a reference inside the same document
    const resolution = resolver.resolve(link.target, node.domain, link.domain);
    if (!resolution) {
      addUnresolved(unresolved[link.origin], node, link);
      continue;
    }
    if (resolution.others.length > 0) {
      warnings.push(warning('AMBIGUOUS_LINK', { file: node.source_file, target: link.target, candidates: [resolution.node, ...resolution.others].join(', '), chosen: resolution.node }));
    }
    const target = byId.get(resolution.node)!.node;
    if (target.id === node.id) continue;
    addEdgesForLink(own, node, target, link);
  }
  return withLayerDependencies(dedupe(own), byId);
}

function graphOf(kept: readonly DocumentRecord[], byId: ReadonlyMap<string, DocumentRecord>, edges: GraphEdge[], unresolved: Unresolved, warnings: BuildWarning[]): Graph {
  const sorted = (links: ReadonlyMap<string, DanglingLink>) => [...links.values()].sort((a, b) => compareCodeUnits(a.from_node, b.from_node) || compareCodeUnits(a.target, b.target));
  return {
    nodes: kept.map((record) => record.node),
    edges,
    dangling: sorted(unresolved.wiki),
    unresolved_ids: sorted(unresolved.id),
    layer_violations: layerViolations(edges, byId),
    warnings,
  };
}

/** Edges of one link, appended to `out` in the order the rules produce them. */
function addEdgesForLink(out: GraphEdge[], from: GraphNode, to: GraphNode, link: RawLink): void {
  const layerViolation = isLayerViolation(from.layer, to.layer);
  const make = (edge_type: string, extraction_method: GraphEdge['extraction_method'], extra: Extra | null, bidirectional = false): GraphEdge => ({
    from_node: from.id,
    to_node: to.id,
    edge_type,
    source_file: from.source_file,
    extraction_method,
    metadata: linkMetadata(link, extra),
    layer_violation: layerViolation,
    bidirectional,
  });
  const first = out.length;
  const spec = kindSpec(from.kind);
  for (const rule of spec?.edges ?? []) {
    if (rule.in && !(link.field && rule.in.includes(link.field))) continue;
    if (rule.to && !rule.to.includes(to.kind)) continue;
    const extra: Extra | null = rule.type === 'DOMAIN_RELATION' && link.cardinality ? { cardinality: link.cardinality } : null;
    out.push(make(rule.type, rule.in ? 'section_content' : 'wiki_link', extra));
  }
  if (link.relation) {
    out.push(make(link.relation, 'section_content', link.cardinality ? { cardinality: link.cardinality } : null));
  }
  if (link.domain) out.push(make('CROSS_DOMAIN_REF', 'wiki_link', { domain: link.domain }));
  else if (link.origin === 'wiki' || out.length === first) out.push(make('WIKI_LINK', 'wiki_link', null, true));
}

type Extra = { cardinality: string } | { domain: string };

/** The edge metadata with its keys already in sorted order (anchor, cardinality, display_alias, domain, section). */
function linkMetadata(link: RawLink, extra: Extra | null): Record<string, string> {
  const metadata: Record<string, string> = {};
  if (link.anchor) metadata.anchor = link.anchor;
  if (extra && 'cardinality' in extra) metadata.cardinality = extra.cardinality;
  if (link.alias) metadata.display_alias = link.alias;
  if (extra && 'domain' in extra) metadata.domain = extra.domain;
  if (link.section) metadata.section = link.section;
  return metadata;
}

/**
 * One node's edges sorted by (to_node, edge_type), one per key. The same edge found twice (an
 * attribute type and a relations row): keep the one that says more, the first on a tie.
 */
function dedupe(own: GraphEdge[]): GraphEdge[] {
  if (own.length < 2) return own;
  const sorted = own.map((edge, i) => [edge, i] as const).sort(([a, i], [b, j]) => compareCodeUnits(a.to_node, b.to_node) || compareCodeUnits(a.edge_type, b.edge_type) || i - j);
  const out: GraphEdge[] = [];
  for (const [edge] of sorted) {
    const last = out[out.length - 1];
    if (!last || last.to_node !== edge.to_node || last.edge_type !== edge.edge_type) out.push(edge);
    else if (metadataSize(edge) > metadataSize(last)) out[out.length - 1] = edge;
  }
  return out;
}

const metadataSize = (edge: GraphEdge) => Object.keys(edge.metadata).length;

/**
 * Adds one implicit edge per connected pair that crosses layers downwards (04→03→02→01), replacing
 * any edge of that key, and keeps the (to_node, edge_type) order of a deduplicated edge list.
 */
function withLayerDependencies(own: GraphEdge[], byId: ReadonlyMap<string, DocumentRecord>): GraphEdge[] {
  if (own.length === 0) return own;
  const from = byId.get(own[0]!.from_node)!.node;
  const out: GraphEdge[] = [];
  for (let start = 0; start < own.length; ) {
    let end = start;
    while (end < own.length && own[end]!.to_node === own[start]!.to_node) end++;
    const to = byId.get(own[start]!.to_node)!.node;
    const implicit = layerDependencyEdge(from, to);
    if (!implicit) out.push(...own.slice(start, end));
    else {
      const group = own.slice(start, end).filter((edge) => edge.edge_type !== 'LAYER_DEPENDENCY');
      const at = group.findIndex((edge) => compareCodeUnits(edge.edge_type, 'LAYER_DEPENDENCY') > 0);
      group.splice(at < 0 ? group.length : at, 0, implicit);
      out.push(...group);
    }
    start = end;
  }
  return out;
}

const danglingKey = (from: string, target: string) => `${from}\u0000${target}`;

/** Links that resolve to no node, by origin, one entry per (node, target): wiki-links are the dangling ones. */
type Unresolved = Record<RawLink['origin'], Map<string, DanglingLink>>;
const newUnresolved = (): Unresolved => ({ wiki: new Map(), id: new Map() });

function addUnresolved(dangling: Map<string, DanglingLink>, node: GraphNode, link: RawLink): void {
  const target = link.domain ? `${link.domain}::${link.target}` : link.target!;
  const key = danglingKey(node.id, target);
  const occurrence: DanglingOccurrence = { anchor: link.anchor, alias: link.alias, field: link.field, section: link.section };
  if (link.relation !== undefined) occurrence.relation = link.relation;
  if (link.cardinality !== undefined) occurrence.cardinality = link.cardinality;
  const entry = dangling.get(key);
  if (entry) entry.links!.push(occurrence);
  else dangling.set(key, { from_node: node.id, target, source_file: node.source_file, section: link.section, links: [occurrence] });
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

/**
 * Whether two records give {@link linkRecords} the same input: it reads these node fields and the
 * raw links, nothing else (not the text). Records that all compare equal link to the same graph, so
 * an edit to a document's prose leaves the edge files as they are.
 */
export function sameLinkInputs(a: DocumentRecord, b: DocumentRecord): boolean {
  if (a === b) return true;
  // Links read back from node files have sorted keys, fresh ones the extractor's order.
  return sameNodeEntry(a, b) && JSON.stringify(canonical(a.links)) === JSON.stringify(canonical(b.links));
}

/** Whether two records give the link stage the same node (what links resolve to and edges carry). */
export function sameNodeEntry(a: DocumentRecord, b: DocumentRecord): boolean {
  if (a === b) return true;
  const x = a.node;
  const y = b.node;
  return (
    x.id === y.id &&
    x.doc_id === y.doc_id &&
    x.title === y.title &&
    x.source_file === y.source_file &&
    x.domain === y.domain &&
    x.kind === y.kind &&
    x.layer === y.layer &&
    JSON.stringify(x.aliases) === JSON.stringify(y.aliases)
  );
}

