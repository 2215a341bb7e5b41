/**
 * Bundle format 2: the encoded (on-disk) form of a {@link Bundle} and its hydration back into the
 * in-memory shape every query uses. docs/bundle-format.md describes the layout; in short:
 *
 * - nodes: the light part of each node (id, kind, title, …) as a plain map, plus one msgpack blob per
 *   node for the heavy part (`sections`, `indexed_fields`), all blobs concatenated in one `bin`.
 *   Decoding a blob is deferred to the first access of `node.sections` / `node.indexed_fields`.
 *   Strings of `indexed_fields` that occur verbatim in the node's section text are stored as
 *   (leaf, start, length) references into it, not twice.
 * - edges: columns (node indices, string-table indices, flags); `source_file` equal to the from-node's
 *   is implied. Hydrated into ordinary {@link GraphEdge} objects at load.
 * - outgoing / incoming: not stored, derived from the edge columns at load.
 * - chunks: columns; ids stored without their `${node_id}#` prefix; hydrated on first access.
 *
 * Pure data in, pure data out; isomorphic (no Node-only types). Equal input ⇒ equal bytes.
 */
import { Packr } from 'msgpackr';
import { createError } from '../../model/errors.js';
import type { GraphEdge, GraphNode, NodeSection } from '../../model/graph.js';
import type { Bundle, BundleChunk } from './bundle.js';

// Fixed options: plain maps (records are slower and save ~1 %), no structure sharing across calls.
export const newPackr = () => new Packr({ useRecords: false, variableMapSize: true });
/** One decoder for the lazy node bodies (unpacking keeps no state between calls with these options). */
const bodyUnpackr = newPackr();
/** One encoder for {@link encodeNodeBody} (its output is copied out of the shared buffer). */
const bodyPackr = newPackr();

/** Heavy node keys, moved out of the light part into the per-node body blob. */
const HEAVY = ['sections', 'indexed_fields'] as const;
/** Strings shorter than this are not worth a reference (3 small ints + a placeholder). */
const MIN_REF = 12;
/** Section texts are joined with this to form the text a node's references point into. */
const POOL_SEPARATOR = '\n\n';

// ── Unsigned integer columns ────────────────────────────────────────────────────────────────────
/** `[width, …little-endian values]` with width 1, 2 or 4 bytes, the smallest that fits the maximum. */
export function encodeUints(values: ArrayLike<number>): Uint8Array {
  let max = 0;
  for (let i = 0; i < values.length; i++) if (values[i]! > max) max = values[i]!;
  const width = max < 0x100 ? 1 : max < 0x10000 ? 2 : 4;
  const out = new Uint8Array(1 + values.length * width);
  out[0] = width;
  const view = new DataView(out.buffer);
  if (width === 1) for (let i = 0; i < values.length; i++) out[1 + i] = values[i]!;
  else if (width === 2) for (let i = 0; i < values.length; i++) view.setUint16(1 + i * 2, values[i]!, true);
  else for (let i = 0; i < values.length; i++) view.setUint32(1 + i * 4, values[i]!, true);
  return out;
}

export function decodeUints(bytes: unknown, count: number, what: string): ArrayLike<number> {
  if (!(bytes instanceof Uint8Array) || bytes.length < 1) throw corrupt(`${what} column is missing`);
  const width = bytes[0]!;
  if ((width !== 1 && width !== 2 && width !== 4) || bytes.length !== 1 + count * width) throw corrupt(`${what} column has the wrong size`);
  if (width === 1) return bytes.subarray(1);
  const view = new DataView(bytes.buffer, bytes.byteOffset + 1, count * width);
  const out = width === 2 ? new Uint16Array(count) : new Uint32Array(count);
  if (width === 2) for (let i = 0; i < count; i++) out[i] = view.getUint16(i * 2, true);
  else for (let i = 0; i < count; i++) out[i] = view.getUint32(i * 4, true);
  return out;
}

function corrupt(reason: string) {
  return createError('INDEX_UNAVAILABLE', { reason: `bundle is corrupt: ${reason}` });
}

