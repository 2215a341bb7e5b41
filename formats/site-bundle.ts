/**
 * The site's search sub-bundle (#7): what the browser downloads before the first search, instead of
 * the full bundle (94 MB at 10k documents). Written by compiler/pack/site-bundle.ts, read by
 * site/src/search/sharded.ts. Isomorphic: plain data and a varint codec, no Node-only imports.
 *
 * Files, all next to `kdd.json`, all content-hashed (`kdd-s-<sha256:12>.msgpack`) except the pointer:
 * - `kdd-site.json` ({@link SitePointer}): names the full bundle it was derived from and the meta file;
 * - meta ({@link SearchMeta}): node count, per-node kind, layer and field lengths, shard boundaries;
 * - term shards ({@link TermShard}): a contiguous run of the sorted vocabulary with its postings;
 * - key shards ({@link KeyShard}): exact-match keys (folded id, doc id, title, alias, file name);
 * - doc chunks ({@link DocChunk}): what a result row shows, {@link DOC_CHUNK} nodes per file.
 * A query fetches only the shards its terms fall into, like Pagefind's chunked index.
 *
 * Node, graph and impact pages read the graph pieces instead of the full bundle:
 * - graph meta ({@link GraphMeta}): edge-type names, the graph chunks, the id directory shards;
 * - id shards ({@link IdShard}): sorted node ids → slot;
 * - graph chunks ({@link GraphChunk}): up to {@link GRAPH_CHUNK} nodes that link to each other
 *   (grouped by the packer so a neighbourhood spans few chunks), their labels, their edges both ways,
 *   and the names of their detail and impact pieces;
 * - node details ({@link NodeDetail}) and impact pieces (the runtime's `impact` answer), one per node;
 * - report pieces: the layer map, `violations` and `health` answers, one each ({@link GraphMeta}).
 * A node's *slot* is `chunk * GRAPH_CHUNK + place in chunk`: edges name slots, so a neighbour's
 * chunk is known without any global table.
 */

import type { GraphNode } from '../model/graph.js';

/**
 * Bumped whenever a file's shape changes; the worker treats a sub-bundle of another format as absent
 * and searches the full bundle. `kdd-site/4`: the meta carries the glossary rows ({@link DefinitionTable}).
 * (`kdd-site/3` was written by a reverted change whose meta differs, so it is never reused.)
 */
export const SITE_FORMAT = 'kdd-site/4';
/** Name of the site pointer next to `kdd.json`. */
export const SITE_POINTER_FILE = 'kdd-site.json';
/** Content-hashed site files: `kdd-s-<12 hex>.msgpack`. */
export const SITE_FILE = /^kdd-s-[0-9a-f]{12}\.msgpack$/;
/** Nodes per doc chunk: small, so ten results cost at most ten small files. */
export const DOC_CHUNK = 8;
/** Characters of section text kept per node for snippets (windowed to 240 at query time). */
export const SNIPPET_SOURCE_CHARS = 320;

export interface SitePointer {
  format: typeof SITE_FORMAT;
  /** File name of the full bundle this was derived from (must equal `kdd.json`'s `bundle`). */
  source: string;
  /** File name of the {@link SearchMeta}. */
  meta: string;
  /** Bytes of the meta file. */
  meta_bytes: number;
  /** What the page header and the search filters show (Info without `source`). */
  info: { nodes: number; edges: number; index_level: string; kinds: string[]; layers: string[] };
  /** File name of the {@link GraphMeta} (node, graph and impact pages). */
  graph: string;
  /** Number and total bytes of every site file (meta, shards, chunks). */
  files: number;
  total_bytes: number;
}

/** First key of a shard and its file; shards are sorted and cover the key space without gaps. */
export interface ShardRef {
  first: string;
  file: string;
}

export interface SearchMeta {
  format: typeof SITE_FORMAT;
  /** The full bundle's file name. */
  source: string;
  /** Number of nodes, in full-bundle order (node index = position). */
  nodes: number;
  /** Search field names (runtime/search/fields.ts order). */
  fields: string[];
  /** varint per (node, field): tokens in the field, as `lens` of the full text index. */
  lens: Uint8Array;
  /** Per node: index into `kind_names`. */
  kinds: Uint8Array;
  /** Per node: index into `layer_names`. */
  layers: Uint8Array;
  kind_names: string[];
  layer_names: string[];
  /** Term shards, sorted by first term. */
  terms: ShardRef[];
  /** Exact-key shards, sorted by first key. */
  keys: ShardRef[];
  /** Doc chunk files: chunk i holds nodes [i·DOC_CHUNK, (i+1)·DOC_CHUNK). */
  docs: string[];
  index_level: string;
  /** The glossary rows definition scoring reads (runtime/search/definitions.ts); the nodes here carry no fields. */
  definitions: DefinitionTable;
}

