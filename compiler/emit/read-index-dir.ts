/**
 * Reads `.kdd-index/` back into records: the artifacts alone are enough to rebuild the graph and
 * the bundle (no specs needed), which is what merges and servers that only receive indexes do.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GraphNode, IndexManifest } from '../../runtime/model.js';
import type { DocumentRecord, RawLink } from '../kinds/extract.js';
import { forEachLimited } from './atomic.js';
import { rememberNodeFileText } from './index-dir.js';

export interface IndexDirContent {
  manifest: IndexManifest;
  /** Sorted by source path, as the extract stage produces them. */
  records: DocumentRecord[];
}

export async function readIndexDir(dir: string): Promise<IndexDirContent> {
  const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as IndexManifest;
  const files = await nodeFiles(join(dir, 'nodes'));
  const records = new Array<DocumentRecord>(files.length);
  await forEachLimited(files.map((file, i) => [file, i] as const), async ([file, i]) => {
    records[i] = parseNodeFile(await readFile(file, 'utf8'));
  });
  records.sort((a, b) => (a.node.source_file < b.node.source_file ? -1 : a.node.source_file > b.node.source_file ? 1 : 0));
  return { manifest, records };
}

/** A node file's text → its record; the text is remembered for rewrites and the record cache. */
export function parseNodeFile(text: string): DocumentRecord {
  const { links, ...node } = JSON.parse(text) as GraphNode & { links: RawLink[] };
  const record = { node: node as GraphNode, links };
  rememberNodeFileText(record, text);
  return record;
}

async function nodeFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const nested = await Promise.all(
    entries.map((entry) => (entry.isDirectory() ? nodeFiles(join(dir, entry.name)) : entry.name.endsWith('.json') ? [join(dir, entry.name)] : [])),
  );
  return nested.flat();
}
