/**
 * Reads `.kdd-index/` back into records: the artifacts alone are enough to rebuild the graph and
 * the bundle (no specs needed), which is what merges and servers that only receive indexes do.
 *
 * A committed file can be anything by the time it is read (a hand edit, a git conflict, a torn
 * copy): every file is checked as it is parsed, and a bad one is named — as a typed error
 * (INDEX_CORRUPT) for readers that have nothing else, or through `onCorrupt` for a build, which
 * drops it and rebuilds it from the specs.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { createError } from '../../model/errors.js';
import type { IndexManifest } from '../../model/graph.js';
import type { DocumentRecord } from '../../model/records.js';
import { MANIFEST_FILE, parseManifest } from '../../formats/index-dir/manifest.js';
import { parseNodeFile } from '../../formats/index-dir/node-file.js';
import { compareCodeUnits } from '../../model/order.js';
import { forEachLimited } from '../atomic.js';

export interface IndexDirContent {
  manifest: IndexManifest;
  /** Sorted by source path, as the extract stage produces them. */
  records: DocumentRecord[];
}

/** Called with the index-relative path of a file that cannot be used, and why. */
export type OnCorrupt = (file: string, detail: string) => void;

/**
 * `onCorrupt` absent: the first bad file throws INDEX_CORRUPT. Given: bad node files are reported
 * and left out (the manifest must still be sound: it is checked by the caller first).
 */
export async function readIndexDir(dir: string, onCorrupt?: OnCorrupt): Promise<IndexDirContent> {
  const manifest = parseManifest(await readFile(join(dir, MANIFEST_FILE), 'utf8'), join(dir, MANIFEST_FILE));
  return { manifest, records: await readNodeFiles(dir, onCorrupt) };
}

/** The records of the node files of the index `dir`, sorted by source path (bad files as in {@link readIndexDir}). */
export async function readNodeFiles(dir: string, onCorrupt?: OnCorrupt): Promise<DocumentRecord[]> {
  const files = await nodeFiles(join(dir, 'nodes'));
  const records = new Array<DocumentRecord | null>(files.length);
  await forEachLimited(files.map((file, i) => [file, i] as const), async ([file, i]) => {
    const text = await readFile(file, 'utf8');
    try {
      records[i] = parseNodeFile(text);
    } catch (error) {
      const detail = (error as Error).message;
      if (!onCorrupt) throw createError('INDEX_CORRUPT', { file, detail });
      onCorrupt(relative(dir, file).split(sep).join('/'), detail);
      records[i] = null;
    }
  });
  const kept = records.filter((record): record is DocumentRecord => record !== null);
  kept.sort((a, b) => compareCodeUnits(a.node.source_file, b.node.source_file));
  return kept;
}

async function nodeFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const nested = await Promise.all(
    entries.map((entry) => (entry.isDirectory() ? nodeFiles(join(dir, entry.name)) : entry.name.endsWith('.json') ? [join(dir, entry.name)] : [])),
  );
  return nested.flat();
}
