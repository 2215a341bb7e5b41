/**
 * Merge (UC-006, CMD-004, BR-MERGE-001): several developers' indexes → one index. Pure: inputs and
 * outputs are in memory, and the result does not depend on the order of the inputs.
 *
 * - A node present in one input is copied; equal `source_hash` everywhere is one node.
 * - Different `source_hash` is a conflict: last-write-wins on `indexed_at` (git commit time), ties
 *   broken by the higher `source_hash`, then the higher `source_file`, so every machine agrees.
 * - A tombstone for the id in any input deletes the node (delete-wins), with a warning when a
 *   surviving version was committed after the deletion.
 * - The graph is re-linked from the winners' raw links, so edges are the union the winners make,
 *   edges of deleted nodes go away, and dangling links that another input defines now resolve.
 *
 * Bundle inputs carry resolved edges and unresolved links but no raw links: their edges are kept as
 * they are (for the winning version), their unresolved links are linked again from every link as
 * written, so bundles and `.kdd-index/` folders of the same content merge alike. See
 * docs/distributed.md.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Bundle } from '../../formats/bundle/types.js';
import { createError } from '../../model/errors.js';
import type { DanglingLink, GraphEdge, GraphNode, IndexManifest } from '../../model/graph.js';
import { INDEX_FORMAT_VERSION, makeManifest } from '../manifest.js';
import { stableJson } from '../../formats/canonical.js';
import { sortTombstones, type IndexContent, type Tombstone } from '../emit/tombstones.js';
import { now, type DomainEvent } from '../events.js';
import { isLayerViolation, layerDependencyEdge } from '../graph/layers.js';
import { compare, compareEdges, linkRecords, type Graph } from '../graph/link.js';
import type { DocumentRecord, RawLink } from '../../model/records.js';

export type ConflictStrategy = 'last_write_wins' | 'fail_on_conflict';
export const CONFLICT_STRATEGIES: readonly ConflictStrategy[] = ['last_write_wins', 'fail_on_conflict'];

/** One index to merge. `.kdd-index/` folders and git refs give records with raw links. */
export interface MergeSource extends IndexContent {
  /** Where it came from, for reports: a folder, `git:REF`, a bundle file. */
  source: string;
  /** Bundle inputs only: the packed edges (bundles have no raw links to re-link from). */
  edges?: GraphEdge[];
  /** True when the records came from a cache rather than the artifacts themselves (reports only). */
  cached?: boolean;
}

export interface MergeOptions {
  /** Default `last_write_wins`. */
  strategy?: ConflictStrategy;
  /** `requested_by` of EVT-Index-MergeRequested. */
  requestedBy?: string | null;
}

export interface NodeVersion {
  source: string;
  source_file: string;
  source_hash: string;
  indexed_at: string | null;
}

/** Why the winner of a conflict won (BR-MERGE-001 rule 3), against the runner-up. */
export type ConflictReason = 'later indexed_at' | 'tie: greater source_hash' | 'tie: greater source_file';

export interface MergeConflict {
  node_id: string;
  winner: NodeVersion;
  /** The losing versions (distinct hashes), newest first. */
  others: NodeVersion[];
  reason: ConflictReason;
}

export interface MergeDeletion {
  node_id: string;
  /** Input whose tombstone removed the node. */
  source: string;
  deleted_at: string | null;
  /** A version of the node was committed after the deletion (BR-MERGE-001 warning case). */
  modified_after_delete: boolean;
}

export interface MergeReport {
  merge_id: string;
  strategy: ConflictStrategy;
  sources: { source: string; manifest_id: string; nodes: number; tombstones: number }[];
  manifest_id: string;
  nodes: number;
  edges: number;
  dangling_links: number;
  layer_violations: number;
  /** `conflicts.length`: node ids whose inputs held different versions (CMD-004). */
  conflicts_resolved: number;
  conflicts: MergeConflict[];
  /** `deleted.length`: nodes some input still had that a tombstone removed (CMD-004). */
  tombstones_applied: number;
  /** Nodes removed by a tombstone while another input still had them. */
  deleted: MergeDeletion[];
  warnings: string[];
  events: DomainEvent[];
  duration_ms: number;
}

