/**
 * Domain events the build emits, with the payloads their specs define (EVT-KDDDocument-Detected,
 * -Parsed, -Indexed). They go into the build report only: timestamps here are wall-clock facts
 * about this run and never reach an artifact.
 */
import type { IndexLevel, Kind, Layer } from '../runtime/model.js';

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
    };

export const now = (): string => new Date().toISOString();
