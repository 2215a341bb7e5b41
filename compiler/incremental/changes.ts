/**
 * What changed since the previous index: added, modified and deleted sources (EVT-KDDDocument-Stale),
 * tombstones for nodes that are gone (BR-MERGE-001 delete-wins) and EVT-KDDDocument-Deleted.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stableJson } from '../../formats/canonical.js';
import type { IndexManifest } from '../../model/graph.js';
import { edgeEnds, EDGES_FILE } from '../../formats/index-dir/edges.js';
import { sortTombstones, type Tombstone } from '../../formats/index-dir/tombstones.js';
import { now, type DomainEvent } from '../events.js';
import type { Graph } from '../graph/link.js';
import { compareCodeUnits } from '../../model/order.js';
import type { Earlier, PreviousIndex, PreviousNode } from './earlier.js';

/** What changed since the previous index (paths relative to the specs root, node ids for tombstones). */
export interface IndexChanges {
  /** New spec files (not in the previous manifest's `sources`). */
  added: string[];
  /** Files whose content hash changed (one EVT-KDDDocument-Stale each). */
  modified: string[];
  /** Files of the previous manifest that are gone. */
  deleted: string[];
  /** Files that went through extraction in this run (all of them in a full build). */
  reindexed: string[];
  /** Node ids that got a tombstone in this run / whose tombstone was lifted because they reappeared. */
  tombstoned: string[];
  revived: string[];
}

function diffSources(previous: PreviousIndex | null, files: readonly { path: string; hash: string }[]) {
  const before = previous?.manifest.sources ?? {};
  // Made on the first modified file: most builds have none.
  let prior: Map<string, PreviousNode> | undefined;
  const current = new Map(files.map((file) => [file.path, file.hash]));
  const changes = { added: [] as string[], modified: [] as string[], deleted: [] as string[] };
  const events: DomainEvent[] = [];
  for (const [path, hash] of current) {
    const previousHash = before[path];
    if (previousHash === undefined) changes.added.push(path);
    else if (previousHash !== hash) {
      changes.modified.push(path);
      prior ??= new Map((previous?.nodes ?? []).map((node) => [node.source_file, node]));
      const documentId = prior.get(path)?.doc_id ?? path;
      events.push({ event: 'EVT-KDDDocument-Stale', payload: { document_id: documentId, source_path: path, previous_hash: previousHash, current_hash: hash, detected_at: now() } });
    }
  }
  // Assigned, not pushed as arguments: a tree that lost 100,000 specs would pass too many to a call.
  changes.deleted = Object.keys(before).filter((path) => !current.has(path)).sort(compareCodeUnits);
  return { changes, events };
}

/** Every node of the previous index that is gone gets a tombstone; a reappearing id lifts it. */
function tombstonesSince(previous: PreviousIndex | null, graph: Graph, deletedAt: string | null) {
  const present = new Set(graph.nodes.map((node) => node.id));
  const byId = new Map<string, Tombstone>();
  const revived: string[] = [];
  for (const tombstone of previous?.tombstones ?? []) {
    if (present.has(tombstone.node_id)) revived.push(tombstone.node_id);
    else byId.set(tombstone.node_id, tombstone);
  }
  const added: Tombstone[] = [];
  for (const node of previous?.nodes ?? []) {
    if (present.has(node.id)) continue;
    const tombstone: Tombstone = { node_id: node.id, source_file: node.source_file, source_hash: node.source_hash, deleted_at: deletedAt };
    byId.set(node.id, tombstone);
    added.push(tombstone);
  }
  return { all: sortTombstones([...byId.values()]), added: sortTombstones(added), revived: revived.sort(compareCodeUnits) };
}

/** EVT-KDDDocument-Deleted, with the edge count the previous `edges.jsonl` held for each node. */
async function deletedEvents(deleted: readonly Tombstone[], docIds: ReadonlyMap<string, string>, indexDir: string | undefined, previous: PreviousIndex | null): Promise<DomainEvent[]> {
  if (deleted.length === 0) return [];
  // The vectors a deleted node had: its embeddable chunks, when the previous index was L2.
  const gone = new Set(deleted.map((tombstone) => tombstone.node_id));
  const embeddings = new Map(
    previous && previous.manifest.index_level !== 'L1'
      ? previous.nodes.filter((node) => gone.has(node.id)).map((node) => [node.id, node.chunks] as const)
      : [],
  );
  const counts = new Map(deleted.map((tombstone) => [tombstone.node_id, 0]));
  const text = indexDir ? await readFile(join(indexDir, EDGES_FILE), 'utf8').catch(() => '') : '';
  for (const edge of edgeEnds(text)) {
    for (const id of new Set([edge.from, edge.to])) if (counts.has(id)) counts.set(id, counts.get(id)! + 1);
  }
  return deleted.map((tombstone) => ({
    event: 'EVT-KDDDocument-Deleted' as const,
    payload: {
      document_id: docIds.get(tombstone.node_id) ?? tombstone.node_id,
      source_path: tombstone.source_file,
      node_id: tombstone.node_id,
      edge_count: counts.get(tombstone.node_id) ?? 0,
      embedding_count: embeddings.get(tombstone.node_id) ?? 0,
      deleted_at: now(),
    },
  }));
}

/**
 * Everything this build changed relative to `earlier`: the source diff, the tombstones, and the
 * Stale then Deleted events (Deleted reads the previous `edges.jsonl`, so this runs before emit).
 */
export async function changesSince(
  earlier: Earlier,
  files: readonly { path: string; hash: string }[],
  graph: Graph,
  reindexed: string[],
  deletedAt: string | null,
): Promise<{ changes: IndexChanges; tombstones: Tombstone[]; events: DomainEvent[] }> {
  const { previous } = earlier;
  const diff = diffSources(previous, files);
  const tombstoned = tombstonesSince(previous, graph, deletedAt);
  const docIds = new Map((previous?.nodes ?? []).map((node) => [node.id, node.doc_id]));
  const deleted = await deletedEvents(tombstoned.added, docIds, earlier.indexDir ?? undefined, previous);
  return {
    changes: { ...diff.changes, reindexed, tombstoned: tombstoned.added.map((t) => t.node_id), revived: tombstoned.revived },
    tombstones: tombstoned.all,
    events: [...diff.events, ...deleted],
  };
}

/**
 * Whether the edge files cannot have changed: no record's link input changed and the same
 * enrichments apply (compared on the manifest after enrichment, before embedding).
 */
export function sameGraphAs(earlier: Earlier, sameLinks: boolean, manifest: IndexManifest): boolean {
  return sameLinks && stableJson(manifest.enrichments ?? null) === stableJson(earlier.content!.manifest.enrichments ?? null);
}