/** Deterministic string table: ids in order of first use. */
class StringTable {
  readonly list: string[] = [];
  private readonly ids = new Map<string, number>();
  id(value: string): number {
    let id = this.ids.get(value);
    if (id === undefined) this.ids.set(value, (id = this.list.push(value) - 1));
    return id;
  }
}

// ── Nodes ───────────────────────────────────────────────────────────────────────────────────────
interface EncodedNodes {
  /** Light part of every node; heavy keys present as `null` placeholders (keeps the key order). */
  light: Record<string, unknown>[];
  /** Every node's body, concatenated: msgpack of `[sections, indexed_fields (references blanked), refs]`. */
  bodies: Uint8Array;
  /** u32 column, nodes + 1 entries: body i is `bodies[offsets[i], offsets[i + 1])`. */
  offsets: Uint8Array;
}

function sectionPool(sections: unknown): string {
  if (!Array.isArray(sections)) return '';
  return sections.map((s) => (s && typeof (s as NodeSection).text === 'string' ? (s as NodeSection).text : '')).join(POOL_SEPARATOR);
}

/**
 * Copies `fields`, blanking every string leaf found verbatim in `pool`; `refs` gets
 * `[leaf number, start, length]` per blanked leaf (leaves numbered depth-first in key order).
 */
function stripFields(fields: unknown, pool: string, refs: number[]): unknown {
  let leaf = 0;
  let cursor = 0;
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') {
      const n = leaf++;
      if (value.length < MIN_REF || pool.length < value.length) return value;
      // Leaves mostly follow the section order: look after the previous match first.
      let at = pool.indexOf(value, cursor);
      if (at < 0 && cursor > 0) at = pool.indexOf(value);
      if (at < 0) return value;
      cursor = at + value.length;
      refs.push(n, at, value.length);
      return '';
    }
    if (Array.isArray(value)) return value.map(walk);
    if (value !== null && typeof value === 'object' && !(value instanceof Uint8Array)) {
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(value)) out[key] = walk((value as Record<string, unknown>)[key]);
      return out;
    }
    return value;
  };
  return walk(fields);
}

/** Inverse of {@link stripFields}, in place on freshly decoded data. */
function restoreFields(fields: unknown, pool: string, refs: readonly number[]): unknown {
  if (refs.length === 0) return fields;
  let leaf = 0;
  let r = 0;
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') {
      const n = leaf++;
      if (r < refs.length && refs[r] === n) {
        const start = refs[r + 1]!;
        const text = pool.slice(start, start + refs[r + 2]!);
        r += 3;
        return text;
      }
      return value;
    }
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) value[i] = walk(value[i]);
      return value;
    }
    if (value !== null && typeof value === 'object' && !(value instanceof Uint8Array)) {
      const object = value as Record<string, unknown>;
      for (const key of Object.keys(object)) object[key] = walk(object[key]);
    }
    return value;
  };
  const out = walk(fields);
  if (r !== refs.length) throw corrupt('a node body has dangling text references');
  return out;
}

/** A node's light part: every key in its order, the heavy ones as `null` placeholders. */
export function lightNode(node: GraphNode): Record<string, unknown> {
  const record = node as unknown as Record<string, unknown>;
  const item: Record<string, unknown> = {};
  for (const key of Object.keys(record)) item[key] = (HEAVY as readonly string[]).includes(key) ? null : record[key];
  return item;
}

/**
 * A node's body blob as the bundle stores it (a copy, safe to keep). Expects the canonical node:
 * the bytes of {@link encodeBundle} for a node equal this function's output for it.
 */
export function encodeNodeBody(node: GraphNode, packr: Packr = bodyPackr): Uint8Array {
  const record = node as unknown as Record<string, unknown>;
  const refs: number[] = [];
  const pool = sectionPool(record.sections);
  const fields = 'indexed_fields' in record ? stripFields(record.indexed_fields, pool, refs) : null;
  // pack() returns a view into msgpackr's reusable buffer: copy before the next call.
  return Uint8Array.prototype.slice.call(packr.pack(['sections' in record ? record.sections : null, fields, refs]));
}

/**
 * The whole node of `light` (from {@link lightNode}): `sections` and `indexed_fields` decode from
 * `body` on first access. How bundles and the compiler's caches hand out nodes whose text nobody
 * may read.
 */
