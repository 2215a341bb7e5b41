/**
 * Bundle nodes: the light part of each node as a plain map, plus one msgpack body blob per node for
 * the heavy part (`sections`, `indexed_fields`), decoded on first access (docs/bundle-format.md).
 */
import type { Packr } from 'msgpackr';
import { createError } from '../../model/errors.js';
import type { GraphNode, NodeSection } from '../../model/graph.js';
import { newPackr } from '../msgpack.js';
import { corrupt } from './columns.js';
import { BinaryParts } from './write.js';

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
export interface EncodedNodes {
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

/** {@link EncodedNodes} as the bundle writer takes them: the bodies in pieces, one per node. */
export type NodesToWrite = Omit<EncodedNodes, 'bodies'> & { bodies: BinaryParts };

export function encodeNodes(nodes: readonly GraphNode[], packr: Packr, bodies?: readonly Uint8Array[]): NodesToWrite {
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
  return { light, bodies: new BinaryParts(parts), offsets: u32Column(offsets) };
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
export function decodeNodes(data: unknown, lazy: boolean): GraphNode[] {
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

/** Where a node keeps its body: the bytes, and each heavy value once decoded or assigned. */
interface Body {
  bytes: Uint8Array;
  what: string;
  sections: unknown;
  fields: unknown;
  /** bit 0: `sections` holds its value; bit 1: `fields` does. */
  known: number;
}

const BODY = Symbol('node body');

/** Decodes both heavy values at once (the references point into the sections as stored); keeps assigned ones. */
function decodeBody(body: Body): void {
  let raw: [unknown, unknown, number[]];
  try {
    raw = bodyUnpackr.unpack(body.bytes) as [unknown, unknown, number[]];
  } catch (error) {
    throw createError('INDEX_UNAVAILABLE', { reason: `bundle is corrupt: body of ${body.what} (${(error as Error).message})` });
  }
  if (!Array.isArray(raw) || raw.length !== 3 || !Array.isArray(raw[2])) throw corrupt(`body of ${body.what} is malformed`);
  const [sections, fields, refs] = raw;
  if (!(body.known & 1)) body.sections = sections;
  if (!(body.known & 2)) body.fields = restoreFields(fields, refs.length ? sectionPool(sections) : '', refs);
  body.known = 3;
}

type WithBody = Record<string | symbol, unknown> & { [BODY]: Body };

// One getter/setter pair shared by every node: V8 keeps objects whose accessors are the same
// functions on one hidden class, while a fresh closure per node sends each node to the slow
// dictionary mode (17.6 MB instead of 3.8 MB of heap for 10,800 nodes, docs/decisions/bundle-load.md).
const HEAVY_ACCESSORS = { sections: heavyAccessor(1, 'sections'), indexed_fields: heavyAccessor(2, 'fields') };

function heavyAccessor(bit: 1 | 2, slot: 'sections' | 'fields'): PropertyDescriptor {
  return {
    enumerable: true,
    configurable: true,
    get(this: WithBody) {
      const body = this[BODY];
      if (!(body.known & bit)) decodeBody(body);
      return body[slot];
    },
    set(this: WithBody, value: unknown) {
      const body = this[BODY];
      (body[slot] = value), (body.known |= bit);
    },
  };
}

/**
 * A new node with the keys of `light` in their order, `sections` / `indexed_fields` as accessors
 * over `bytes`. New rather than `light` changed in place: turning data properties into accessors
 * sends an object to V8's slow dictionary mode, adding them to a fresh one does not.
 */
function withBody(light: Record<string, unknown>, bytes: Uint8Array, what: string, lazy: boolean): GraphNode {
  const body: Body = { bytes, what, sections: undefined, fields: undefined, known: 0 };
  const node = {} as WithBody;
  // Hidden (not enumerable, a symbol): spread, JSON and deep-equality see only the node's fields.
  Object.defineProperty(node, BODY, { value: body });
  for (const key of Object.keys(light)) {
    if (key === 'sections' || key === 'indexed_fields') Object.defineProperty(node, key, HEAVY_ACCESSORS[key]);
    else node[key] = light[key];
  }
  if (!lazy) decodeBody(body);
  return node as unknown as GraphNode;
}
