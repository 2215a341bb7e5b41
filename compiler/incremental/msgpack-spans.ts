/**
 * Where values sit inside msgpack bytes, and the headers msgpackr writes before them: what lets a
 * bundle be put together from pieces of the previous one (compiler/incremental/patch-bundle.ts)
 * without decoding and encoding again what did not change. Headers are taken from msgpackr itself
 * (the bytes it writes for a placeholder of the same shape), so they can never drift from
 * `encodeBundle`'s. Binary values and plain objects of them are written by formats/bundle/write.ts,
 * the encoder's own writer.
 */
import type { Packr } from 'msgpackr';
import { packCopy } from '../../formats/bundle/write.js';

/** A DataView over exactly `bytes`. */
const viewOf = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * Byte offset just past the msgpack value that starts at `at`; throws on truncated or unknown bytes.
 * `view`: a DataView over `bytes`, for a caller that walks many values (one made per call was ~90,000
 * short-lived objects in a one-edit patch at 10,800 documents).
 */
export function valueEnd(bytes: Uint8Array, at: number, view = viewOf(bytes)): number {
  let pending = 1;
  while (pending > 0) {
    pending--;
    if (at >= bytes.length) throw new RangeError('msgpack value is truncated');
    const t = bytes[at]!;
    if (t < 0x80 || t >= 0xe0 || t === 0xc0 || t === 0xc2 || t === 0xc3) at += 1;
    else if (t < 0x90) (pending += (t & 0x0f) * 2), (at += 1);
    else if (t < 0xa0) (pending += t & 0x0f), (at += 1);
    else if (t < 0xc0) at += 1 + (t & 0x1f);
    else if (t === 0xc4 || t === 0xd9) at += 2 + bytes[at + 1]!;
    else if (t === 0xc5 || t === 0xda) at += 3 + view.getUint16(at + 1);
    else if (t === 0xc6 || t === 0xdb) at += 5 + view.getUint32(at + 1);
    else if (t === 0xc7) at += 3 + bytes[at + 1]!;
    else if (t === 0xc8) at += 4 + view.getUint16(at + 1);
    else if (t === 0xc9) at += 6 + view.getUint32(at + 1);
    else if (t === 0xca || t === 0xce || t === 0xd2) at += 5;
    else if (t === 0xcb || t === 0xcf || t === 0xd3) at += 9;
    else if (t === 0xcc || t === 0xd0) at += 2;
    else if (t === 0xcd || t === 0xd1) at += 3;
    else if (t >= 0xd4 && t <= 0xd8) at += 2 + (1 << (t - 0xd4));
    else if (t === 0xdc) (pending += view.getUint16(at + 1)), (at += 3);
    else if (t === 0xdd) (pending += view.getUint32(at + 1)), (at += 5);
    else if (t === 0xde) (pending += view.getUint16(at + 1) * 2), (at += 3);
    else if (t === 0xdf) (pending += view.getUint32(at + 1) * 2), (at += 5);
    else throw new RangeError(`unknown msgpack type 0x${t.toString(16)}`);
  }
  if (at > bytes.length) throw new RangeError('msgpack value is truncated');
  return at;
}

/** Count of items of the array or entries of the map at `at`, and where the first one starts. */
function container(bytes: Uint8Array, at: number, kind: 'array' | 'map'): { count: number; first: number } {
  const t = bytes[at]!;
  const view = viewOf(bytes);
  const [fix, small, large] = kind === 'array' ? [0x90, 0xdc, 0xdd] : [0x80, 0xde, 0xdf];
  if (t >= fix && t < fix + 16) return { count: t & 0x0f, first: at + 1 };
  if (t === small) return { count: view.getUint16(at + 1), first: at + 3 };
  if (t === large) return { count: view.getUint32(at + 1), first: at + 5 };
  throw new RangeError(`msgpack ${kind} expected`);
}

/** `[start, end)` of each item of the array at `at`, as a flat list of offsets: item i is `[spans[i], spans[i + 1])`. */
export function arrayItems(bytes: Uint8Array, at: number): Uint32Array {
  const { count, first } = container(bytes, at, 'array');
  const view = viewOf(bytes);
  const spans = new Uint32Array(count + 1);
  spans[0] = first;
  for (let i = 0; i < count; i++) spans[i + 1] = valueEnd(bytes, spans[i]!, view);
  return spans;
}

/**
 * Each entry of the map at `at` (string keys): its key and the `[start, end)` of its value.
 * `end(key, start)`: where the value under `key` ends, for a caller that walks some values itself
 * (and keeps what it found on the way); by default {@link valueEnd}.
 */
export function mapEntries(bytes: Uint8Array, at: number, unpackr: Packr, end?: (key: string, start: number) => number): Map<string, { start: number; end: number }> {
  const { count, first } = container(bytes, at, 'map');
  const view = viewOf(bytes);
  const entries = new Map<string, { start: number; end: number }>();
  let cursor = first;
  for (let i = 0; i < count; i++) {
    const keyEnd = valueEnd(bytes, cursor, view);
    const key = unpackr.unpack(bytes.subarray(cursor, keyEnd)) as unknown;
    if (typeof key !== 'string') throw new RangeError('msgpack map key is not a string');
    cursor = end ? end(key, keyEnd) : valueEnd(bytes, keyEnd, view);
    entries.set(key, { start: keyEnd, end: cursor });
  }
  return entries;
}

/** The header msgpackr writes before an array of `count` items. */
export function arrayHeader(packr: Packr, count: number): Uint8Array {
  const bytes = packr.pack(new Array<null>(count).fill(null));
  return Uint8Array.prototype.slice.call(bytes, 0, bytes.length - count);
}

/**
 * The bytes msgpackr writes for a map with `keys` in this order whose values are already encoded
 * (`values[i]` for `keys[i]`): header, then each key and its value.
 */
export function mapParts(packr: Packr, keys: readonly string[], values: readonly (Uint8Array | readonly Uint8Array[])[]): Uint8Array[] {
  const placeholder = packr.pack(Object.fromEntries(keys.map((key) => [key, null])));
  const keyBytes = keys.map((key) => packCopy(packr, key));
  const headerLength = placeholder.length - keyBytes.reduce((sum, key) => sum + key.length + 1, 0);
  const parts: Uint8Array[] = [Uint8Array.prototype.slice.call(placeholder, 0, headerLength)];
  keys.forEach((_, i) => {
    parts.push(keyBytes[i]!);
    const value = values[i]!;
    if (value instanceof Uint8Array) parts.push(value);
    else for (const part of value) parts.push(part);
  });
  return parts;
}

/**
 * Where the value under `keys` (a path through nested maps with string keys) starts, walking only
 * the bytes before it: what lets a reader find a part of a file from a prefix of it. Throws a
 * RangeError when `bytes` end before it.
 */
export function valueAt(bytes: Uint8Array, at: number, keys: readonly string[], unpackr: Packr): number {
  const view = viewOf(bytes);
  for (const wanted of keys) {
    const { count, first } = container(bytes, at, 'map');
    let cursor = first;
    let found = -1;
    for (let i = 0; i < count && found < 0; i++) {
      const keyEnd = valueEnd(bytes, cursor, view);
      if (unpackr.unpack(bytes.subarray(cursor, keyEnd)) === wanted) found = keyEnd;
      else cursor = valueEnd(bytes, keyEnd, view);
    }
    if (found < 0) throw new Error(`no ${wanted} in the map`);
    at = found;
  }
  if (at >= bytes.length) throw new RangeError('msgpack value is truncated');
  return at;
}
