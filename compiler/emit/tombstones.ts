/**
 * Reads and writes `.kdd-index/tombstones.jsonl` (its text: formats/index-dir/tombstones.ts), and
 * reads the whole index as merges see it.
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeIfChanged } from '../atomic.js';
import { parseTombstones, TOMBSTONES_FILE, tombstonesJsonl, type Tombstone } from '../../formats/index-dir/tombstones.js';
import { createError } from '../../model/errors.js';
import { readIndexDir, type IndexDirContent, type OnCorrupt } from './read-index-dir.js';

/** `.kdd-index/` as merges see it: records with raw links, plus the tombstones. */
export interface IndexContent extends IndexDirContent {
  tombstones: Tombstone[];
}

/** `onCorrupt` absent: an unreadable file throws INDEX_CORRUPT; given: it is reported and read as empty. */
export async function readTombstones(indexDir: string, onCorrupt?: OnCorrupt): Promise<Tombstone[]> {
  const text = await readFile(join(indexDir, TOMBSTONES_FILE), 'utf8').catch(() => '');
  try {
    return parseTombstones(text);
  } catch (error) {
    if (!onCorrupt) throw createError('INDEX_CORRUPT', { file: join(indexDir, TOMBSTONES_FILE), detail: (error as Error).message });
    onCorrupt(TOMBSTONES_FILE, (error as Error).message);
    return [];
  }
}

/** Writes the file when it changed; removes it when there is nothing to record. Returns true if touched. */
export async function writeTombstones(indexDir: string, tombstones: readonly Tombstone[]): Promise<boolean> {
  const path = join(indexDir, TOMBSTONES_FILE);
  if (tombstones.length > 0) return writeIfChanged(path, tombstonesJsonl(tombstones));
  const existed = await readFile(path).then(
    () => true,
    () => false,
  );
  if (existed) await rm(path, { force: true });
  return existed;
}

export async function readIndex(indexDir: string): Promise<IndexContent> {
  const [content, tombstones] = await Promise.all([readIndexDir(indexDir), readTombstones(indexDir)]);
  return { ...content, tombstones };
}
