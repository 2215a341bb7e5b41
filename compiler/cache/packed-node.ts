/**
 * A node as the pack stage consumes it: its canonical form, its content key and its encoded bundle
 * body. Worked out once per node object and remembered, so a node that reaches several stages (the
 * pack, the record cache, the pack cache) is canonicalised, hashed and encoded once. Nodes the
 * record cache hands out arrive with all three already known (`rememberPackedNode`), which is what
 * lets an incremental build pack 10k unchanged nodes without ever decoding their text. The same
 * goes for a graph's edge list as a whole (`packedEdges`).
 */
import { createHash } from 'node:crypto';
import { encodeEdges, type EncodedEdges } from '../../formats/bundle/edges.js';
import { encodeNodeBody, withLazyBody } from '../../formats/bundle/nodes.js';
import type { GraphEdge, GraphNode } from '../../model/graph.js';
import { canonical } from '../../formats/canonical.js';

export interface PackedNode {
  /**
   * The canonical node (sorted keys): what the bundle holds. Its `sections` and `indexed_fields`
   * decode from `body` when first read (formats/bundle/nodes.ts `withLazyBody`): the pack reads
   * only the light part, so a build does not hold a second copy of every section beside the graph's.
   */
  node: GraphNode;
  /** SHA-256 (base64) of the canonical node's JSON: equal content ⇔ equal key, wherever the node sits. */
  key: string;
  /** The node's body blob in the bundle (formats/bundle/nodes.ts `encodeNodeBody`). */
  body: Uint8Array;
}

const known = new WeakMap<GraphNode, PackedNode>();

export function packedNode(node: GraphNode): PackedNode {
  let packed = known.get(node);
  if (packed === undefined) {
    const record = node as unknown as Record<string, unknown>;
    // The canonical node's light part and body, with only the heavy values copied for the body's
    // sake: that copy is garbage as soon as the body is encoded.
    const light: Record<string, unknown> = {};
    const heavy: Record<string, unknown> = {};
    for (const key of Object.keys(record)) {
      const value = record[key];
      if (value === undefined) continue;
      if (key === 'sections' || key === 'indexed_fields') (light[key] = null), (heavy[key] = canonical(value));
      else light[key] = value;
    }
    const form = canonical(light);
    const body = encodeNodeBody(heavy as unknown as GraphNode);
    packed = { node: withLazyBody(form, body), key: nodeKey(form, body), body };
    known.set(node, packed);
    known.set(packed.node, packed);
  }
  return packed;
}

/** Declares `node` canonical, with its key and body (as a cache stored them with it). */
export function rememberPackedNode(node: GraphNode, key: string, body: Uint8Array): void {
  known.set(node, { node, key, body });
}

/**
 * Content key of a canonical node whose light part (formats/bundle/nodes.ts `lightNode`) is `light` and whose body blob
 * is `body`: the hash of the light part's JSON and of the body, which holds the sections and indexed
 * fields (and gives them back). Hashing the body instead of the whole node's JSON spares a second
 * text copy of every section per build.
 */
function nodeKey(light: Record<string, unknown>, body: Uint8Array): string {
  return createHash('sha256').update(JSON.stringify(light)).update(body).digest('base64');
}

const knownEdges = new WeakMap<readonly GraphEdge[], EncodedEdges>();

/**
 * The bundle's bytes of a part of the graph (its edge columns, or one of its lists: layer
 * violations, dangling links, unresolved ids, msgpack of their canonical form), made by `encode`
 * once per object. Parts restored from the record cache arrive with the bytes the build that stored
 * them made (`rememberPackedGraphPart`): a one-edit build whose graph is the cached one does not
 * canonicalise and encode 5,000 violations again (~60 ms in a fresh process at 10,800 documents),
 * nor 110,000 edges' columns (~9 ms, 1.3 MB).
 */
export function packedGraphPart(part: object, encode: () => Uint8Array): Uint8Array {
  let bytes = knownParts.get(part);
  if (bytes === undefined) knownParts.set(part, (bytes = encode()));
  return bytes;
}

/** The bytes {@link packedGraphPart} made for `part`, if any. */
export function knownPackedGraphPart(part: object): Uint8Array | undefined {
  return knownParts.get(part);
}

/** Declares `bytes` the bundle's encoding of `part` (as a cache stored them with it). */
export function rememberPackedGraphPart(part: object, bytes: Uint8Array): void {
  knownParts.set(part, bytes);
}

const knownParts = new WeakMap<object, Uint8Array>();

/**
 * The bundle's encoding of `edges` (formats/bundle/edges.ts `encodeEdges`) against `nodes`, the
 * graph's nodes sorted by id. Remembered per edge array: a graph's edges are only ever encoded
 * against that graph's nodes.
 */
export function packedEdges(edges: readonly GraphEdge[], nodes: readonly GraphNode[]): EncodedEdges {
  let encoded = knownEdges.get(edges);
  if (encoded === undefined) knownEdges.set(edges, (encoded = encodeEdges(edges.map(withSortedMetadata), nodes)));
  return encoded;
}

/** Declares `encoded` the encoding of `edges` (as a cache stored them with it). */
export function rememberPackedEdges(edges: readonly GraphEdge[], encoded: EncodedEdges): void {
  knownEdges.set(edges, encoded);
}

/**
 * The codec reads an edge field by field, so only the order of its metadata keys reaches the bytes:
 * copying just the few edges whose keys are out of order canonicalises 100k edges in a blink.
 */
function withSortedMetadata(edge: GraphEdge): GraphEdge {
  const keys = Object.keys(edge.metadata);
  for (let i = 1; i < keys.length; i++) if (keys[i - 1]! > keys[i]!) return { ...edge, metadata: canonical(edge.metadata) };
  return edge;
}
