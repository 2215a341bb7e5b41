/**
 * Writes a bundle's msgpack once, into a buffer of its exact size. `packr.pack` of the whole bundle
 * first needed the node bodies concatenated into one array, then copied every binary column into
 * its own buffer, which grows by doubling and is handed back as a view of a larger one: at 54,000
 * documents that was ~0.5 GB on top of the bundle itself, at the build's peak. Here the maps near
 * the root are written by hand, binary columns (and the bodies, still in pieces) are copied once
 * into the output, and every other value is packed by msgpackr: the same bytes `packr.pack` gives
 * (test/runtime/bundle-format.test.ts checks it).
 */
import type { Packr } from 'msgpackr';

/** Binary data in pieces, written as one msgpack `bin` without joining the pieces first. */
export class BinaryParts {
  readonly length: number;

  constructor(readonly parts: readonly Uint8Array[]) {
    let length = 0;
    for (const part of parts) length += part.length;
    this.length = length;
  }
}

/**
 * msgpack of `value` into `allocate(size)`: plain objects down to `depth` levels are written here,
 * `Uint8Array`s and {@link BinaryParts} as `bin`, anything else by `packr`.
 */
export function writeMsgpack(value: unknown, packr: Packr, depth: number, allocate: (bytes: number) => Uint8Array): Uint8Array {
  const pieces = msgpackPieces(value, packr, depth);
  let size = 0;
  for (const piece of pieces) size += piece.length;
  const out = allocate(size);
  let at = 0;
  for (const piece of pieces) out.set(piece, at), (at += piece.length);
  return out;
}

/**
 * The msgpack of {@link writeMsgpack} as consecutive pieces, not joined: binary columns and parts
 * are the caller's arrays themselves (views, not copies), so a writer that takes pieces never holds
 * the whole output at once.
 */
export function msgpackPieces(value: unknown, packr: Packr, depth: number): Uint8Array[] {
  const pieces: Uint8Array[] = [];
  collect(value, packr, depth, pieces);
  return pieces;
}

function collect(value: unknown, packr: Packr, depth: number, pieces: Uint8Array[]): void {
  if (value instanceof BinaryParts) {
    pieces.push(binHeader(value.length));
    for (const part of value.parts) pieces.push(part);
  } else if (value instanceof Uint8Array) {
    pieces.push(binHeader(value.length), value);
  } else if (depth > 0 && value !== null && typeof value === 'object' && value.constructor === Object) {
    const keys = Object.keys(value);
    pieces.push(mapHeader(keys.length));
    for (const key of keys) {
      pieces.push(packCopy(packr, key));
      collect((value as Record<string, unknown>)[key], packr, depth - 1, pieces);
    }
  } else if (isLargeStringMap(value)) {
    pieces.push(stringMapBytes(value));
  } else {
    pieces.push(packCopy(packr, value));
  }
}

/** Below this many keys msgpackr writes a map of strings about as fast: not worth the check. */
const LARGE_MAP_KEYS = 64;

/** A plain object with many keys, each holding a string: a manifest's `sources` (10,800 at 10,800 documents). */
function isLargeStringMap(value: unknown): value is Record<string, string> {
  if (value === null || typeof value !== 'object' || value.constructor !== Object) return false;
  let keys = 0;
  for (const key in value) {
    if (typeof (value as Record<string, unknown>)[key] !== 'string') return false;
    keys++;
  }
  return keys >= LARGE_MAP_KEYS;
}

/**
 * The bytes `packr.pack` gives for a map of strings, written here: msgpackr packs such a map at
 * ~1 µs per string (21 ms for the 10,800 sources of a 10,800-document manifest, in every build and
 * every patched bundle); this loop takes a fraction of that. Same bytes (test/runtime/bundle-format.test.ts).
 */
