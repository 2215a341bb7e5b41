/**
 * The emit stage: writes `.kdd-index/`. A full build writes every artifact (compiler/emit/index-dir.ts);
 * an incremental one only what differs from the index the previous build left, which gives the same
 * folder without reading back 10k unchanged node files. Tombstones go first.
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { stableJson } from '../../formats/canonical.js';
import { DANGLING_FILE, danglingJsonl, EDGES_FILE, edgesJsonl, patchEdgesJsonl } from '../../formats/index-dir/edges.js';
import { MANIFEST_FILE, manifestText } from '../../formats/index-dir/manifest.js';
import { nodeFilePath, nodeFileText } from '../../formats/index-dir/node-file.js';
import { TOMBSTONES_FILE } from '../../formats/index-dir/tombstones.js';
import type { IndexManifest } from '../../model/graph.js';
import type { DocumentRecord } from '../../model/records.js';
import { forEachLimited, writeManyIfChanged } from '../atomic.js';
import { EDGE_FILES, unchangedFiles } from '../cache/stamps.js';
import { faultPoint } from '../fault.js';
import { compareCodeUnits } from '../../model/order.js';
import type { Earlier } from '../incremental/earlier.js';
import type { Compiled } from '../report.js';
import { writeIndexDir, type IndexDirWrite } from './index-dir.js';
import { writeTombstones } from './tombstones.js';

export async function emit(indexDir: string, compiled: Compiled, earlier: Earlier): Promise<IndexDirWrite> {
  // Tombstones before the manifest: a build killed after the manifest dropped a deleted file, but
  // before its tombstone was written, would leave the next build nothing to detect the deletion by.
  const tombstonesWritten = await writeTombstones(indexDir, compiled.tombstones);
  const written =
    earlier.fullReason === null ? await writeIndexDirChanges(indexDir, compiled, earlier) : await writeIndexDir(indexDir, compiled.manifest, compiled.records, compiled.graph);
  if (tombstonesWritten) written.written.push(TOMBSTONES_FILE);
  return written;
}

/**
 * Writes what differs from the previous `.kdd-index/`: node files of touched or new winners, removal
 * of node files whose node is gone, and the three whole-tree files when their text changed. Equal to
 * what `writeIndexDir` would leave, without reading back 10k unchanged node files.
 */
async function writeIndexDirChanges(dir: string, result: Compiled, earlier: Earlier): Promise<IndexDirWrite> {
  const previous = earlier.content!;
  const winners = new Map(result.graph.nodes.map((node) => [node.id, node]));
  const current = new Map<string, DocumentRecord>();
  for (const record of result.records) if (winners.get(record.node.id) === record.node) current.set(nodeFilePath(record), record);
  const before = new Map(previous.records.map((record) => [nodeFilePath(record), record]));
  const files = new Map<string, string | Uint8Array>();
  // The same graph as last time, and edge files as the last build left them: nothing to write
  // there, and no 30 MB of JSON to produce (10k tree) only to find that out. A graph with some
  // nodes linked again: their lines are patched into the file the last build left.
  const trusted = (result.sameGraph || result.relinked !== null) && unchangedFiles(dir, EDGE_FILES, earlier.artifacts);
  if (!(result.sameGraph && trusted)) {
    const { relinked } = result;
    const old = relinked && trusted ? await readFile(join(dir, EDGES_FILE)).catch(() => null) : null;
    const patched = old && relinked ? patchEdgesJsonl(old, relinked.previous, result.graph.edges, relinked.changed) : null;
    files.set(EDGES_FILE, patched ?? edgesJsonl(result.graph.edges));
    files.set(DANGLING_FILE, danglingJsonl(result.graph.dangling));
  }
  // A record other than the file's previous one (re-extracted, new, or a duplicate id's new winner),
  // or a file that is not as the last build left it.
  const restored = new Set<string>();
  for (const [path, record] of current) {
    // A version kept with only its git time moved is not rewritten (docs/decisions/index-times.md).
    const old = before.get(path);
    const sameVersion = old !== undefined && old.node.source_file === record.node.source_file && old.node.source_hash === record.node.source_hash;
    if (sameVersion && !result.touched.has(record) && !earlier.distrusted.has(path)) continue;
    if (!sameVersion) files.set(path, nodeFileText(record));
    else {
      // The same version written again because the file is not what its spec says (edited,
      // deleted): restored with the git time it was written with, as a kept version keeps it, so a
      // committed file comes back byte for byte. The bundle carries the current time.
      files.set(path, nodeFileText({ node: { ...record.node, indexed_at: old.node.indexed_at }, links: record.links }));
      restored.add(path);
    }
  }
  const written = await writeManyIfChanged(dir, [...files.entries()].sort(([a], [b]) => compareCodeUnits(a, b)));
  const removed = [...before.keys()].filter((path) => !current.has(path)).sort(compareCodeUnits);
  await forEachLimited(removed, (path) => {
    faultPoint('remove');
    return rm(join(dir, path), { force: true });
  });
  // The manifest follows the content: git facts alone (newest commit time, commit) do not rewrite it,
  // nor does a node file restored to the version it already lists.
  if (written.some((path) => !restored.has(path)) || removed.length > 0 || stableJson(withoutGitFacts(result.manifest)) !== stableJson(withoutGitFacts(previous.manifest))) {
    written.push(...(await writeManyIfChanged(dir, [[MANIFEST_FILE, manifestText(result.manifest)]])));
  }
  return { written: written.sort(compareCodeUnits), removed };
}

const withoutGitFacts = (manifest: IndexManifest): IndexManifest => ({ ...manifest, indexed_at: null, git_commit: null });
