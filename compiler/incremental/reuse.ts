/**
 * What the read and extract stages may take from the previous build instead of doing the work:
 * spec files whose stamps (or git) say they are unchanged, and the records of files whose bytes are
 * the same. Extraction is pure, so a reused record is the record extraction would give.
 */
import type { DocumentRecord } from '../../model/records.js';
import { trustedSources } from '../git-changes.js';
import type { ReadSupply, ScannedFile } from '../read.js';
import type { Earlier } from './earlier.js';

/** For the read stage: stamps it may trust, files git says are unchanged, and which unread files need their bytes after all. */
export function readSupply(earlier: Earlier, changedFiles: ReadonlySet<string> | undefined): ReadSupply {
  if (earlier.fullReason !== null) return {};
  return {
    known: earlier.stamps ?? undefined,
    trusted: changedFiles ? trustedSources(earlier.byPath, changedFiles) : undefined,
    // A stamped file with no previous record of the same bytes (a duplicate id's losing file) is read after all.
    reusable: (file: ScannedFile) => earlier.byPath.get(file.path)?.node.source_hash === file.hash,
  };
}

/**
 * For the extract stage: the previous record of `path` when its bytes are the same (`hash`), else
 * undefined (always undefined on a full build). Only the git time can move: the bundle takes the new
 * one; the node file keeps the one it was written with (emit does not rewrite it), so a commit of
 * that file (through the pre-commit hook, or a fresh clone) leaves `.kdd-index/` as it is.
 */
export function reusedRecord(earlier: Earlier, path: string, hash: string, indexedAt: string | null): DocumentRecord | undefined {
  const old = earlier.fullReason === null ? earlier.byPath.get(path) : undefined;
  if (!old || old.node.source_hash !== hash) return undefined;
  return old.node.indexed_at === indexedAt ? old : { node: { ...old.node, indexed_at: indexedAt }, links: old.links };
}
