/**
 * The whole-tree files of `.kdd-index/edges/`: `edges.jsonl` (every edge, sorted by from_node,
 * to_node, edge_type) and `dangling.jsonl` (every unresolved wiki-link), one canonical JSON object
 * per line. Nothing rebuilds the graph from them (the node files' raw links are linked again);
 * they show a reviewer what the links of a change resolved to.
 *
 * An edge line holds what PRD Appendix A names, `{from, metadata, to, type}` (index format 2). The
 * rest of a GraphEdge follows from the node files and lives in the bundle: `source_file` is the
 * `from` node's, `extraction_method` and `bidirectional` come with the type, `layer_violation`
 * with the two nodes' layers (and every violation is in the build report and `kdd check`).
 * Format 1 wrote the whole GraphEdge, two and a half times the bytes.
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

/** The two ends of each edge line of an `edges.jsonl` text of either format (blank lines skipped). */
export function edgeEnds(text: string): { from: string; to: string }[] {
  return text.split('\n').flatMap((line) => {
    if (!line) return [];
    const edge = JSON.parse(line) as { from?: string; to?: string; from_node?: string; to_node?: string };
    return [{ from: edge.from ?? edge.from_node ?? '', to: edge.to ?? edge.to_node ?? '' }];
  });
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

/** `{from, metadata, to, type}` of an edge, keys and metadata in code-unit order, written out field by field (a 10k tree has 100k edges). */
function edgeLine(edge: GraphEdge): string {
  const j = JSON.stringify;
  return `{"from":${j(edge.from_node)},"metadata":${j(canonical(edge.metadata))},"to":${j(edge.to_node)},"type":${j(edge.edge_type)}}`;
}