export interface MergeResult {
  manifest: IndexManifest;
  /** Winners, sorted by source path: what a merged `.kdd-index/` holds. */
  records: DocumentRecord[];
  graph: Graph;
  /** Every tombstone of every input, one per node id (the latest). */
  tombstones: Tombstone[];
  report: MergeReport;
}

/** BR-MERGE-001 over two or more indexes. Throws the spec's error codes (CMD-004). */
export function mergeIndexes(inputs: readonly MergeSource[], options: MergeOptions = {}): MergeResult {
  const started = performance.now();
  const strategy = options.strategy ?? 'last_write_wins';
  if (inputs.length < 2) throw createError('INSUFFICIENT_SOURCES', {});
  checkCompatible(inputs);
  const mergeId = randomUUID();
  const requested: DomainEvent = {
    event: 'EVT-Index-MergeRequested',
    payload: {
      merge_id: mergeId,
      source_manifests: inputs.map((input) => manifestId(input.manifest)),
      developer_ids: inputs.map((input) => input.manifest.indexed_by ?? input.source),
      target_version: INDEX_FORMAT_VERSION,
      requested_at: now(),
      requested_by: options.requestedBy ?? null,
    },
  };
  const tombstones = latestTombstones(inputs);
  const { winners, conflicts, deleted, warnings } = pickWinners(inputs, tombstones);
  if (strategy === 'fail_on_conflict' && conflicts.length > 0) throw createError('CONFLICT_REJECTED', { n: conflicts.length, conflicts: conflicts.map((c) => c.node_id) });
  const records = winners.map((winner) => winner.record).sort((a, b) => compare(a.node.source_file, b.node.source_file) || compare(a.node.id, b.node.id));
  const graph = inputs.some((input) => input.edges) ? withBundleEdges(linkRecords(records), bundleEdges(inputs, winners)) : linkRecords(records);
  const commits = new Set(inputs.map((input) => input.manifest.git_commit));
  const manifest = makeManifest(graph, records, { commit: commits.size === 1 ? [...commits][0]! : null, commitTimes: new Map() }, null);
  const mergedId = manifestId(manifest);
  const duration = Math.round(performance.now() - started);
  const completed: DomainEvent = {
    event: 'EVT-Index-MergeCompleted',
    payload: {
      merge_id: mergeId,
      merged_manifest_id: mergedId,
      source_count: inputs.length,
      total_nodes: graph.nodes.length,
      total_edges: graph.edges.length,
      total_embeddings: manifest.stats.embeddings,
      conflicts_resolved: conflicts.length,
      duration_ms: duration,
      completed_at: now(),
    },
  };
  return {
    manifest,
    records,
    graph,
    tombstones: [...tombstones.values()].map((entry) => entry.tombstone),
    report: {
      merge_id: mergeId,
      strategy,
      sources: inputs.map((input) => ({ source: input.source, manifest_id: manifestId(input.manifest), nodes: input.records.length, tombstones: input.tombstones.length })),
      manifest_id: mergedId,
      nodes: graph.nodes.length,
      edges: graph.edges.length,
      dangling_links: graph.dangling.length,
      layer_violations: graph.layer_violations.length,
      conflicts_resolved: conflicts.length,
      conflicts,
      tombstones_applied: deleted.length,
      deleted,
      warnings: [...warnings, ...graph.warnings.map((warning) => `${warning.code}: ${warning.message}`)],
      events: [requested, completed],
      duration_ms: duration,
    },
  };
}

/** Content id of a manifest: `sha256:` + 12 hex of its canonical JSON (manifests have no id field). */
export function manifestId(manifest: IndexManifest): string {
  return `sha256:${createHash('sha256').update(stableJson(manifest)).digest('hex').slice(0, 12)}`;
}

function major(version: string): string {
  return version.split('.')[0] ?? version;
}

/** BR-MERGE-001 "Validación de compatibilidad": same major version, same model at ≥ L2, same structure. */
export function checkCompatible(inputs: readonly Pick<MergeSource, 'manifest'>[]): void {
  const [first, ...rest] = inputs.map((input) => input.manifest);
  // A format this code does not read (a newer major) is refused, not merged into one it writes.
  for (const manifest of [first!, ...rest]) {
    if (major(manifest.version) !== major(INDEX_FORMAT_VERSION)) throw createError('INCOMPATIBLE_VERSION', { v1: INDEX_FORMAT_VERSION, v2: manifest.version });
  }
  for (const other of rest) {
    if (major(first!.version) !== major(other.version)) throw createError('INCOMPATIBLE_VERSION', { v1: first!.version, v2: other.version });
    const vectors = first!.index_level !== 'L1' && other.index_level !== 'L1';
    if (vectors && first!.embedding_model !== other.embedding_model) {
      throw createError('INCOMPATIBLE_EMBEDDING_MODEL', { m1: String(first!.embedding_model), m2: String(other.embedding_model) });
    }
    if (first!.structure !== other.structure) throw createError('INCOMPATIBLE_STRUCTURE', {});
  }
}

