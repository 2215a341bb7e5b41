/**
 * `.kdd-index/tombstones.jsonl`: one line per node that disappeared from the tree, so a merge can
 * tell "deleted here" from "never seen here" (BR-MERGE-001 delete-wins). A tombstone lives until a
 * node with the same id reappears. The file exists only when there is at least one tombstone.
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { compareCodeUnits } from '../../model/order.js';
import { writeIfChanged } from '../atomic.js';
import { canonical } from '../../formats/canonical.js';
import { createError } from '../../model/errors.js';
import { readIndexDir, type IndexDirContent, type OnCorrupt } from './read-index-dir.js';

export const TOMBSTONES_FILE = 'tombstones.jsonl';

export interface Tombstone {
  /** Id of the node that disappeared (`Entity:Pedido`). */
  node_id: string;
  /** Where the node was last defined, relative to the specs root. */
  source_file: string;
  /** SHA-256 of the last indexed version. */
  source_hash: string;
  /** Commit time (ISO) of HEAD when the deletion was recorded, or null outside git. Never the wall clock. */
  deleted_at: string | null;
}

/** `.kdd-index/` as merges see it: records with raw links, plus the tombstones. */
export interface IndexContent extends IndexDirContent {
  tombstones: Tombstone[];
}

export function sortTombstones(tombstones: readonly Tombstone[]): Tombstone[] {
  return [...tombstones].sort((a, b) => compareCodeUnits(a.node_id, b.node_id));
}

export function tombstonesJsonl(tombstones: readonly Tombstone[]): string {
  return sortTombstones(tombstones)
    .map((tombstone) => `${JSON.stringify(canonical(tombstone))}\n`)
    .join('');
}

export function parseTombstones(text: string): Tombstone[] {
  return sortTombstones(
    text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => {
        const tombstone = JSON.parse(line) as Tombstone;
        if (typeof tombstone?.node_id !== 'string') throw new Error(`not a tombstone: ${line.slice(0, 80)}`);
        return tombstone;
      }),
  );
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