/**
 * A glossary row as definition scoring reads it: the full index derives it from the glossary node's
 * `terms` field (runtime/search/definitions.ts), the site sub-bundle carries it ready-made.
 */
export interface GlossaryRow {
  /** The glossary node's position. */
  node: number;
  /** The defined term as written. */
  name: string;
  /** Distinct terms of the name (the row is found under each). */
  nameTerms: readonly string[];
  /** Distinct terms of the meaning that the name does not hold. */
  meaningTerms: readonly string[];
}

/** Every glossary row of a tree, compact: the few nodes it concerns make it a few kB in the meta. */
export interface DefinitionTable {
  /** Distinct terms of all rows, sorted, joined by `\n` (terms hold no line break). */
  vocabulary: string;
  /** Per row: the defined term as written. */
  names: string[];
  /** Per row, varints: node position minus the previous row's, name term count, meaning term count, then each term's place in `vocabulary`. */
  rows: Uint8Array;
}

export interface TermShard {
  /** Sorted terms joined by `\n`. */
  terms: string;
  /** varint per term: number of postings. */
  counts: Uint8Array;
  /** varint per posting: node position, delta-coded within a term (postings sorted by node, field). */
  docs: Uint8Array;
  /** varint per posting: the full index's `field << 12 | tf`. */
  tfs: Uint8Array;
}

export interface KeyShard {
  /** Sorted folded keys joined by `\n`. */
  keys: string;
  /** Per key: varint count, then varint node positions delta-coded. */
  nodes: Uint8Array;
}

/** What a search result row shows. */
export interface DocSummary {
  id: string;
  doc_id: string;
  title: string;
  kind: string;
  layer: string;
  status: string;
  source_file: string;
  /** Heading of the section `text` comes from, or null. */
  section: string | null;
  /** Up to {@link SNIPPET_SOURCE_CHARS} of the node's defining section, whitespace collapsed. */
  text: string;
}

export interface DocChunk {
  /** First node position in the chunk. */
  start: number;
  docs: DocSummary[];
}

/** Nodes per graph chunk (a power of two: slot = chunk << 6 | member). */
export const GRAPH_CHUNK = 64;

export interface GraphMeta {
  format: typeof SITE_FORMAT;
  source: string;
  nodes: number;
  /** Edge type names; an edge's code is `type << 1 | layer_violation`. */
  edge_types: string[];
  kind_names: string[];
  layer_names: string[];
  /** Graph chunk files; chunk i holds slots [i·GRAPH_CHUNK, (i+1)·GRAPH_CHUNK). */
  chunks: string[];
  /** Id directory shards, sorted by first id. */
  ids: ShardRef[];
  /**
   * The tree-wide answers, one piece each: the layer map's data and the registry's `violations` and
   * `health` answers with default parameters. Absent in sub-bundles from before they existed: the
   * worker then computes them from the full bundle.
   */
  reports?: Record<ReportName, string>;
}

/** The pages whose answer covers the whole tree: precomputed once per build. */
export type ReportName = 'layers' | 'violations' | 'health';

export interface IdShard {
  /** Sorted node ids joined by `\n`. */
  ids: string;
  /** varint per id: its slot. */
  slots: Uint8Array;
}

export interface GraphChunk {
  ids: string[];
  titles: string[];
  /** Per member: index into `kind_names` / `layer_names`. */
  kinds: Uint8Array;
  layers: Uint8Array;
  /** Per member, varints: count, then (slot, code) per outgoing edge. */
  out: Uint8Array;
  /** Same for incoming edges (slot = the edge's source). */
  in: Uint8Array;
  /** Per member: its {@link NodeDetail} file and its impact file. */
  details: string[];
  impacts: string[];
}

