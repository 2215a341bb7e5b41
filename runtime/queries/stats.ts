/** What a loaded index holds, in one answer: the library's `kb.stats()`, `GET /v1/stats`, MCP `kdd_stats`. */
import type { KddIndex } from '../kdd-index.js';

export interface IndexStats {
  /** First 12 hex of the bundle's SHA-256. */
  hash: string;
  format: number;
  index_level: string;
  structure: string;
  domains: string[];
  embedding_model: string | null;
  /** Newest commit time among the indexed specs (from git), or null. */
  indexed_at: string | null;
  counts: { nodes: number; edges: number; chunks: number; embeddings: number; layer_violations: number; dangling: number };
}

export function indexStats(index: KddIndex): IndexStats {
  const { bundle } = index;
  const { manifest } = bundle;
  return {
    hash: index.hash,
    format: bundle.format,
    index_level: manifest.index_level,
    structure: manifest.structure,
    domains: manifest.domains,
    embedding_model: manifest.embedding_model,
    indexed_at: manifest.indexed_at,
    counts: {
      nodes: bundle.nodes.length,
      edges: bundle.edges.length,
      chunks: bundle.chunks.length,
      embeddings: index.vectors?.count ?? 0,
      layer_violations: bundle.layer_violations.length,
      dangling: bundle.dangling.length,
    },
  };
}
