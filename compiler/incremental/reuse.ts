/**
 * What the read and extract stages may take from the previous build instead of doing the work:
 * spec files whose stamps (or git) say they are unchanged, and the records of files whose bytes are
 * the same. Extraction is pure, so a reused record is the record extraction would give.
 */
import { basename } from 'node:path';
import { stableJson } from '../../formats/canonical.js';
import type { DocumentRecord } from '../../model/records.js';
import { warning, type BuildWarning } from '../diagnostics.js';
import { nodeFilePath } from '../../formats/index-dir/node-file.js';
import { trustedSources } from '../git-changes.js';
import type { extractDocument } from '../kinds/extract.js';
import type { ReadSupply, ScannedFile } from '../read.js';
import type { Earlier } from './earlier.js';

/** For the read stage: stamps it may trust, files git says are unchanged, and which unread files need their bytes after all. */
export function readSupply(earlier: Earlier, changedFiles: ReadonlySet<string> | undefined): ReadSupply {
  if (earlier.fullReason !== null) return {};
  return {
    known: earlier.stamps ?? undefined,
    statted: earlier.specStats ?? undefined,
    // Unverified records are checked against the specs: every file is read.
    trusted: changedFiles && !earlier.unverified ? trustedSources(earlier.byPath, changedFiles) : undefined,
    // A stamped file with no previous record of the same bytes (a duplicate id's losing file) is read after all.
    reusable: (file: ScannedFile) => earlier.byPath.get(file.path)?.node.source_hash === file.hash,
  };
}

/**
 * For the extract stage: the previous record of `file` when its bytes are the same, else undefined
 * (always undefined on a full build). Only the git time can move: the bundle takes the new one; the
 * node file keeps the one it was written with (emit does not rewrite it), so a commit of that file
 * (through the pre-commit hook, or a fresh clone) leaves `.kdd-index/` as it is.
 *
 * Records read from committed node files ({@link Earlier.unverified}) are reused only when the spec,
 * extracted again, gives the same content up to the git time: a node file edited by hand with its
 * `source_hash` left alone would otherwise be trusted. A mismatch is reported through `onMismatch`
 * (INDEX_FILE_MISMATCH naming the node file) and the spec's own record replaces it.
 */
/** What checks unverified records: the extractor (loaded by the caller only when needed) and where a mismatch goes. */
export interface RecordCheck {
  extract: typeof extractDocument;
  onMismatch: (warning: BuildWarning) => void;
}

export function reusedRecord(earlier: Earlier, file: ScannedFile, indexedAt: string | null, check: RecordCheck | null): DocumentRecord | undefined {
  const old = earlier.fullReason === null ? earlier.byPath.get(file.path) : undefined;
  if (!old || old.node.source_hash !== file.hash) return undefined;
  if (earlier.unverified && check && !saysTheSame(check.extract, old, file, indexedAt)) {
    check.onMismatch(warning('INDEX_FILE_MISMATCH', { file: `${basename(earlier.indexDir ?? '.kdd-index')}/${nodeFilePath(old)}`, source: file.path }));
    return undefined;
  }
  return old.node.indexed_at === indexedAt ? old : { node: { ...old.node, indexed_at: indexedAt }, links: old.links };
}

/** Whether extracting `file` again gives `old`'s node and links, git time aside. */
function saysTheSame(extract: typeof extractDocument, old: DocumentRecord, file: ScannedFile, indexedAt: string | null): boolean {
  if (file.text === null) return false;
  const outcome = extract({ path: file.path, text: file.text, hash: file.hash }, { indexedAt });
  if (outcome.status === 'skipped') return false;
  const content = (record: DocumentRecord) => stableJson({ ...record.node, indexed_at: null, links: record.links });
  return content(outcome.record) === content(old);
}
