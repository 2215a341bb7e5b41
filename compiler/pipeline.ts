/**
 * What every build path shares: options, results, the manifest, the report and its events. The
 * paths themselves are `compileIncremental`/`buildIndex` (compiler/incremental.ts) and the public
 * entry points in compiler/build.ts.
 */
import type { IndexManifest } from '../model/graph.js';
import type { BuildWarning } from './diagnostics.js';
import type { BundlePointer } from './pack/dist.js';
import type { SemanticOptions } from './embed/semantic.js';
import { now, type DomainEvent } from './events.js';
import type { GitFacts } from './git.js';
import type { Graph } from './graph/link.js';
import type { DocumentRecord } from '../model/records.js';

/** Artifact schema version (semver): a major bump makes indexes unmergeable (IndexManifest). */
export const INDEX_FORMAT_VERSION = '1.0.0';
export const KDD_VERSION = '1.0';

export interface CompileOptions {
  /** Specs root; every path in the artifacts is relative to it. */
  specsDir: string;
  /** Files over this size are skipped with FILE_TOO_LARGE. Default 1 MiB. */
  maxFileBytes?: number;
  /** Identifies the developer in `.kdd-index/manifest.json` (never in the bundle). */
  indexedBy?: string | null;
  /** Called after each file is extracted (progress line on TTYs). */
  onProgress?: (done: number, total: number) => void;
  /**
   * Incremental builds: the only files that may differ from the previous index (from `git diff`,
   * compiler/git-changes.ts); every other file it holds is taken as indexed, without reading it.
   */
  changedFiles?: ReadonlySet<string>;
}

export interface BuildOptions extends CompileOptions, SemanticOptions {
  /** Bundle folder. Default `dist` next to the current directory. */
  outDir?: string;
  /** Artifact folder. Default `.kdd-index`. */
  indexDir?: string;
}

export interface SkippedFile {
  file: string;
  reason: string;
}

export interface CompileResult {
  manifest: IndexManifest;
  /** One per indexed document, sorted by source path (duplicates included; the graph keeps the first). */
  records: DocumentRecord[];
  graph: Graph;
  warnings: BuildWarning[];
  skipped: SkippedFile[];
  events: DomainEvent[];
  files: number;
}

export interface BuildReport {
  files: number;
  nodes: number;
  edges: number;
  nodes_by_kind: Record<string, number>;
  edges_by_type: Record<string, number>;
  layer_violations: number;
  dangling_links: number;
  index_level: IndexManifest['index_level'];
  structure: IndexManifest['structure'];
  warnings: BuildWarning[];
  skipped: SkippedFile[];
  bundle: BundlePointer;
  index_dir: { written: number; removed: number };
  events: DomainEvent[];
  duration_ms: number;
}

export function report(result: CompileResult, bundle: BundlePointer, written: { written: string[]; removed: string[] }, duration: number): BuildReport {
  const { graph, manifest } = result;
  return {
    files: result.files,
    nodes: graph.nodes.length,
    edges: graph.edges.length,
    nodes_by_kind: countBy(graph.nodes.map((node) => node.kind)),
    edges_by_type: countBy(graph.edges.map((edge) => edge.edge_type)),
    layer_violations: graph.layer_violations.length,
    dangling_links: graph.dangling.length,
    index_level: manifest.index_level,
    structure: manifest.structure,
    warnings: result.warnings,
    skipped: result.skipped,
    bundle,
    index_dir: { written: written.written.length, removed: written.removed.length },
    events: result.events,
    duration_ms: Math.round(duration),
  };
}

export function makeManifest(graph: Graph, records: readonly DocumentRecord[], git: Pick<GitFacts, 'commit' | 'commitTimes'>, indexedBy: string | null): IndexManifest {
  // `_shared/` holds cross-cutting specs of a multi-domain tree; it is not a domain of its own.
  const domains = [...new Set(graph.nodes.map((node) => node.domain).filter((domain): domain is string => domain !== null && domain !== '_shared'))].sort();
  const times = graph.nodes.map((node) => node.indexed_at).filter((time): time is string => time !== null).sort();
  const sources = Object.fromEntries(records.map((record) => [record.node.source_file, record.node.source_hash]).sort(([a], [b]) => (a! < b! ? -1 : 1)));
  return {
    version: INDEX_FORMAT_VERSION,
    kdd_version: KDD_VERSION,
    index_level: 'L1',
    structure: graph.nodes.some((node) => node.domain !== null) ? 'multi-domain' : 'single-domain',
    domains,
    embedding_model: null,
    embedding_dimensions: null,
    indexed_at: times.at(-1) ?? null,
    indexed_by: indexedBy,
    git_commit: git.commit,
    stats: { nodes: graph.nodes.length, edges: graph.edges.length, embeddings: 0, enrichments: 0 },
    sources,
  };
}

export function indexedEvents(graph: Graph, records: readonly DocumentRecord[], durations: ReadonlyMap<DocumentRecord, number>, manifest: IndexManifest, embeddings: ReadonlyMap<string, number> = new Map()): DomainEvent[] {
  const outDegree = countBy(graph.edges.map((edge) => edge.from_node));
  const winners = new Map(graph.nodes.map((node) => [node.id, node]));
  return records
    .filter((record) => winners.get(record.node.id) === record.node)
    .map((record) => ({
      event: 'EVT-KDDDocument-Indexed' as const,
      payload: {
        document_id: record.node.doc_id,
        source_path: record.node.source_file,
        kind: record.node.kind,
        node_id: record.node.id,
        edge_count: outDegree[record.node.id] ?? 0,
        embedding_count: embeddings.get(record.node.id) ?? 0,
        index_level: manifest.index_level,
        duration_ms: Math.round(durations.get(record) ?? 0),
        indexed_at: now(),
      },
    }));
}

export function countBy(values: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of [...values].sort()) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

export function sortWarnings(warnings: BuildWarning[]): BuildWarning[] {
  return warnings.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}


