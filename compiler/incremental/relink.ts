/**
 * The link stage's shortcut: the previous graph, restored from the record cache, when it is provably
 * the graph these records link to. Linking reads nothing but the records' link input, so when every
 * node is as before (ids, titles, aliases, kinds, layers, files: links resolve as before), the cached
 * graph is the answer as it is (no links changed) or with the records whose links changed linked
 * again. Anything else, or enrichments in play: no graph, and the link stage links the whole tree.
 */
import type { GraphEdge } from '../../model/graph.js';
import type { DocumentRecord } from '../../model/records.js';
import { restoreGraph } from '../cache/record-cache.js';
import type { EnrichmentSet } from '../enrich/artifact.js';
import { relinkRecords, sameLinkInputs, sameNodeEntry, type Graph } from '../graph/link.js';
import type { Earlier } from './earlier.js';

export interface PreviousGraph {
  /** The graph of the records, taken from the previous build, or null: link them anew. */
  graph: Graph | null;
  /**
   * No record's link input changed since the previous index. Known even when `graph` is null (with
   * enrichments in play the graph is linked anew, yet unchanged link inputs still let emit keep the
   * edge files).
   */
  sameLinks: boolean;
  /** Set when `graph` is the previous one with the nodes in `changed` linked again (emit patches `edges.jsonl`). */
  relinked: { previous: readonly GraphEdge[]; changed: ReadonlySet<string> } | null;
}

export function previousGraph(earlier: Earlier, records: readonly DocumentRecord[], enrichments: EnrichmentSet | undefined): PreviousGraph {
  const previous = earlier.fullReason === null ? earlier.content : null;
  const prior = earlier.byPath;
  const sameNodes =
    previous !== null &&
    records.length === previous.records.length &&
    records.every((record) => {
      const old = prior.get(record.node.source_file);
      return old !== undefined && sameNodeEntry(record, old);
    });
  const changed = sameNodes ? records.filter((record) => !sameLinkInputs(record, prior.get(record.node.source_file)!)) : null;
  const sameLinks = changed !== null && changed.length === 0;
  const unenriched = !previous?.manifest.enrichments && (!enrichments || (enrichments.enrichments.length === 0 && enrichments.warnings.length === 0));
  const before = changed && unenriched && earlier.graph ? restoreOrNull(records, earlier) : null;
  if (!before) return { graph: null, sameLinks, relinked: null };
  if (sameLinks) return { graph: before, sameLinks, relinked: null };
  const ids = new Set(changed!.map((record) => record.node.id));
  return { graph: relinkRecords(records, before, ids), sameLinks, relinked: { previous: before.edges, changed: ids } };
}

/** The cached graph over `records`, or null when the cache turns out unreadable (the graph is then linked anew). */
function restoreOrNull(records: readonly DocumentRecord[], earlier: Earlier): Graph | null {
  try {
    return restoreGraph(records, earlier.graph!);
  } catch {
    return null;
  }
}