interface Candidate {
  source: string;
  input: number;
  record: DocumentRecord;
}

const versionOf = (candidate: Candidate): NodeVersion => ({
  source: candidate.source,
  source_file: candidate.record.node.source_file,
  source_hash: candidate.record.node.source_hash,
  indexed_at: candidate.record.node.indexed_at,
});

function conflictReason(winner: GraphNode, runnerUp: NodeVersion): ConflictReason {
  if ((winner.indexed_at ?? '') !== (runnerUp.indexed_at ?? '')) return 'later indexed_at';
  return winner.source_hash !== runnerUp.source_hash ? 'tie: greater source_hash' : 'tie: greater source_file';
}

/** Last-write-wins order: newer `indexed_at` (null is oldest), then higher hash, then higher path. */
function newer(a: GraphNode, b: GraphNode): number {
  return compare(a.indexed_at ?? '', b.indexed_at ?? '') || compare(a.source_hash, b.source_hash) || compare(a.source_file, b.source_file);
}

function latestTombstones(inputs: readonly MergeSource[]): Map<string, { source: string; tombstone: Tombstone }> {
  const latest = new Map<string, { source: string; tombstone: Tombstone }>();
  for (const input of inputs) {
    for (const tombstone of input.tombstones) {
      const current = latest.get(tombstone.node_id);
      const order = current
        ? compare(tombstone.deleted_at ?? '', current.tombstone.deleted_at ?? '') || compare(tombstone.source_hash, current.tombstone.source_hash) || compare(tombstone.source_file, current.tombstone.source_file)
        : 1;
      if (order > 0) latest.set(tombstone.node_id, { source: input.source, tombstone });
    }
  }
  return new Map(sortTombstones([...latest.values()].map((entry) => entry.tombstone)).map((tombstone) => [tombstone.node_id, latest.get(tombstone.node_id)!]));
}

function pickWinners(inputs: readonly MergeSource[], tombstones: ReadonlyMap<string, { source: string; tombstone: Tombstone }>) {
  const byId = new Map<string, Candidate[]>();
  inputs.forEach((input, index) => {
    for (const record of input.records) {
      const list = byId.get(record.node.id) ?? [];
      list.push({ source: input.source, input: index, record });
      byId.set(record.node.id, list);
    }
  });
  const winners: Candidate[] = [];
  const conflicts: MergeConflict[] = [];
  const deleted: MergeDeletion[] = [];
  const warnings: string[] = [];
  for (const id of [...byId.keys()].sort(compare)) {
    const candidates = byId.get(id)!.sort((a, b) => newer(b.record.node, a.record.node) || compare(a.source, b.source));
    const winner = candidates[0]!;
    const dead = tombstones.get(id);
    if (dead) {
      const deletedAt = dead.tombstone.deleted_at;
      const later = candidates.some((candidate) => deletedAt !== null && candidate.record.node.indexed_at !== null && candidate.record.node.indexed_at > deletedAt);
      deleted.push({ node_id: id, source: dead.source, deleted_at: deletedAt, modified_after_delete: later });
      if (later) warnings.push(`DELETE_WINS: ${id} was deleted in ${dead.source} at ${deletedAt} but modified later in ${candidates.filter((c) => (c.record.node.indexed_at ?? '') > deletedAt!).map((c) => c.source).join(', ')}; the deletion wins`);
      continue;
    }
    winners.push(winner);
    const seen = new Set([winner.record.node.source_hash]);
    const others: NodeVersion[] = [];
    for (const candidate of candidates.slice(1)) {
      if (seen.has(candidate.record.node.source_hash)) continue;
      seen.add(candidate.record.node.source_hash);
      others.push(versionOf(candidate));
    }
    if (others.length > 0) conflicts.push({ node_id: id, winner: versionOf(winner), others, reason: conflictReason(winner.record.node, others[0]!) });
  }
  return { winners, conflicts, deleted, warnings };
}

