/**
 * `.kdd-index/tombstones.jsonl`: one line per node that disappeared from the tree, so a merge can
 * tell "deleted here" from "never seen here" (BR-MERGE-001 delete-wins). A tombstone lives until a
 * node with the same id reappears. The file exists only when there is at least one tombstone.
 */
import { compareCodeUnits } from '../../model/order.js';
import { canonical } from '../canonical.js';

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
