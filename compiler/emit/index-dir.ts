/**
 * `.kdd-index/` writer (PRD Appendix A): manifest.json, nodes/<kind>/<id>.json, edges/edges.jsonl.
 * Small, sorted, one record per file, so git diffs and merges stay readable. Each node file also
 * carries the document's raw links, which makes `.kdd-index/` alone enough to rebuild the graph.
 * The file texts are formats/index-dir/; this module does the I/O.
 */
import { readdir, rm } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { IndexManifest } from '../../model/graph.js';
import type { DocumentRecord } from '../../model/records.js';
import type { Graph } from '../graph/link.js';
import { DANGLING_FILE, danglingJsonl, EDGES_FILE, edgesJsonl } from '../../formats/index-dir/edges.js';
import { MANIFEST_FILE, manifestText } from '../../formats/index-dir/manifest.js';
import { nodeFilePath, nodeFileText } from '../../formats/index-dir/node-file.js';
import { forEachLimited, writeManyIfChanged, type FileContent } from '../atomic.js';
import { CACHE_DIR } from '../cache/record-cache.js';
import { compareCodeUnits } from '../../model/order.js';

export interface IndexDirWrite {
  written: string[];
  removed: string[];
}

export async function writeIndexDir(dir: string, manifest: IndexManifest, records: readonly DocumentRecord[], graph: Graph): Promise<IndexDirWrite> {
  // Path → content; a node file's text is made when its write starts (compiler/atomic.ts FileContent).
  const files = new Map<string, FileContent>();
  files.set(MANIFEST_FILE, manifestText(manifest));
  const winners = new Map(graph.nodes.map((node) => [node.id, node]));
  for (const record of records) {
    // A duplicate id's losing record was reported by the link stage; only the winner is written.
    if (winners.get(record.node.id) === record.node) {
      files.set(nodeFilePath(record), () => nodeFileText(record));
    }
  }
  files.set(EDGES_FILE, edgesJsonl(graph.edges));
  files.set(DANGLING_FILE, danglingJsonl(graph.dangling));

  // A folder that does not exist yet, or holds only the local cache folder (where a build puts its
  // in-progress marker before writing anything else), has no artifact to compare against or remove.
  const fresh = (await readdir(dir).catch(() => [] as string[])).every((name) => name === CACHE_DIR);
  const written = await writeManyIfChanged(dir, [...files.entries()].sort(([a], [b]) => compareCodeUnits(a, b)), { fresh });
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