/** Packed edges out of winners that came from bundles: those of every input holding the winning version. */
function bundleEdges(inputs: readonly MergeSource[], winners: readonly Candidate[]): GraphEdge[] {
  const winning = new Map(winners.map((winner) => [winner.record.node.id, winner.record.node.source_hash]));
  const edges: GraphEdge[] = [];
  for (const input of inputs) {
    if (!input.edges) continue;
    const versions = new Map(input.records.map((record) => [record.node.id, record.node.source_hash]));
    for (const edge of input.edges) {
      if (edge.edge_type === 'LAYER_DEPENDENCY') continue; // recomputed over the merged graph
      if (winning.get(edge.from_node) === versions.get(edge.from_node) && winning.has(edge.to_node)) edges.push(edge);
    }
  }
  return edges;
}

/** Adds bundle edges to a linked graph, then recomputes layer flags, LAYER_DEPENDENCY and violations. */
function withBundleEdges(graph: Graph, extra: readonly GraphEdge[]): Graph {
  const nodes = new Map(graph.nodes.map((node) => [node.id, node]));
  const edges = new Map<string, GraphEdge>();
  const key = (edge: GraphEdge) => `${edge.from_node}\u0000${edge.to_node}\u0000${edge.edge_type}`;
  for (const edge of [...graph.edges, ...extra]) {
    if (edge.edge_type === 'LAYER_DEPENDENCY') continue;
    const from = nodes.get(edge.from_node)!;
    const to = nodes.get(edge.to_node)!;
    const fixed = { ...edge, layer_violation: isLayerViolation(from.layer, to.layer) };
    const existing = edges.get(key(fixed));
    // Same rule as the link stage: the edge that says more wins; equal size ⇒ the smaller JSON, so order never matters.
    const size = (e: GraphEdge) => Object.keys(e.metadata).length;
    if (!existing || size(fixed) > size(existing) || (size(fixed) === size(existing) && compare(stableJson(fixed), stableJson(existing)) < 0)) edges.set(key(fixed), fixed);
  }
  for (const edge of [...edges.values()]) {
    const from = nodes.get(edge.from_node)!;
    const to = nodes.get(edge.to_node)!;
    const dependency = layerDependencyEdge(from, to);
    if (dependency) edges.set(key(dependency), dependency);
  }
  const sorted = [...edges.values()].sort(compareEdges);
  return {
    ...graph,
    edges: sorted,
    layer_violations: sorted
      .filter((edge) => edge.layer_violation)
      .map((edge) => ({ from_node: edge.from_node, to_node: edge.to_node, from_layer: nodes.get(edge.from_node)!.layer, to_layer: nodes.get(edge.to_node)!.layer, edge_type: edge.edge_type, source_file: edge.source_file })),
  };
}

/**
 * A bundle as a merge input: its nodes become records whose only raw links are its unresolved ones
 * (dangling wiki-links and bare ids, re-resolved against the merged nodes); its resolved edges are
 * carried as they are.
 */
export function bundleSource(bundle: Bundle, source: string): MergeSource {
  const unresolved = new Map<string, RawLink[]>();
  const add = (links: readonly DanglingLink[], origin: RawLink['origin']) => {
    for (const link of links) {
      const split = link.target.indexOf('::');
      const target = split >= 0 ? link.target.slice(split + 2) : link.target;
      const domain = split >= 0 ? link.target.slice(0, split) : null;
      // Bundles packed before `links` existed kept only the first link's section: a plain wiki-link.
      const occurrences = link.links ?? [{ anchor: null, alias: null, field: null, section: link.section }];
      const raws = occurrences.map((occurrence): RawLink => ({ target, domain, ...occurrence, origin }));
      unresolved.set(link.from_node, [...(unresolved.get(link.from_node) ?? []), ...raws]);
    }
  };
  add(bundle.dangling, 'wiki');
  add(bundle.unresolved_ids ?? [], 'id');
  return {
    source,
    manifest: bundle.manifest,
    records: bundle.nodes.map((node) => ({ node, links: unresolved.get(node.id) ?? [] })).sort((a, b) => compare(a.node.source_file, b.node.source_file)),
    tombstones: [],
    edges: bundle.edges,
  };
}
