/**
 * Build diagnostics: one table of warning codes → message templates. A warning never stops the
 * build; it names the file (and field) so the author can fix it. `--strict` turns them into a
 * non-zero exit. Codes follow CMD-001's error table where the spec names one.
 */
export const WARNINGS = {
  INVALID_FRONT_MATTER: 'Invalid or missing front-matter in {file}: {detail}',
  UNKNOWN_KIND: "Unknown kind '{kind}' in {file}",
  KIND_LOCATION_MISMATCH: "{kind} '{id}' found outside expected path {expected}",
  DUPLICATE_ID: 'Duplicate node id {id}: {file} ignored, the id stays with {other} (committed first, else first path)',
  EXTRACTION_FAILED: 'Extraction failed for {file}: {detail}',
  BINARY_FILE: 'Binary content in {file}: not a text spec, skipped',
  FILE_TOO_LARGE: 'File {file} is {size} bytes, over the {limit}-byte limit: skipped',
  UNREADABLE_FILE: 'Cannot read {file}: {detail}',
  SYMLINK_OUTSIDE_ROOT: 'Symbolic link {file} points outside the specs root ({target}): not read',
  EMPTY_DOCUMENT: 'Empty file {file}: nothing to index',
  /** A `.kdd-index/` file a build could not use: it is rebuilt from the specs. */
  INDEX_FILE_CORRUPT: 'Index file {file} is unreadable ({detail}): rebuilt from the specs',
  /** A `.kdd-index/` of another format version (an older or newer kdd wrote it): rewritten whole. */
  INDEX_FORMAT_CHANGED: 'Index {file} is in format {found}, this kdd writes {current}: every file is rebuilt from the specs',
  /** A committed node file that says something its spec does not (edited by hand): rewritten. */
  INDEX_FILE_MISMATCH: 'Index file {file} does not match its spec {source} (edited by hand?): rewritten from the specs',
  EMBEDDING_FAILED: '{detail}',
  AMBIGUOUS_LINK: "Link [[{target}]] in {file} matches several nodes ({candidates}); using {chosen}",
  /** L3: an enrichment file or relation that a build cannot use (compiler/enrich). */
  ENRICHMENT_IGNORED: 'Enrichment {file} ignored: {detail}',
} as const;

export type WarningCode = keyof typeof WARNINGS;

export interface BuildWarning {
  code: WarningCode;
  /** Source file relative to the specs root. */
  file: string;
  message: string;
}

export function warning(code: WarningCode, params: Record<string, string | number> & { file: string }): BuildWarning {
  const message = WARNINGS[code].replace(/\{(\w+)\}/g, (_, key: string) => String(params[key] ?? `{${key}}`));
  return { code, file: params.file, message };
}
