/**
 * The extract stage over a whole tree: every read file, in sorted path order, becomes a record —
 * the previous one when `reuse` supplies it (same bytes), else {@link extractDocument}'s. Duplicates
 * stay in that order: the link stage keeps the first record of each id.
 */
import type { DocumentRecord } from '../../model/records.js';
import type { BuildWarning } from '../diagnostics.js';
import { now, type DomainEvent } from '../events.js';
import { faultPoint } from '../fault.js';
import { detachStrings } from './detach.js';
import type { ScannedFile } from '../read.js';
import type { SkippedFile } from '../report.js';

export interface Extracted {
  /** One per file that gave a record, in path order (reused and extracted alike). */
  records: DocumentRecord[];
  /** The records extracted in this run (not reused), in path order: their node files are written. */
  extracted: DocumentRecord[];
  /** Paths of {@link extracted}. */
  reindexed: string[];
  /** Extraction time per extracted record (EVT-KDDDocument-Indexed `duration_ms`). */
  durations: Map<DocumentRecord, number>;
  /** EVT-KDDDocument-Detected and -Parsed per extracted file, in path order. */
  events: DomainEvent[];
  warnings: BuildWarning[];
  skipped: SkippedFile[];
}

/**
 * `reuse(file, indexedAt)`: the previous record of a file with the same bytes (compiler/incremental/reuse.ts), or undefined.
 * The extractors (front-matter, YAML, Markdown and Gherkin parsers) are loaded only when some file
 * is not reused: a build where nothing changed never pays for them.
 */
export async function extractTree(
  files: readonly ScannedFile[],
  commitTimes: ReadonlyMap<string, string>,
  reuse: (file: ScannedFile, indexedAt: string | null) => DocumentRecord | undefined,
  onExtracted?: (done: number, total: number) => void,
): Promise<Extracted> {
  const out: Extracted = { records: [], extracted: [], reindexed: [], durations: new Map(), events: [], warnings: [], skipped: [] };
  const reusedRecords = files.map((file) => reuse(file, commitTimes.get(file.path) ?? null));
  const { extractDocument } = reusedRecords.includes(undefined) ? await import('./extract.js') : { extractDocument: null };
  files.forEach((file, index) => {
    const indexedAt = commitTimes.get(file.path) ?? null;
    const reused = reusedRecords[index];
    if (reused) out.records.push(reused);
    else {
      const started = performance.now();
      faultPoint('extract');
      // The read stage loaded every file whose record is not reused.
      const outcome = extractDocument!({ path: file.path, text: file.text ?? '', hash: file.hash }, { indexedAt });
      out.warnings.push(...outcome.warnings);
      if (outcome.status === 'skipped') out.skipped.push({ file: file.path, reason: outcome.reason });
      else {
        detachStrings(outcome.record);
        // The Parsed event keeps the front matter to the end of the build (the report): its values
        // are cut from the document's text, which they would otherwise keep alive (~40 MB of heap at
        // the pack on 10,800 documents, docs/decisions/build-speed.md).
        detachStrings(outcome.facts);
        const { node } = outcome.record;
        out.records.push(outcome.record);
        out.extracted.push(outcome.record);
        out.reindexed.push(file.path);
        out.durations.set(outcome.record, performance.now() - started);
        out.events.push(
          { event: 'EVT-KDDDocument-Detected', payload: { source_path: file.path, source_hash: file.hash, kind: node.kind, layer: node.layer, detected_at: now() } },
          { event: 'EVT-KDDDocument-Parsed', payload: { document_id: node.doc_id, source_path: file.path, kind: node.kind, ...outcome.facts, parsed_at: now() } },
        );
      }
    }
    onExtracted?.(index + 1, files.length);
  });
  return out;
}