export function withLazyBody(light: Record<string, unknown>, body: Uint8Array): GraphNode {
  return withBody(light, body, String(light.id), true);
}

function encodeNodes(nodes: readonly GraphNode[], packr: Packr, bodies?: readonly Uint8Array[]): EncodedNodes {
  const light: Record<string, unknown>[] = [];
  const parts: Uint8Array[] = [];
  const offsets = new Array<number>(nodes.length + 1);
  offsets[0] = 0;
  let total = 0;
  nodes.forEach((node, i) => {
    light.push(lightNode(node));
    const bytes = bodies?.[i] ?? encodeNodeBody(node, packr);
    parts.push(bytes);
    total += bytes.length;
    offsets[i + 1] = total;
  });
  const bodyBytes = new Uint8Array(total);
  let at = 0;
  for (const part of parts) bodyBytes.set(part, at), (at += part.length);
  return { light, bodies: bodyBytes, offsets: u32Column(offsets) };
}

function u32Column(values: readonly number[]): Uint8Array {
  const out = new Uint8Array(values.length * 4);
  const view = new DataView(out.buffer);
  for (let i = 0; i < values.length; i++) view.setUint32(i * 4, values[i]!, true);
  return out;
}

/**
 * Light nodes with `sections` / `indexed_fields` as own enumerable accessors (so spread, JSON and
 * deep-equality see them) that decode the node's body on first access and cache it. Assigning
 * either replaces the cached value.
 */
function decodeNodes(data: unknown, lazy: boolean): GraphNode[] {
  const encoded = data as Partial<EncodedNodes> | null;
  if (!encoded || !Array.isArray(encoded.light) || !(encoded.bodies instanceof Uint8Array) || !(encoded.offsets instanceof Uint8Array)) {
    throw corrupt('nodes are missing');
  }
  const { light, bodies } = encoded;
  const n = light.length;
  if (encoded.offsets.length !== (n + 1) * 4) throw corrupt('node offsets do not match the nodes');
  const offsets = new DataView(encoded.offsets.buffer, encoded.offsets.byteOffset, encoded.offsets.byteLength);
  let previous = 0;
  for (let i = 0; i <= n; i++) {
    const at = offsets.getUint32(i * 4, true);
    if (at < previous || at > bodies.length || (i === 0 && at !== 0)) throw corrupt('node offsets are out of range');
    previous = at;
  }
  if (previous !== bodies.length) throw corrupt('node bodies have trailing bytes');
  const nodes = new Array<GraphNode>(n);
  for (let i = 0; i < n; i++) {
    const node = light[i]!;
    if (!node || typeof node !== 'object') throw corrupt(`node ${i} is not a map`);
    nodes[i] = withBody(node, bodies.subarray(offsets.getUint32(i * 4, true), offsets.getUint32(i * 4 + 4, true)), `node ${i}`, lazy);
  }
  return nodes;
}

/**
 * A new node with the keys of `light` in their order, `sections` / `indexed_fields` as accessors
 * over `bytes`. New rather than `light` changed in place: turning data properties into accessors
 * sends an object to V8's slow dictionary mode, adding them to a fresh one does not.
 */
function withBody(light: Record<string, unknown>, bytes: Uint8Array, what: string, lazy: boolean): GraphNode {
  // Decodes both heavy values at once (the references point into the sections as stored).
  let decoded: { sections: unknown; fields: unknown } | null = null;
  const body = () => {
    if (decoded) return decoded;
    let raw: [unknown, unknown, number[]];
    try {
      raw = bodyUnpackr.unpack(bytes) as [unknown, unknown, number[]];
    } catch (error) {
      throw createError('INDEX_UNAVAILABLE', { reason: `bundle is corrupt: body of ${what} (${(error as Error).message})` });
    }
    if (!Array.isArray(raw) || raw.length !== 3 || !Array.isArray(raw[2])) throw corrupt(`body of ${what} is malformed`);
    const [sections, fields, refs] = raw;
    return (decoded = { sections, fields: restoreFields(fields, refs.length ? sectionPool(sections) : '', refs) });
  };
  const node: Record<string, unknown> = {};
  for (const key of Object.keys(light)) {
    if (key === 'sections') defineLazy(node, key, () => body().sections);
    else if (key === 'indexed_fields') defineLazy(node, key, () => body().fields);
    else node[key] = light[key];
  }
  if (!lazy) body();
  return node as unknown as GraphNode;
}

