/**
 * The site's document pieces (#18, layout in formats/site-docs.ts): every node's spec rendered
 * to HTML at `kdd site` time, one content-hashed JSON file per node, plus id → file buckets.
 * The bundle holds plain section text only, so the source is read again from the specs tree; a
 * file that is gone or whose bytes no longer hash to the node's `source_hash` gets no piece (its
 * page falls back to the extracted fields) and is counted, never rendered from the wrong text.
 * Equal bundles and sources give equal files.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Bundle } from '../../formats/bundle/types.js';
import type { GraphNode } from '../../model/graph.js';
import { DOCS_FILE, DOCS_FORMAT, DOCS_POINTER_FILE, docBucket, IDS_PER_BUCKET, type DocBucket, type DocPiece, type DocsPointer } from '../../formats/site-docs.js';
import { LinkResolver } from '../graph/resolve.js';
import { parseFrontMatter } from '../parse/front-matter.js';
import { renderFeature, renderFrontMatter, renderMarkdown, type RenderContext } from '../render/spec-html.js';
import { publishHashedFiles } from './publish.js';
import { compareCodeUnits } from '../../model/order.js';

export interface SiteDocs {
  pointer: DocsPointer;
  /** Buckets and pieces, named by content hash. */
  files: { name: string; bytes: Uint8Array }[];
}

/** Bytes of a spec by its `source_file` (relative to the specs root), or null when it cannot be read. */
export type ReadSource = (sourceFile: string) => Promise<Uint8Array | null>;

export async function packSiteDocs(bundle: Bundle, bundleFile: string, readSource: ReadSource): Promise<SiteDocs> {
  const resolver = new LinkResolver(bundle.nodes);
  const files = new Map<string, Uint8Array>();
  const bucketCount = Math.max(1, Math.ceil(bundle.nodes.length / IDS_PER_BUCKET));
  const buckets: DocBucket[] = Array.from({ length: bucketCount }, () => ({}));
  let missing = 0;
  let stale = 0;
  for (const node of bundle.nodes) {
    const bytes = await readSource(node.source_file);
    if (bytes === null) {
      missing++;
      continue;
    }
    if (sha256(bytes) !== node.source_hash) {
      stale++;
      continue;
    }
    const name = add(files, 'kdd-doc', JSON.stringify(renderPiece(node, new TextDecoder().decode(bytes), resolver)));
    buckets[docBucket(node.id, bucketCount)]![node.id] = name;
  }
  const bucketFiles = buckets.map((bucket) => add(files, 'kdd-docs', JSON.stringify(bucket)));
  const documents = bundle.nodes.length - missing - stale;
  return {
    pointer: { format: DOCS_FORMAT, source: bundleFile, buckets: bucketFiles, documents, missing, stale },
    files: [...files].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => compareCodeUnits(a.name, b.name)),
  };
}

function renderPiece(node: GraphNode, source: string, resolver: LinkResolver): DocPiece {
  const context: RenderContext = { nodeId: node.id, title: node.title, resolve: (target, domain) => resolver.resolve(target, node.domain, domain)?.node ?? null };
  try {
    if (node.source_file.endsWith('.feature')) {
      const { html, diagrams } = renderFeature(source, context);
      return { id: node.id, source_file: node.source_file, format: 'gherkin', front: [], html, diagrams };
    }
    const { data, body } = parseFrontMatter(source);
    const { html, diagrams } = renderMarkdown(body, context);
    return { id: node.id, source_file: node.source_file, format: 'markdown', front: renderFrontMatter(data ?? {}, context), html, diagrams };
  } catch (error) {
    // The same bytes parsed at build time; failing now is a bug worth naming the file for.
    throw new Error(`kdd site: cannot render ${node.source_file}: ${(error as Error).message}`, { cause: error });
  }
}

function add(files: Map<string, Uint8Array>, prefix: string, json: string): string {
  const bytes = new TextEncoder().encode(json);
  const name = `${prefix}-${sha256(bytes).slice(0, 12)}.json`;
  files.set(name, bytes);
  return name;
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Writes new files, then `kdd-docs.json`, then removes document files neither the new pointer nor
 * the previous one names (a page still holding the previous pointer can finish, as with the bundle).
 */
export async function writeSiteDocs(dir: string, docs: SiteDocs): Promise<void> {
  await publishHashedFiles(dir, { files: docs.files, pointer: { file: DOCS_POINTER_FILE, value: docs.pointer }, owns: DOCS_FILE, previouslyNamed: referencedFiles });
}

/** Buckets and pieces the current `kdd-docs.json` of `dir` names (empty when there is none). */
async function referencedFiles(dir: string): Promise<string[]> {
  try {
    const pointer = JSON.parse(await readFile(join(dir, DOCS_POINTER_FILE), 'utf8')) as DocsPointer;
    const buckets = await Promise.all(pointer.buckets.map(async (name) => JSON.parse(await readFile(join(dir, name), 'utf8')) as DocBucket));
    return [...pointer.buckets, ...buckets.flatMap((bucket) => Object.values(bucket))];
  } catch {
    return [];
  }
}
