/** What extraction hands on (the outcome, the parse facts for the events) and how a document's id and node id are formed. */
import type { DocumentRecord } from '../../model/records.js';
import type { KindSpec } from '../../model/kinds.js';
import type { BuildWarning } from '../diagnostics.js';

/** What the parse step saw, for the EVT-KDDDocument-Parsed payload. */
export interface ParseFacts {
  front_matter: Record<string, unknown>;
  section_count: number;
  wiki_link_count: number;
}

export type ExtractOutcome =
  | { status: 'indexed'; record: DocumentRecord; facts: ParseFacts; warnings: BuildWarning[] }
  | { status: 'skipped'; reason: string; warnings: BuildWarning[] };

export interface ExtractContext {
  /** Git commit time of the file, or null. */
  indexedAt: string | null;
}

export function nodeId(domain: string | null, prefix: string, docId: string): string {
  return domain ? `${domain}:${prefix}:${docId}` : `${prefix}:${docId}`;
}

/** Front-matter `id`, else the id pattern of the kind found in the file name, else the file name. */
export function documentId(spec: KindSpec, data: Record<string, unknown>, path: string): string {
  const declared = stringField(data.id);
  if (declared) return declared;
  const base = baseName(path);
  return spec.idPattern?.exec(base)?.[0] ?? base;
}

export function baseName(path: string): string {
  const file = path.slice(path.lastIndexOf('/') + 1);
  return file.replace(/\.(md|feature)$/, '');
}

/** A front-matter value as one trimmed string, or null. */
export function stringField(value: unknown): string | null {
  if (typeof value === 'string' && value.trim()) return value.trim();
  if (typeof value === 'number') return String(value);
  return null;
}
