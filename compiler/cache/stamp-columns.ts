/**
 * File stamps (path, size, mtime, ctime, and for specs the content hash) as the record cache stores
 * them: columns instead of one small array per file. At 10,800 specs and 10,800 node files the
 * per-file arrays were ~2 MB of msgpack that every incremental build decoded and encoded again
 * (21,600 arrays, 86,400 values); as columns they are two strings and one binary value per kind,
 * which msgpackr copies in one go.
 *
 * Paths and hashes are joined with NUL, the one character no file name (and no hex hash) holds.
 * Numbers are float64 (little-endian): sizes are integers below 2^53 and times are the same doubles
 * `fs.Stats` gives, so a stamp read back compares equal to a fresh `stat`.
 */
import type { SourceStamp } from '../read.js';
import type { ArtifactStamp } from './record-cache.js';

export interface StampColumns {
  count: number;
  /** The paths, NUL-separated. */
  paths: string;
  /** size, mtimeMs, ctimeMs of each file, float64 LE. */
  numbers: Uint8Array;
  /** The content hashes, NUL-separated (spec stamps only). */
  hashes?: string;
}

const SEPARATOR = '\0';

export function stampColumns(stamps: ReadonlyMap<string, ArtifactStamp & { hash?: string }>): StampColumns {
  const numbers = new Uint8Array(stamps.size * 24);
  const view = new DataView(numbers.buffer);
  const paths: string[] = [];
  const hashes: string[] = [];
  let at = 0;
  for (const [path, stamp] of stamps) {
    if (path.includes(SEPARATOR) || stamp.hash?.includes(SEPARATOR)) throw new Error(`a stamp holds a NUL character: ${path}`);
    paths.push(path);
    if (stamp.hash !== undefined) hashes.push(stamp.hash);
    view.setFloat64(at, stamp.size, true);
    view.setFloat64(at + 8, stamp.mtimeMs, true);
    view.setFloat64(at + 16, stamp.ctimeMs, true);
    at += 24;
  }
  const columns: StampColumns = { count: stamps.size, paths: paths.join(SEPARATOR), numbers };
  // Either every stamp has a hash (specs) or none has (artifacts).
  if (hashes.length === stamps.size && stamps.size > 0) columns.hashes = hashes.join(SEPARATOR);
  else if (hashes.length > 0) throw new Error('some stamps have a hash and some do not');
  return columns;
}

/** The stamps `value` holds, or null when it is not well-formed columns (of spec stamps when `withHash`). */
export function readStampColumns(value: unknown, withHash: true): Map<string, SourceStamp> | null;
export function readStampColumns(value: unknown, withHash: false): Map<string, ArtifactStamp> | null;
export function readStampColumns(value: unknown, withHash: boolean): Map<string, ArtifactStamp & { hash?: string }> | null {
  const columns = value as Partial<StampColumns> | null;
  if (!columns || typeof columns !== 'object' || !Number.isInteger(columns.count) || typeof columns.paths !== 'string' || !(columns.numbers instanceof Uint8Array)) return null;
  const count = columns.count!;
  const stamps = new Map<string, ArtifactStamp & { hash?: string }>();
  if (count === 0) return columns.paths === '' && columns.numbers.length === 0 && columns.hashes === undefined ? stamps : null;
  const paths = columns.paths.split(SEPARATOR);
  const hashes = withHash && typeof columns.hashes === 'string' ? columns.hashes.split(SEPARATOR) : null;
  if (paths.length !== count || columns.numbers.length !== count * 24 || (withHash ? hashes?.length !== count : columns.hashes !== undefined)) return null;
  const view = new DataView(columns.numbers.buffer, columns.numbers.byteOffset, columns.numbers.byteLength);
  for (let i = 0; i < count; i++) {
    const stamp: ArtifactStamp & { hash?: string } = { size: view.getFloat64(i * 24, true), mtimeMs: view.getFloat64(i * 24 + 8, true), ctimeMs: view.getFloat64(i * 24 + 16, true) };
    if (hashes) stamp.hash = hashes[i]!;
    stamps.set(paths[i]!, stamp);
  }
  return stamps.size === count ? stamps : null;
}
