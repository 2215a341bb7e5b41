/**
 * The whole-tree files of `.kdd-index/edges/`: `edges.jsonl` (every GraphEdge, sorted by
 * from_node, to_node, edge_type) and `dangling.jsonl` (every unresolved wiki-link), one canonical
 * JSON object per line. Nothing rebuilds the graph from them (the node files' raw links are linked
 * again); they show a reviewer what the links of a change resolved to.
 */
import type { DanglingLink, GraphEdge } from '../../model/graph.js';
import { canonical } from '../canonical.js';

export const EDGES_FILE = 'edges/edges.jsonl';
export const DANGLING_FILE = 'edges/dangling.jsonl';

export function edgesJsonl(edges: readonly GraphEdge[]): string {
  return edges.map(edgeLine).join('\n') + (edges.length ? '\n' : '');
}

export function danglingJsonl(dangling: readonly DanglingLink[]): string {
  return dangling.map((link) => `${JSON.stringify(canonical(link))}\n`).join('');
}

/** The two ends of each edge line of an `edges.jsonl` text (blank lines skipped). */
export function edgeEnds(text: string): { from_node: string; to_node: string }[] {
  return text.split('\n').flatMap((line) => (line ? [JSON.parse(line) as { from_node: string; to_node: string }] : []));
}

/**
 * `edges.jsonl` of `next` made from `old`, the file of `previous`, when only the edges leaving the
 * nodes in `changed` may differ: the other nodes' lines are copied as bytes, so a link added to one
 * document of a 10k tree does not write out 100k edges again. Null when `old` does not hold one
 * line per edge of `previous` (then the caller writes the file whole).
 */
export function patchEdgesJsonl(old: Uint8Array, previous: readonly GraphEdge[], next: readonly GraphEdge[], changed: ReadonlySet<string>): Uint8Array | null {
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
  const encoder = new TextEncoder();
  for (const [from, start, end] of runs(next)) {
    const range = before.get(from);
    if (!changed.has(from) && range && range[1] - range[0] === end - start) parts.push(old.subarray(starts[range[0]]!, starts[range[1]]!));
    else parts.push(encoder.encode(`${next.slice(start, end).map(edgeLine).join('\n')}\n`));
  }
  return concat(parts);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
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
