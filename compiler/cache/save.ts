/**
 * The local caches a build leaves for the next one: the pack memo (per-node pack products) and the
 * record cache (records, spec and artifact stamps, the linked graph). They are written after the
 * pack (the memo saves what the pack used) and must be over before the pointer moves; failing to
 * write one never fails the build: they are an optimisation.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Earlier } from '../incremental/earlier.js';
import type { Compiled } from '../report.js';
import type { PackMemo } from './pack-memo.js';
import { writeRecordCache, type ArtifactStamp } from './record-cache.js';
import { sameStamps } from './stamps.js';

export interface CacheFiles {
  /** The record cache, or false: none is kept. */
  records: string | false;
  /** The pack memo, or null: none is kept. */
  pack: string | null;
}

/** The pack memo to save, handed over: {@link saveCaches} lets go of it once written. */
export interface PendingMemo {
  memo: PackMemo | undefined;
}

/**
 * `artifacts`: stamps of the node and edge files as this build left them (compiler/cache/stamps.ts
 * `artifactStamps`). `kept`: the previous bundle was kept (nothing packed); the record cache is then
 * rewritten only when the spec stamps moved.
 */
export async function saveCaches(indexDir: string, files: CacheFiles, compiled: Compiled, earlier: Earlier, artifacts: ReadonlyMap<string, ArtifactStamp>, pending: PendingMemo, kept: boolean): Promise<void> {
  // One after the other, the memo first: it is written as views of the per-node products, which
  // are let go of once it is written, so the record cache's light parts and links (copied per
  // record, kept with their records for the next build) are made after the products are garbage.
  if (files.pack) await writeMemo(files.pack, pending);
  const recordFile = files.records;
  if (recordFile && (!kept || !sameStamps(earlier.stamps, compiled.stamps))) {
    await readFile(join(indexDir, 'manifest.json'), 'utf8')
      .then((text) => writeCache(recordFile, compiled, artifacts, text))
      .catch(() => undefined);
  }
}

/**
 * Writes the memo and drops the last reference to it: the per-node products it holds (its term ids
 * alone are most of its 40 MB on disk at 10,800 documents) are then garbage.
 */
async function writeMemo(file: string, pending: PendingMemo): Promise<void> {
  const memo = pending.memo;
  pending.memo = undefined;
  if (!memo) return;
  // Loaded with the pack stage, which made the memo: no cost to a build that packed nothing.
  const { writePackMemo } = await import('./pack-memo.js');
  await writePackMemo(file, memo).catch(() => undefined);
}

/**
 * The record cache for the index just written: its node files' records, the specs' and the edge
 * files' stamps. `manifestText`: the manifest as on disk, which the cache is checked against (git
 * facts alone do not rewrite it).
 */
async function writeCache(file: string, result: Compiled, artifacts: ReadonlyMap<string, ArtifactStamp>, manifestText: string): Promise<void> {
  const winners = new Map(result.graph.nodes.map((node) => [node.id, node]));
  const records = result.records.filter((record) => winners.get(record.node.id) === record.node);
  // A graph with agent edges is not a function of the records alone: only a plain one is kept.
  const graph = result.manifest.enrichments ? null : result.graph;
  await writeRecordCache(file, manifestText, records, result.stamps, artifacts, graph).catch(() => undefined);
}
