/** Bundle columns: little-endian unsigned integers of the smallest width, string tables, and the corrupt-bundle error. */
import { createError } from '../../model/errors.js';

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

export function corrupt(reason: string) {
  return createError('INDEX_UNAVAILABLE', { reason: `bundle is corrupt: ${reason}` });
}

/** Deterministic string table: ids in order of first use. */
export class StringTable {
  readonly list: string[] = [];
  private readonly ids = new Map<string, number>();
  id(value: string): number {
    let id = this.ids.get(value);
    if (id === undefined) this.ids.set(value, (id = this.list.push(value) - 1));
    return id;
  }
}