/**
 * What the node page shows (`#/node/ID`), one file per node, so a node page moves a few kB at any
 * tree size. The same object the worker builds from the full bundle when there is no sub-bundle
 * (runtime/views/node-view.ts). A rendered form of the document (its Markdown source or sanitized HTML)
 * belongs here too, as extra optional fields (`source`, `html`), so the node page keeps one fetch.
 */
export type NodeDetail = NodeView;

// ── What the site shows of a node and of the layers (computed by runtime/views/, precomputed here for static sites) ──

export interface EdgeView {
  edge_type: string;
  /** The node at the other end. */
  other: { id: string; title: string; kind: string; layer: string };
  layer_violation: boolean;
  section: string | null;
}

export interface NodeView {
  /** The node; `sections` is empty when it has extracted fields (the page shows those instead). */
  node: GraphNode;
  outgoing: EdgeView[];
  incoming: EdgeView[];
  /** Wiki-link label (id, doc id, title, file name) → node id, for links inside field values. */
  links: Record<string, string>;
  dangling: string[];
}

/** A node as the layer map draws it. */
export interface MapNode {
  id: string;
  title: string;
  kind: string;
  layer: string;
}

export interface LayerMap {
  /** Layers that hold nodes, in hierarchy order; kinds in the kind table's order. */
  layers: { layer: string; count: number; kinds: { kind: string; count: number; shown: MapNode[] }[] }[];
  violations: { from: MapNode; to: MapNode; edge_type: string; section: string | null; explanation: string }[];
  nodes: number;
  edges: number;
  dangling: number;
  orphans: number;
  /** False on large trees: only the ends of violations are listed under their kind. */
  all_nodes_drawn: boolean;
}


// ── varint codec (unsigned LEB128) ──────────────────────────────────────────────────────────

export function encodeVarints(values: ArrayLike<number>): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < values.length; i++) {
    let v = values[i]!;
    while (v >= 0x80) {
      out.push((v & 0x7f) | 0x80);
      v = Math.floor(v / 128);
    }
    out.push(v);
  }
  return Uint8Array.from(out);
}

/** Decodes `count` varints (all of them when omitted) starting at `bytes[0]`. */
export function decodeVarints(bytes: Uint8Array, count?: number): number[] {
  const out: number[] = [];
  let p = 0;
  while (p < bytes.length && (count === undefined || out.length < count)) {
    let v = 0;
    let scale = 1;
    let b: number;
    do {
      b = bytes[p++]!;
      v += (b & 0x7f) * scale;
      scale *= 128;
    } while (b & 0x80);
    out.push(v);
  }
  return out;
}

/** `rows` in node order (as definitions.ts derives them) → {@link DefinitionTable}. */
export function encodeDefinitions(rows: readonly GlossaryRow[]): DefinitionTable {
  const vocabulary = [...new Set(rows.flatMap((row) => [...row.nameTerms, ...row.meaningTerms]))].sort();
  const place = new Map(vocabulary.map((term, i) => [term, i]));
  const values: number[] = [];
  let last = 0;
  for (const row of rows) {
    values.push(row.node - last, row.nameTerms.length, row.meaningTerms.length);
    for (const term of [...row.nameTerms, ...row.meaningTerms]) values.push(place.get(term)!);
    last = row.node;
  }
  return { vocabulary: vocabulary.join('\n'), names: rows.map((row) => row.name), rows: encodeVarints(values) };
}

export function decodeDefinitions(table: DefinitionTable): GlossaryRow[] {
  const vocabulary = table.vocabulary === '' ? [] : table.vocabulary.split('\n');
  const values = decodeVarints(table.rows);
  const rows: GlossaryRow[] = [];
  let node = 0;
  let p = 0;
  for (const name of table.names) {
    node += values[p++]!;
    const nameCount = values[p++]!;
    const meaningCount = values[p++]!;
    const terms = values.slice(p, (p += nameCount + meaningCount)).map((i) => vocabulary[i]!);
    rows.push({ node, name, nameTerms: terms.slice(0, nameCount), meaningTerms: terms.slice(nameCount) });
  }
  return rows;
}

/** Index of the shard whose range holds `key` (the last shard whose first key ≤ key), or -1. */
export function shardFor(shards: readonly ShardRef[], key: string): number {
  let lo = 0;
  let hi = shards.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (shards[mid]!.first <= key) (found = mid), (lo = mid + 1);
    else hi = mid - 1;
  }
  return found;
}
