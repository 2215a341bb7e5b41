/** What a build hands back: the in-memory result of the stages and the report `kdd build` prints. */
import type { GraphEdge, IndexManifest } from '../model/graph.js';
import type { DocumentRecord } from '../model/records.js';
import { compareCodeUnits, inKeyOrder } from '../model/order.js';
import type { BuildWarning } from './diagnostics.js';
import type { DomainEvent } from './events.js';
import { edgeCount, edgeTypeCounts } from './graph/edge-facts.js';
import type { Graph } from './graph/link.js';
import type { IndexChanges } from './incremental/changes.js';
import type { BundlePointer } from './pack/dist.js';
import type { ArtifactSizes } from '../formats/bundle/types.js';
import type { PackVectors } from './pack/pack.js';
import type { SourceStamp } from './read.js';
import type { Tombstone } from '../formats/index-dir/tombstones.js';

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

/** Everything the stages produced, and what emit and the caches need to know about how it relates to the previous build. */
export interface Compiled extends CompileResult {
  changes: IndexChanges;
  tombstones: Tombstone[];
  /** Records whose node file must be written: re-extracted (a new version of the source). */
  touched: ReadonlySet<DocumentRecord>;
  /** Trusted stamps of the spec files as this run saw them (for the record cache). */
  stamps: ReadonlyMap<string, SourceStamp>;
  /**
   * True when every record gives the link stage the same input as the previous index's record for
   * its path (and the same enrichments apply): the graph, hence the edge files, cannot have changed.
   */
  sameGraph: boolean;
  /**
   * Set when the graph came from the previous one with the nodes in `changed` linked again: the
   * previous edges, so the edge file can be patched instead of written out whole.
   */
  relinked: { previous: readonly GraphEdge[]; changed: ReadonlySet<string> } | null;
  /** L2 paragraph vectors for the pack, or null at L1. */
  vectors: PackVectors | null;
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

export interface IndexBuildReport extends BuildReport {
  mode: 'incremental' | 'full';
  /** Why a full build ran (`--full`, no previous index, format changed), or null. */
  full_reason: string | null;
  changes: IndexChanges;
  /** Tombstones now in `.kdd-index/tombstones.jsonl`. */
  tombstones: number;
  /** True when nothing changed and the existing bundle was kept without repacking. */
  bundle_reused: boolean;
  /** Bytes of the specs, of the committed `.kdd-index/` and of the bundle, with their ratios to the specs (REQ-002). */
  sizes: ArtifactSizes;
}

export function report(result: CompileResult, bundle: BundlePointer, written: { written: string[]; removed: string[] }, duration: number): BuildReport {
  const { graph, manifest } = result;
  return {
    files: result.files,
    nodes: graph.nodes.length,
    edges: edgeCount(graph),
    nodes_by_kind: countBy(graph.nodes.map((node) => node.kind)),
    edges_by_type: edgeTypeCounts(graph),
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

/** The `kdd build` report: the counts, plus how this build related to the previous one. */
export function indexBuildReport(
  compiled: Compiled,
  fullReason: string | null,
  bundle: BundlePointer,
  written: { written: string[]; removed: string[] },
  bundleReused: boolean,
  sizes: ArtifactSizes,
  duration: number,
): IndexBuildReport {
  return {
    ...report(compiled, bundle, written, duration),
    mode: fullReason === null ? 'incremental' : 'full',
    full_reason: fullReason,
    changes: compiled.changes,
    tombstones: compiled.tombstones.length,
    bundle_reused: bundleReused,
    sizes,
  };
}

export function countBy(values: readonly string[]): Record<string, number> {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return inKeyOrder(counts);
}

export function sortWarnings(warnings: BuildWarning[]): BuildWarning[] {
  return warnings.sort((a, b) => compareCodeUnits(a.file, b.file) || compareCodeUnits(a.code, b.code));
}
