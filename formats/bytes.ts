/**
 * Little-endian typed arrays ⇄ bytes. msgpackr stores Uint8Array as `bin` exactly (LIBRARY-NOTES:
 * never hand it other typed arrays), and returns views whose byteOffset may be unaligned, so restore
 * copies into a fresh buffer before viewing it as 16/32-bit integers.
 */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export function u32ToBytes(values: ArrayLike<number>): Uint8Array {
  const out = new Uint8Array(values.length * 4);
  const view = new DataView(out.buffer);
  for (let i = 0; i < values.length; i++) view.setUint32(i * 4, values[i]!, true);
  return out;
}

export function u16ToBytes(values: ArrayLike<number>): Uint8Array {
  const out = new Uint8Array(values.length * 2);
  const view = new DataView(out.buffer);
  for (let i = 0; i < values.length; i++) view.setUint16(i * 2, values[i]!, true);
  return out;
}

/**
 * The little-endian bytes of an array the caller hands over (and no longer changes): a view of its
 * own buffer on little-endian machines, so an index's largest columns are not made twice.
 */
export function ownedBytes(values: Uint32Array | Uint16Array): Uint8Array {
  if (LITTLE_ENDIAN) return new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  return values instanceof Uint32Array ? u32ToBytes(values) : u16ToBytes(values);
}

export function bytesToU32(bytes: Uint8Array): Uint32Array {
  const n = bytes.byteLength >>> 2;
  if (LITTLE_ENDIAN) return new Uint32Array(copy(bytes, n * 4).buffer);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) out[i] = view.getUint32(i * 4, true);
  return out;
}

export function bytesToU16(bytes: Uint8Array): Uint16Array {
  const n = bytes.byteLength >>> 1;
  if (LITTLE_ENDIAN) return new Uint16Array(copy(bytes, n * 2).buffer);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Uint16Array(n);
  for (let i = 0; i < n; i++) out[i] = view.getUint16(i * 2, true);
  return out;
}

// Not `bytes.slice()`: on a Node Buffer (what msgpackr returns) slice is a view into a shared pool.
function copy(bytes: Uint8Array, length: number): Uint8Array {
  const out = new Uint8Array(length);
  out.set(bytes.subarray(0, length));
  return out;
}
