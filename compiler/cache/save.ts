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

/**
 * `artifacts`: stamps of the node and edge files as this build left them (compiler/cache/stamps.ts
 * `artifactStamps`). `kept`: the previous bundle was kept (nothing packed); the record cache is then
 * rewritten only when the spec stamps moved.
 */
export async function saveCaches(indexDir: string, files: CacheFiles, compiled: Compiled, earlier: Earlier, artifacts: ReadonlyMap<string, ArtifactStamp>, memo: PackMemo | undefined, kept: boolean): Promise<void> {
  // One after the other: each is encoded whole in memory before it is written (40 and 54 MB at
  // 10,800 documents), and both at once raised the build's peak. The memo goes first: its bytes are
  // dropped once written, while the record cache's stay with their records for the next build.
  // Loaded with the pack stage, which made the memo: no cost to a build that packed nothing.
  if (memo && files.pack) await import('./pack-memo.js').then(({ writePackMemo }) => writePackMemo(files.pack!, memo)).catch(() => undefined);
  const recordFile = files.records;
  if (recordFile && (!kept || !sameStamps(earlier.stamps, compiled.stamps))) {
    await readFile(join(indexDir, 'manifest.json'), 'utf8')
      .then((text) => writeCache(recordFile, compiled, artifacts, text))
      .catch(() => undefined);
  }
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
