/**
 * `.kdd-index/` writer (PRD Appendix A): manifest.json, nodes/<kind>/<id>.json, edges/edges.jsonl.
 * Small, sorted, one record per file, so git diffs and merges stay readable. Each node file also
 * carries the document's raw links, which makes `.kdd-index/` alone enough to rebuild the graph.
 */
import { readdir, rm } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { GraphEdge, IndexManifest } from '../../runtime/model.js';
import type { DocumentRecord } from '../kinds/extract.js';
import type { Graph } from '../graph/link.js';
import { canonical, stableJson } from './canonical.js';
import { writeIfChanged } from './atomic.js';

export interface IndexDirWrite {
  written: string[];
  removed: string[];
}

/** Relative artifact path of a node file: `nodes/entity/Pedido.json`, domain nodes in a sub-folder. */
export function nodeFilePath(record: DocumentRecord): string {
  const { node } = record;
  const safe = (part: string) => part.replace(/[^\w.-]/g, '_');
  const domain = node.domain ? `${safe(node.domain)}/` : '';
  return `nodes/${node.kind}/${domain}${safe(node.doc_id)}.json`;
}

export function edgesJsonl(edges: readonly GraphEdge[]): string {
  return edges.map((edge) => JSON.stringify(canonical(edge))).join('\n') + (edges.length ? '\n' : '');
}

export async function writeIndexDir(dir: string, manifest: IndexManifest, records: readonly DocumentRecord[], graph: Graph): Promise<IndexDirWrite> {
  const files = new Map<string, string>();
  files.set('manifest.json', stableJson(manifest));
  const winners = new Map(graph.nodes.map((node) => [node.id, node]));
  for (const record of records) {
    // A duplicate id's losing record was reported by the link stage; only the winner is written.
    if (winners.get(record.node.id) === record.node) {
      files.set(nodeFilePath(record), stableJson({ ...record.node, links: record.links }));
    }
  }
  files.set('edges/edges.jsonl', edgesJsonl(graph.edges));
  files.set('edges/dangling.jsonl', graph.dangling.map((link) => JSON.stringify(canonical(link))).join('\n') + (graph.dangling.length ? '\n' : ''));

  const written: string[] = [];
  for (const [path, text] of [...files.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (await writeIfChanged(join(dir, path), text)) written.push(path);
  }
  const removed: string[] = [];
  for (const path of await listFiles(join(dir, 'nodes'))) {
    const rel = relative(dir, path).split(sep).join('/');
    if (!files.has(rel)) {
      await rm(path);
      removed.push(rel);
    }
  }
  return { written, removed };
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const nested = await Promise.all(entries.map((entry) => (entry.isDirectory() ? listFiles(join(dir, entry.name)) : [join(dir, entry.name)])));
  return nested.flat();
}
