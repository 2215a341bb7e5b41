/**
 * The site's document pieces (#18): each spec rendered as its author wrote it, one small
 * content-hashed JSON file per node, so a node page downloads its own document and nothing else.
 * Written by compiler/pack/site-docs.ts at `kdd site` time (the bundle keeps plain section text
 * only, so the Markdown source is read from the specs tree), read by site/src/worker.ts.
 * Isomorphic: plain data, no Node-only imports.
 *
 * Files next to `kdd.json`:
 * - `kdd-docs.json` ({@link DocsPointer}): the source bundle and the bucket files;
 * - buckets `kdd-docs-<12 hex>.json` ({@link DocBucket}): node id → piece file, for the ids that hash
 *   into the bucket ({@link docBucket}), so finding a piece costs one small file at any tree size;
 * - pieces `kdd-doc-<12 hex>.json` ({@link DocPiece}).
 */

export const DOCS_FORMAT = 'kdd-docs/1';
export const DOCS_POINTER_FILE = 'kdd-docs.json';
/** Content-hashed document files (buckets and pieces). */
export const DOCS_FILE = /^kdd-docs?-[0-9a-f]{12}\.json$/;
/** Ids per bucket, on average: a bucket stays a few kB. */
export const IDS_PER_BUCKET = 64;

export interface DocsPointer {
  format: typeof DOCS_FORMAT;
  /** File name of the full bundle the pieces were rendered for (must equal `kdd.json`'s `bundle`). */
  source: string;
  /** Bucket files; an id lives in `buckets[docBucket(id, buckets.length)]`. */
  buckets: string[];
  /** Nodes with a piece, and nodes without one (source file missing or changed since the build). */
  documents: number;
  missing: number;
  stale: number;
}

/** Element ids of section headings in a piece (`s-descripcion`): prefixed so a heading never takes an id the page uses. */
export const SECTION_ID_PREFIX = 's-';

/** Node id → piece file name. */
export type DocBucket = Record<string, string>;

export interface DocPiece {
  id: string;
  source_file: string;
  format: 'markdown' | 'gherkin';
  /** Front-matter in file order: key and value as HTML (lists joined with `, `; linked keys as wiki-links). */
  front: [key: string, html: string][];
  /** The rendered document: only tags markdown-it writes, sanitized again in the browser. */
  html: string;
  /** Mermaid diagrams in `html` (`<pre class="mermaid">`): drawn in the browser when > 0. */
  diagrams: number;
}

/** FNV-1a of the id's UTF-16 code units: the same bucket in Node and in the browser. */
export function docBucket(id: string, buckets: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % buckets;
}
