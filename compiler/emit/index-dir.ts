/**
 * `.kdd-index/` writer (PRD Appendix A): manifest.json, nodes/<kind>/<id>.json, edges/edges.jsonl.
 * Small, sorted, one record per file, so git diffs and merges stay readable. Each node file also
 * carries the document's raw links, which makes `.kdd-index/` alone enough to rebuild the graph.
 * The file texts are formats/index-dir/; this module does the I/O.
 */
import { access, readdir, rm } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { IndexManifest } from '../../model/graph.js';
import type { DocumentRecord } from '../../model/records.js';
import type { Graph } from '../graph/link.js';
import { DANGLING_FILE, danglingJsonl, EDGES_FILE, edgesJsonl } from '../../formats/index-dir/edges.js';
import { MANIFEST_FILE, manifestText } from '../../formats/index-dir/manifest.js';
import { nodeFilePath, nodeFileText } from '../../formats/index-dir/node-file.js';
import { forEachLimited, writeManyIfChanged } from '../atomic.js';
import { compareCodeUnits } from '../../model/order.js';

export interface IndexDirWrite {
  written: string[];
  removed: string[];
}

/** Node files stringified and written at a time by {@link writeIndexDir}. */
const WRITE_BATCH = 1024;

export async function writeIndexDir(dir: string, manifest: IndexManifest, records: readonly DocumentRecord[], graph: Graph): Promise<IndexDirWrite> {
  // Path → text, or the record whose node file it is (stringified when its batch is written).
  const files = new Map<string, string | DocumentRecord>();
  files.set(MANIFEST_FILE, manifestText(manifest));
  const winners = new Map(graph.nodes.map((node) => [node.id, node]));
  for (const record of records) {
    // A duplicate id's losing record was reported by the link stage; only the winner is written.
    if (winners.get(record.node.id) === record.node) {
      files.set(nodeFilePath(record), record);
    }
  }
  files.set(EDGES_FILE, edgesJsonl(graph.edges));
  files.set(DANGLING_FILE, danglingJsonl(graph.dangling));

  // A folder that does not exist yet holds nothing to compare against or to remove.
  const fresh = await access(dir).then(
    () => false,
    () => true,
  );
  // In path order as before, a batch at a time: the texts of a 10k tree all at once set the build's peak memory.
  const sorted = [...files.entries()].sort(([a], [b]) => compareCodeUnits(a, b));
  const written: string[] = [];
  for (let at = 0; at < sorted.length; at += WRITE_BATCH) {
    const batch = sorted.slice(at, at + WRITE_BATCH).map(([path, content]) => [path, typeof content === 'string' ? content : nodeFileText(content)] as const);
    written.push(...(await writeManyIfChanged(dir, batch, { fresh })));
  }
  const removed: string[] = [];
  if (!fresh) {
    for (const path of await listFiles(join(dir, 'nodes'))) {
      const rel = relative(dir, path).split(sep).join('/');
      if (!files.has(rel)) removed.push(rel);
    }
    removed.sort(compareCodeUnits);
    await forEachLimited(removed, (rel) => rm(join(dir, rel)));
  }
  return { written, removed };
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const nested = await Promise.all(entries.map((entry) => (entry.isDirectory() ? listFiles(join(dir, entry.name)) : [join(dir, entry.name)])));
  return nested.flat();
}
