/**
 * An append-only file of cache entries (compiler/cache/record-cache.ts keeps its records' bytes in
 * one): a build that changed a few records appends theirs instead of writing every unchanged record
 * again (50 MB at 10,800 documents, for a one-edit build that changes one).
 *
 * The file starts with a tag: a magic and 8 random bytes drawn when the file is written anew. What
 * a reader may use of it is described elsewhere (the record cache's header): the tag, and how many
 * leading bytes are valid with their CRC-32. So a file written anew is never mistaken for the one a
 * header describes, bytes an interrupted append left past the valid length are never read, and
 * every byte a reader uses is covered by the checksum.
 *
 * An append first checks that the file on disk is still the one described (its tag, at least its
 * valid length), cuts what lies past that length and writes after it; the new CRC continues the
 * old one over the appended bytes only (CRC-32 runs on: crc(a ‖ b) = crc32(b, crc(a))). A build
 * killed halfway leaves a file no header describes yet: the next build sees the old header's CRC
 * or length no longer hold and ignores the cache (never a wrong byte, only a slower build).
 */
import { randomBytes } from 'node:crypto';
import { close, openSync, read } from 'node:fs';
import { open } from 'node:fs/promises';
import { writeAtomicParts } from '../atomic.js';
import { faultPoint } from '../fault.js';
import { checksum } from './checksum.js';

const MAGIC = Buffer.from('kddentr1');
/** Bytes before the first entry: the magic and the random part of the tag. */
export const TAG_LENGTH = MAGIC.length + 8;

/** What a reader may use of an entry file, as the header that describes it stores it. */
export interface EntryFileState {
  /** The file's tag ({@link TAG_LENGTH} bytes). */
  tag: Uint8Array;
  /** Leading bytes that are valid, tag included. */
  length: number;
  /** CRC-32 of those bytes. */
  crc: number;
}

/**
 * The first `state.length` bytes of `path` when they are the ones `state` describes, else null.
 * The read is under way when this returns: synchronous work the caller does before awaiting it
 * overlaps it (compiler/incremental/earlier.ts stats files meanwhile).
 */
export async function readEntryFile(path: string, state: EntryFileState): Promise<Uint8Array | null> {
  if (!Number.isInteger(state.length) || state.length < TAG_LENGTH) return null;
  const valid = await readPrefix(path, state.length);
  if (valid === null || !sameBytes(valid.subarray(0, TAG_LENGTH), state.tag) || checksum([valid]) !== state.crc) return null;
  return valid;
}

/**
 * The first `length` bytes of `path`, or null when it is shorter or cannot be read. One read request
 * on the thread pool for all of them, issued before this returns: `readFile` asks for 512 KiB at a
 * time and issues each request from the main thread, so while the main thread is busy it reads nothing.
 */
function readPrefix(path: string, length: number): Promise<Uint8Array | null> {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return Promise.resolve(null);
  }
  // A plain Uint8Array of its own (not a pooled Buffer): msgpackr treats Node Buffers specially (see formats/bundle/bundle.ts).
  const bytes = new Uint8Array(length);
  return new Promise((resolve) => {
    const done = (result: Uint8Array | null) => close(fd, () => resolve(result));
    const readFrom = (at: number): void =>
      read(fd, bytes, at, length - at, at, (error, count) => {
        if (error || count === 0) done(null);
        else if (at + count === length) done(bytes);
        else readFrom(at + count);
      });
    readFrom(0);
  });
}

/** Writes `parts` as a new entry file (atomically, under a fresh tag); the first part starts at {@link TAG_LENGTH}. */
export async function writeEntryFile(path: string, parts: readonly Uint8Array[]): Promise<EntryFileState> {
  const tag = new Uint8Array(TAG_LENGTH);
  tag.set(MAGIC);
  tag.set(randomBytes(8), MAGIC.length);
  const all = [tag, ...parts];
  await writeAtomicParts(path, all);
  return { tag, length: all.reduce((sum, part) => sum + part.length, 0), crc: checksum(all) };
}

/**
 * Appends `parts` after the valid bytes of `state`'s file; the first part starts at `state.length`.
 * Null, with nothing written, when the file on disk is not that one any more (another build wrote
 * it anew, or it is shorter): the caller writes a new file instead.
 */
export async function appendEntryFile(path: string, state: EntryFileState, parts: readonly Uint8Array[]): Promise<EntryFileState | null> {
  faultPoint('write');
  const handle = await open(path, 'r+').catch(() => null);
  if (!handle) return null;
  try {
    const head = new Uint8Array(TAG_LENGTH);
    const { bytesRead } = await handle.read(head, 0, TAG_LENGTH, 0);
    if (bytesRead !== TAG_LENGTH || !sameBytes(head, state.tag) || (await handle.stat()).size < state.length) return null;
    // What an interrupted append left past the valid bytes goes first: the CRC covers only what is written now.
    await handle.truncate(state.length);
    let at = state.length;
    // writev takes at most IOV_MAX buffers per call on some systems: hand them over in batches.
    for (let i = 0; i < parts.length; i += 1024) {
      const batch = parts.slice(i, i + 1024);
      await handle.writev(batch, at);
      at += batch.reduce((sum, part) => sum + part.length, 0);
    }
    faultPoint('write');
    return { tag: state.tag, length: at, crc: checksum(parts, state.crc) };
  } finally {
    await handle.close();
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