function stringMapBytes(map: Record<string, string>): Uint8Array {
  const keys = Object.keys(map);
  let room = 5;
  for (const key of keys) room += 10 + 3 * (key.length + map[key]!.length);
  const out = new Uint8Array(room);
  const header = mapHeader(keys.length);
  out.set(header);
  let at = header.length;
  for (const key of keys) {
    at = writeString(out, at, key);
    at = writeString(out, at, map[key]!);
  }
  return out.slice(0, at);
}

const utf8 = new TextEncoder();

/**
 * msgpackr's encoding of a string at `at` (room for 5 + 3 × length bytes): the smallest `str`
 * header for its UTF-8 length, then the bytes. Like msgpackr, a string under 64 code units is
 * encoded by this loop, where a lone surrogate takes three bytes; a longer one as standard UTF-8.
 */
function writeString(out: Uint8Array, at: number, value: string): number {
  const units = value.length;
  const reserved = units < 0x20 ? 1 : units < 0x100 ? 2 : units < 0x10000 ? 3 : 5;
  let end = at + reserved;
  if (units < 0x40) {
    for (let i = 0; i < units; i++) {
      let c1 = value.charCodeAt(i);
      let c2: number;
      if (c1 < 0x80) {
        out[end++] = c1;
      } else if (c1 < 0x800) {
        out[end++] = (c1 >> 6) | 0xc0;
        out[end++] = (c1 & 0x3f) | 0x80;
      } else if ((c1 & 0xfc00) === 0xd800 && ((c2 = value.charCodeAt(i + 1)) & 0xfc00) === 0xdc00) {
        c1 = 0x10000 + ((c1 & 0x03ff) << 10) + (c2 & 0x03ff);
        i++;
        out[end++] = (c1 >> 18) | 0xf0;
        out[end++] = ((c1 >> 12) & 0x3f) | 0x80;
        out[end++] = ((c1 >> 6) & 0x3f) | 0x80;
        out[end++] = (c1 & 0x3f) | 0x80;
      } else {
        out[end++] = (c1 >> 12) | 0xe0;
        out[end++] = ((c1 >> 6) & 0x3f) | 0x80;
        out[end++] = (c1 & 0x3f) | 0x80;
      }
    }
  } else {
    end += utf8.encodeInto(value, out.subarray(end)).written;
  }
  const length = end - at - reserved;
  const needed = length < 0x20 ? 1 : length < 0x100 ? 2 : length < 0x10000 ? 3 : 5;
  // The header was reserved by code units; UTF-8 may need a longer one: move the bytes up.
  if (needed > reserved) out.copyWithin(at + needed, at + reserved, end);
  if (needed === 1) out[at] = 0xa0 | length;
  else if (needed === 2) (out[at] = 0xd9), (out[at + 1] = length);
  else if (needed === 3) (out[at] = 0xda), (out[at + 1] = length >> 8), (out[at + 2] = length & 0xff);
  else (out[at] = 0xdb), new DataView(out.buffer, out.byteOffset).setUint32(at + 1, length);
  return at + needed + length;
}

/** `packr.pack(value)` copied out of msgpackr's reused buffer (the next call overwrites it). */
export const packCopy = (packr: Packr, value: unknown): Uint8Array => Uint8Array.prototype.slice.call(packr.pack(value));

/** msgpackr's `bin` header: bin 8, 16 or 32, the smallest that fits. */
export function binHeader(length: number): Uint8Array {
  if (length < 0x100) return Uint8Array.of(0xc4, length);
  if (length < 0x10000) return Uint8Array.of(0xc5, length >> 8, length & 0xff);
  return Uint8Array.of(0xc6, length >>> 24, (length >> 16) & 0xff, (length >> 8) & 0xff, length & 0xff);
}

/** msgpackr's map header with `variableMapSize`: fixmap, map 16 or map 32. */
function mapHeader(size: number): Uint8Array {
  if (size < 0x10) return Uint8Array.of(0x80 | size);
  if (size < 0x10000) return Uint8Array.of(0xde, size >> 8, size & 0xff);
  return Uint8Array.of(0xdf, size >>> 24, (size >> 16) & 0xff, (size >> 8) & 0xff, size & 0xff);
}
