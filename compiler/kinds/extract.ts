/**
 * Extract stage: one source file → one DocumentRecord (a graph node plus the raw links it makes).
 * Pure per file, so records can be cached by content hash and rebuilt independently (incremental
 * builds, merges). Link resolution happens later, over all records (compiler/graph/link.ts).
 */
import { warning } from '../diagnostics.js';
import type { SourceFile } from '../read.js';
import { extractFeature } from './feature.js';
import { extractMarkdown } from './markdown.js';
import type { ExtractContext, ExtractOutcome } from './record.js';
import { isFeatureFile } from './route.js';

export function extractDocument(file: SourceFile, context: ExtractContext): ExtractOutcome {
  // An empty spec is usually a file created and never written (or truncated by a tool): say so.
  if (file.text.trim() === '') return { status: 'skipped', reason: 'empty file', warnings: [warning('EMPTY_DOCUMENT', { file: file.path })] };
  try {
    return isFeatureFile(file.path) ? extractFeature(file, context) : extractMarkdown(file, context);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { status: 'skipped', reason: 'extraction failed', warnings: [warning('EXTRACTION_FAILED', { file: file.path, detail })] };
  }
}