/**
 * `target[key]` as an own enumerable property computed by `load` on first read and kept; an
 * assignment replaces it. How bundles and the compiler's caches defer decoding what may never be read.
 */
export function defineLazy<T>(target: object, key: string, load: () => T): void {
  let value: T;
  let loaded = false;
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get: () => {
      if (!loaded) (value = load()), (loaded = true);
      return value;
    },
    set: (next: T) => ((value = next), (loaded = true)),
  });
}

// ── Edges ───────────────────────────────────────────────────────────────────────────────────────
export interface EncodedEdges {
  count: number;
  strings: string[];
  /** Node reference: value < nodes = node index; else `strings[value - nodes]` (an id no node has). */
  from: Uint8Array;
  to: Uint8Array;
  /** String-table index of `edge_type` / `extraction_method`. */
  type: Uint8Array;
  method: Uint8Array;
  /** 0 = the from-node's `source_file`; else `strings[value - 1]`. */
  source: Uint8Array;
  /** Index into `metadata` (distinct metadata objects, each `[key, value, …]` as string indices). */
  meta: Uint8Array;
  metadata: number[][];
  /** bit 0 `layer_violation`, bit 1 `bidirectional`. */
  flags: Uint8Array;
}

export function encodeEdges(edges: readonly GraphEdge[], nodes: readonly GraphNode[]): EncodedEdges {
  const position = new Map<string, number>();
  nodes.forEach((node, i) => position.set(node.id, i));
  const strings = new StringTable();
  const ref = (id: string) => position.get(id) ?? nodes.length + strings.id(id);
  const count = edges.length;
  const from = new Array<number>(count);
  const to = new Array<number>(count);
  const type = new Array<number>(count);
  const method = new Array<number>(count);
  const source = new Array<number>(count);
  const meta = new Array<number>(count);
  const flags = new Array<number>(count);
  const metaIds = new Map<string, number>();
  const metadata: number[][] = [];
  edges.forEach((edge, i) => {
    from[i] = ref(edge.from_node);
    to[i] = ref(edge.to_node);
    type[i] = strings.id(edge.edge_type);
    method[i] = strings.id(edge.extraction_method);
    const fromNode = from[i]! < nodes.length ? nodes[from[i]!] : undefined;
    source[i] = fromNode && fromNode.source_file === edge.source_file ? 0 : 1 + strings.id(edge.source_file);
    const flat: number[] = [];
    for (const key of Object.keys(edge.metadata)) flat.push(strings.id(key), strings.id(edge.metadata[key]!));
    const signature = flat.join(',');
    let m = metaIds.get(signature);
    if (m === undefined) metaIds.set(signature, (m = metadata.push(flat) - 1));
    meta[i] = m;
    flags[i] = (edge.layer_violation ? 1 : 0) | (edge.bidirectional ? 2 : 0);
  });
  return {
    count,
    strings: strings.list,
    from: encodeUints(from),
    to: encodeUints(to),
    type: encodeUints(type),
    method: encodeUints(method),
    source: encodeUints(source),
    meta: encodeUints(meta),
    metadata,
    flags: encodeUints(flags),
  };
}

export interface DecodedEdges {
  edges: GraphEdge[];
  outgoing: number[][];
  incoming: number[][];
}

