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
  } else {
    pieces.push(packCopy(packr, value));
  }
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
