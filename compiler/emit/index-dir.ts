/**
 * `.kdd-index/` writer (PRD Appendix A): manifest.json, nodes/<kind>/<id>.json, edges/edges.jsonl.
 * Small, sorted, one record per file, so git diffs and merges stay readable. Each node file also
 * carries the document's raw links, which makes `.kdd-index/` alone enough to rebuild the graph.
 */
import { access, readdir, rm } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { GraphEdge, IndexManifest } from '../../model/graph.js';
import type { DocumentRecord } from '../../model/records.js';
import type { Graph } from '../graph/link.js';
import { canonical, stableJson } from '../../formats/canonical.js';
import { forEachLimited, writeManyIfChanged } from '../atomic.js';
import { compareCodeUnits } from '../../model/order.js';

export interface IndexDirWrite {
  written: string[];
  removed: string[];
}

/** Relative artifact path of a node file: `nodes/entity/Pedido.json`, domain nodes in a sub-folder. */
export function nodeFilePath(record: DocumentRecord): string {
  let path = nodePaths.get(record);
  if (path === undefined) {
    const { node } = record;
    const safe = (part: string) => part.replace(/[^\w.-]/g, '_');
    const domain = node.domain ? `${safe(node.domain)}/` : '';
    nodePaths.set(record, (path = `nodes/${node.kind}/${domain}${safe(node.doc_id)}.json`));
  }
  return path;
}

/** A build asks for the path of each of 10k records several times (write, check, stamp): computed once. */
const nodePaths = new WeakMap<DocumentRecord, string>();

/**
 * Node-file text of each record read back from `.kdd-index/`: the text it was parsed from, so
 * writing that record again needs no stringifying.
 */
const nodeTexts = new WeakMap<DocumentRecord, string>();

/**
 * The node file's content for `record` (`stableJson` of the node plus its raw links). A text made
 * here is not kept: a build writes each node file once, and keeping 10k texts (about three times
 * the spec bytes) alive until the build ends only raised its peak memory.
 */
export function nodeFileText(record: DocumentRecord): string {
  return nodeTexts.get(record) ?? stableJson({ ...record.node, links: record.links });
}

/** Records the text a record was parsed from (it is what `nodeFileText` would produce). */
export function rememberNodeFileText(record: DocumentRecord, text: string): void {
  nodeTexts.set(record, text);
}

export function edgesJsonl(edges: readonly GraphEdge[]): string {
  return edges.map(edgeLine).join('\n') + (edges.length ? '\n' : '');
}

/**
 * `edges.jsonl` of `next` made from `old`, the file of `previous`, when only the edges leaving the
 * nodes in `changed` may differ: the other nodes' lines are copied as bytes, so a link added to one
 * document of a 10k tree does not write out 100k edges again. Null when `old` does not hold one
 * line per edge of `previous` (then the caller writes the file whole).
 */
export function patchEdgesJsonl(old: Buffer, previous: readonly GraphEdge[], next: readonly GraphEdge[], changed: ReadonlySet<string>): Buffer | null {
  const starts = new Array<number>(previous.length + 1);
  let at = 0;
  for (let i = 0; i < previous.length; i++) {
    starts[i] = at;
    const end = old.indexOf(10, at);
    if (end < 0) return null;
    at = end + 1;
  }
  starts[previous.length] = at;
  if (at !== old.length) return null;
  const before = new Map<string, [number, number]>();
  for (const [from, start, end] of runs(previous)) before.set(from, [start, end]);
  const parts: Uint8Array[] = [];
  for (const [from, start, end] of runs(next)) {
    const range = before.get(from);
    if (!changed.has(from) && range && range[1] - range[0] === end - start) parts.push(old.subarray(starts[range[0]]!, starts[range[1]]!));
    else parts.push(Buffer.from(`${next.slice(start, end).map(edgeLine).join('\n')}\n`));
  }
  return Buffer.concat(parts);
}

/** `[from_node, start, end)` of each run of edges leaving the same node (edges sorted by from_node). */
function* runs(edges: readonly GraphEdge[]): Generator<[string, number, number]> {
  for (let start = 0; start < edges.length; ) {
    const from = edges[start]!.from_node;
    let end = start + 1;
    while (end < edges.length && edges[end]!.from_node === from) end++;
    yield [from, start, end];
    start = end;
  }
}

/** Keys of an edge in canonical (code-unit) order. */
const EDGE_KEYS = ['bidirectional', 'edge_type', 'extraction_method', 'from_node', 'layer_violation', 'metadata', 'source_file', 'to_node'];

/**
 * `JSON.stringify(canonical(edge))`, written out field by field: a 10k tree has 100k edges, and
 * building a sorted copy of each is most of the cost of this file.
 */
function edgeLine(edge: GraphEdge): string {
  const keys = Object.keys(edge);
  if (keys.length !== EDGE_KEYS.length || !EDGE_KEYS.every((key) => (edge as unknown as Record<string, unknown>)[key] !== undefined)) return JSON.stringify(canonical(edge));
  const j = JSON.stringify;
  return `{"bidirectional":${j(edge.bidirectional)},"edge_type":${j(edge.edge_type)},"extraction_method":${j(edge.extraction_method)},"from_node":${j(edge.from_node)},"layer_violation":${j(edge.layer_violation)},"metadata":${j(canonical(edge.metadata))},"source_file":${j(edge.source_file)},"to_node":${j(edge.to_node)}}`;
}

/** Node files stringified and written at a time by {@link writeIndexDir}. */
const WRITE_BATCH = 1024;

export async function writeIndexDir(dir: string, manifest: IndexManifest, records: readonly DocumentRecord[], graph: Graph): Promise<IndexDirWrite> {
  // Path → text, or the record whose node file it is (stringified when its batch is written).
  const files = new Map<string, string | DocumentRecord>();
  files.set('manifest.json', stableJson(manifest));
  const winners = new Map(graph.nodes.map((node) => [node.id, node]));
  for (const record of records) {
    // A duplicate id's losing record was reported by the link stage; only the winner is written.
    if (winners.get(record.node.id) === record.node) {
      files.set(nodeFilePath(record), record);
    }
  }
  files.set('edges/edges.jsonl', edgesJsonl(graph.edges));
  files.set('edges/dangling.jsonl', graph.dangling.map((link) => JSON.stringify(canonical(link))).join('\n') + (graph.dangling.length ? '\n' : ''));

  // A folder that does not exist yet holds nothing to compare against or to remove.
  const fresh = await access(dir).then(
    () => false,
    () => true,
  );
  // In path order as before, a batch at a time: the texts of a 10k tree all at once set the build's peak memory.
  const sorted = [...files.entries()].sort(([a], [b]) => compareCodeUnits(a, b));
  const written: string[] = [];
  for (let at = 0; at < sorted.length; at += WRITE_BATCH) {
    const batch = sorted.slice(at, at + WRITE_BATCH).map(([path, content]) => [path, typeof content === 'string' ? content : nodeFileText(content)] as const);
    written.push(...(await writeManyIfChanged(dir, batch, { fresh })));
  }
  const removed: string[] = [];
  if (!fresh) {
    for (const path of await listFiles(join(dir, 'nodes'))) {
      const rel = relative(dir, path).split(sep).join('/');
      if (!files.has(rel)) removed.push(rel);
    }
    removed.sort(compareCodeUnits);
    await forEachLimited(removed, (rel) => rm(join(dir, rel)));
  }
  return { written, removed };
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const nested = await Promise.all(entries.map((entry) => (entry.isDirectory() ? listFiles(join(dir, entry.name)) : [join(dir, entry.name)])));
  return nested.flat();
}
