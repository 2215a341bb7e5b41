/** The index manifest (`.kdd-index/manifest.json`): what the index was built from, and its version. */
import { INDEX_FORMAT_VERSION } from '../formats/index-dir/manifest.js';
import type { IndexManifest } from '../model/graph.js';
import type { DocumentRecord } from '../model/records.js';
import { compareCodeUnits } from '../model/order.js';
import type { GitFacts } from './git.js';
import { edgeCount } from './graph/edge-facts.js';
import type { Graph } from './graph/link.js';

export const KDD_VERSION = '1.0';

export function makeManifest(graph: Graph, records: readonly DocumentRecord[], git: Pick<GitFacts, 'commit' | 'commitTimes'>, indexedBy: string | null): IndexManifest {
  // `_shared/` holds cross-cutting specs of a multi-domain tree; it is not a domain of its own.
  const domains = [...new Set(graph.nodes.map((node) => node.domain).filter((domain): domain is string => domain !== null && domain !== '_shared'))].sort();
  // The newest time (the last in code-unit order), and the sources in path order: records usually come sorted, and a check costs less than a sort.
  let newest: string | null = null;
  for (const node of graph.nodes) if (node.indexed_at !== null && (newest === null || node.indexed_at > newest)) newest = node.indexed_at;
  const entries = records.map((record) => [record.node.source_file, record.node.source_hash] as const);
  if (!entries.every((entry, i) => i === 0 || compareCodeUnits(entries[i - 1]![0], entry[0]) <= 0)) entries.sort(([a], [b]) => compareCodeUnits(a, b));
  const sources = Object.fromEntries(entries);
  return {
    version: INDEX_FORMAT_VERSION,
    kdd_version: KDD_VERSION,
    index_level: 'L1',
    structure: graph.nodes.some((node) => node.domain !== null) ? 'multi-domain' : 'single-domain',
    domains,
    embedding_model: null,
    embedding_dimensions: null,
    indexed_at: newest,
    indexed_by: indexedBy,
    git_commit: git.commit,
    stats: { nodes: graph.nodes.length, edges: edgeCount(graph), embeddings: 0, enrichments: 0 },
    sources,
  };
}