export function decodeEdges(data: unknown, nodes: readonly GraphNode[]): DecodedEdges {
  const encoded = data as Partial<EncodedEdges> | null;
  if (!encoded || typeof encoded.count !== 'number' || !Array.isArray(encoded.strings) || !Array.isArray(encoded.metadata)) {
    throw corrupt('edges are missing');
  }
  const { count, strings } = encoded;
  const n = nodes.length;
  const from = decodeUints(encoded.from, count, 'edge from');
  const to = decodeUints(encoded.to, count, 'edge to');
  const type = decodeUints(encoded.type, count, 'edge type');
  const method = decodeUints(encoded.method, count, 'edge method');
  const source = decodeUints(encoded.source, count, 'edge source');
  const meta = decodeUints(encoded.meta, count, 'edge metadata');
  const flags = decodeUints(encoded.flags, count, 'edge flags');
  const string = (i: number): string => {
    const value = strings[i];
    if (typeof value !== 'string') throw corrupt('edge string index out of range');
    return value;
  };
  const ids = nodes.map((node) => node.id);
  const nodeRef = (value: number) => (value < n ? ids[value]! : string(value - n));
  // Edges with equal metadata share one (never mutated) object, as they share their strings.
  const metadata = encoded.metadata.map((flat) => {
    const object: Record<string, string> = {};
    if (!Array.isArray(flat)) throw corrupt('edge metadata is malformed');
    for (let k = 0; k < flat.length; k += 2) object[string(flat[k]!)] = string(flat[k + 1]!);
    return object;
  });
  const outgoing: number[][] = [];
  const incoming: number[][] = [];
  for (let i = 0; i < n; i++) outgoing.push([]), incoming.push([]);
  const edges = new Array<GraphEdge>(count);
  for (let i = 0; i < count; i++) {
    const f = from[i]!;
    const t = to[i]!;
    const s = source[i]!;
    const m = metadata[meta[i]!];
    if (m === undefined || (s === 0 && f >= n)) throw corrupt('edge column value out of range');
    const flag = flags[i]!;
    // Keys in code-unit order, as the packer's canonical form has them.
    edges[i] = {
      bidirectional: (flag & 2) !== 0,
      edge_type: string(type[i]!),
      extraction_method: string(method[i]!) as GraphEdge['extraction_method'],
      from_node: nodeRef(f),
      layer_violation: (flag & 1) !== 0,
      metadata: m,
      source_file: s === 0 ? nodes[f]!.source_file : string(s - 1),
      to_node: nodeRef(t),
    };
    if (f < n) outgoing[f]!.push(i);
    if (t < n) incoming[t]!.push(i);
  }
  return { edges, outgoing, incoming };
}

// ── Chunks ──────────────────────────────────────────────────────────────────────────────────────
interface EncodedChunks {
  count: number;
  /** Chunk id without its `${node_id}#` prefix, except at the positions listed in `full`. */
  ids: string[];
  /** Ascending positions whose `ids` entry is the whole id (it does not start with the prefix). */
  full: number[];
  node: Uint8Array;
  position: Uint8Array;
  section: Uint8Array;
  start: Uint8Array;
  end: Uint8Array;
  embeddable: Uint8Array;
}

function encodeChunks(chunks: readonly BundleChunk[], nodes: readonly GraphNode[]): EncodedChunks {
  const ids: string[] = [];
  const full: number[] = [];
  chunks.forEach((chunk, i) => {
    const prefix = nodes[chunk.node] ? `${nodes[chunk.node]!.id}#` : null;
    if (prefix !== null && chunk.id.startsWith(prefix)) ids.push(chunk.id.slice(prefix.length));
    else ids.push(chunk.id), full.push(i);
  });
  return {
    count: chunks.length,
    ids,
    full,
    node: encodeUints(chunks.map((c) => c.node)),
    position: encodeUints(chunks.map((c) => c.position)),
    section: encodeUints(chunks.map((c) => c.section)),
    start: encodeUints(chunks.map((c) => c.start)),
    end: encodeUints(chunks.map((c) => c.end)),
    embeddable: encodeUints(chunks.map((c) => (c.embeddable ? 1 : 0))),
  };
}

