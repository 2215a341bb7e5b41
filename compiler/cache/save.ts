/**
 * The local caches a build leaves for the next one: the pack memo (per-node pack products) and the
 * record cache (records, spec and artifact stamps, the linked graph). They are written after the
 * pack (the memo saves what the pack used) and must be over before the pointer moves; failing to
 * write one never fails the build: they are an optimisation.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { IndexDirWrite } from '../emit/index-dir.js';
import type { Earlier } from '../incremental/earlier.js';
import type { Compiled } from '../report.js';
import { writePackMemo, type PackMemo } from './pack-memo.js';
import { writeRecordCache, type ArtifactStamp } from './record-cache.js';
import { artifactStamps, sameStamps } from './stamps.js';

export interface CacheFiles {
  /** The record cache, or false: none is kept. */
  records: string | false;
  /** The pack memo, or null: none is kept. */
  pack: string | null;
}

/** `kept`: the previous bundle was kept (nothing packed); the record cache is then rewritten only when the spec stamps moved. */
export function saveCaches(indexDir: string, files: CacheFiles, compiled: Compiled, earlier: Earlier, written: IndexDirWrite, memo: PackMemo | undefined, kept: boolean): Promise<unknown> {
  const recordFile = files.records;
  return Promise.all([
    memo && files.pack ? writePackMemo(files.pack, memo).catch(() => undefined) : undefined,
    recordFile && (!kept || !sameStamps(earlier.stamps, compiled.stamps))
      ? readFile(join(indexDir, 'manifest.json'), 'utf8')
          .then((text) => writeCache(recordFile, compiled, artifactStamps(indexDir, compiled, written, earlier.nodeStamps), text))
          .catch(() => undefined)
      : undefined,
  ]);
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
