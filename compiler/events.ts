/**
 * Domain events the build emits, with the payloads their specs define (EVT-KDDDocument-Detected,
 * -Parsed, -Indexed, -Stale, -Deleted; EVT-Index-MergeRequested, -MergeCompleted). They go into the
 * build and merge reports only: timestamps here are wall-clock facts about this run and never reach
 * an artifact.
 */
import type { IndexLevel, IndexManifest, Kind, Layer } from '../model/graph.js';
import type { DocumentRecord } from '../model/records.js';
import { outDegrees } from './graph/edge-facts.js';
import type { Graph } from './graph/link.js';

export type DomainEvent =
  | { event: 'EVT-KDDDocument-Detected'; payload: { source_path: string; source_hash: string; kind: Kind; layer: Layer; detected_at: string } }
  | {
      event: 'EVT-KDDDocument-Parsed';
      payload: { document_id: string; source_path: string; kind: Kind; front_matter: Record<string, unknown>; section_count: number; wiki_link_count: number; parsed_at: string };
    }
  | {
      event: 'EVT-KDDDocument-Indexed';
      payload: {
        document_id: string;
        source_path: string;
        kind: Kind;
        node_id: string;
        edge_count: number;
        embedding_count: number;
        index_level: IndexLevel;
        duration_ms: number;
        indexed_at: string;
      };
    }
  | { event: 'EVT-KDDDocument-Stale'; payload: { document_id: string; source_path: string; previous_hash: string; current_hash: string; detected_at: string } }
  | {
      event: 'EVT-KDDDocument-Deleted';
      payload: { document_id: string; source_path: string; node_id: string; edge_count: number; embedding_count: number; deleted_at: string };
    }
  | {
      event: 'EVT-Index-MergeRequested';
      payload: { merge_id: string; source_manifests: string[]; developer_ids: string[]; target_version: string; requested_at: string; requested_by: string | null };
    }
  | {
      event: 'EVT-Index-MergeCompleted';
      payload: {
        merge_id: string;
        merged_manifest_id: string;
        source_count: number;
        total_nodes: number;
        total_edges: number;
        total_embeddings: number;
        conflicts_resolved: number;
        duration_ms: number;
        completed_at: string;
      };
    };

export const now = (): string => new Date().toISOString();

/** One EVT-KDDDocument-Indexed per record the graph kept (a duplicate id's loser is not indexed), in record order. */
export function indexedEvents(graph: Graph, records: readonly DocumentRecord[], durations: ReadonlyMap<DocumentRecord, number>, manifest: IndexManifest, embeddings: ReadonlyMap<string, number> = new Map()): DomainEvent[] {
  // Only the records' own edges are counted: a one-edit build indexes one record of 10,800.
  const outDegree = outDegrees(graph, new Set(records.map((record) => record.node.id)));
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
        edge_count: outDegree.get(record.node.id) ?? 0,
        embedding_count: embeddings.get(record.node.id) ?? 0,
        index_level: manifest.index_level,
        duration_ms: Math.round(durations.get(record) ?? 0),
        indexed_at: now(),
      },
    }));
}