/** Checks the columns now; returns a function building the chunk objects (called on first access). */
function decodeChunks(data: unknown, nodes: readonly GraphNode[]): () => BundleChunk[] {
  const encoded = data as Partial<EncodedChunks> | null;
  if (!encoded || typeof encoded.count !== 'number' || !Array.isArray(encoded.ids) || !Array.isArray(encoded.full) || encoded.ids.length !== encoded.count) {
    throw corrupt('chunks are missing');
  }
  const { count, ids } = encoded;
  const node = decodeUints(encoded.node, count, 'chunk node');
  const position = decodeUints(encoded.position, count, 'chunk position');
  const section = decodeUints(encoded.section, count, 'chunk section');
  const start = decodeUints(encoded.start, count, 'chunk start');
  const end = decodeUints(encoded.end, count, 'chunk end');
  const embeddable = decodeUints(encoded.embeddable, count, 'chunk embeddable');
  const full = new Set(encoded.full);
  for (let i = 0; i < count; i++) if (!full.has(i) && node[i]! >= nodes.length) throw corrupt('chunk node out of range');
  return () => {
    const chunks = new Array<BundleChunk>(count);
    for (let i = 0; i < count; i++) {
      chunks[i] = {
        embeddable: embeddable[i] === 1,
        end: end[i]!,
        id: full.has(i) ? ids[i]! : `${nodes[node[i]!]!.id}#${ids[i]!}`,
        node: node[i]!,
        position: position[i]!,
        section: section[i]!,
        start: start[i]!,
      };
    }
    return chunks;
  };
}

// ── Whole bundle ────────────────────────────────────────────────────────────────────────────────
/** The encoded form of a {@link Bundle}: what is actually msgpack-packed. */
export interface EncodedBundle {
  format: number;
  manifest: unknown;
  nodes: EncodedNodes;
  edges: EncodedEdges;
  layer_violations: unknown;
  dangling: unknown;
  search: unknown;
  chunk_search?: unknown; // chunk_search: issue #10
  chunks: EncodedChunks;
  vectors: unknown;
}

/** What is encoded: `outgoing` / `incoming` are derived from the edges at load, never stored. */
export type BundleContent = Omit<Bundle, 'outgoing' | 'incoming'>;

export interface EncodeOptions {
  /** Node i's body blob already encoded ({@link encodeNodeBody} of node i), to skip re-encoding it. */
  bodies?: readonly Uint8Array[];
  /** The edges already encoded ({@link encodeEdges} of the bundle's edges and nodes). */
  edges?: EncodedEdges;
}

export function toEncoded(bundle: BundleContent, options: EncodeOptions = {}): EncodedBundle {
  const nodes = bundle.nodes ?? [];
  const packr = newPackr();
  return {
    format: bundle.format,
    manifest: bundle.manifest ?? null,
    nodes: encodeNodes(nodes, packr, options.bodies),
    edges: options.edges ?? encodeEdges(bundle.edges ?? [], nodes),
    layer_violations: bundle.layer_violations ?? [],
    dangling: bundle.dangling ?? [],
    search: bundle.search ?? null,
    // Absent stays absent (older in-memory bundles), so decode(encode(b)) deep-equals b.
    ...(bundle.chunk_search !== undefined ? { chunk_search: bundle.chunk_search } : {}), // chunk_search: issue #10
    chunks: encodeChunks(bundle.chunks ?? [], nodes),
    vectors: bundle.vectors ?? null,
  };
}

export interface HydrateOptions {
  /** Decode every node body now instead of on first access (default: lazy). */
  lazy?: boolean;
}

export function fromEncoded(encoded: EncodedBundle, options: HydrateOptions = {}): Bundle {
  const lazy = options.lazy ?? true;
  const nodes = decodeNodes(encoded.nodes, lazy);
  const { edges, outgoing, incoming } = decodeEdges(encoded.edges, nodes);
  const chunks = decodeChunks(encoded.chunks, nodes);
  const bundle: Bundle = {
    format: encoded.format,
    manifest: encoded.manifest as Bundle['manifest'],
    nodes,
    edges,
    outgoing,
    incoming,
    layer_violations: encoded.layer_violations as Bundle['layer_violations'],
    dangling: encoded.dangling as Bundle['dangling'],
    search: encoded.search,
    ...('chunk_search' in encoded ? { chunk_search: encoded.chunk_search } : {}), // chunk_search: issue #10
    chunks: null as unknown as BundleChunk[],
    vectors: encoded.vectors as Bundle['vectors'],
  };
  defineLazy(bundle, 'chunks', chunks);
  if (!lazy) void bundle.chunks;
  return bundle;
}
