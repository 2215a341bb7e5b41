/**
 * Node-only loader: a path (a `.msgpack` bundle, a `kdd.json` pointer, or a directory holding one)
 * or raw bytes → {@link KddIndex}. Everything after reading the file is `runtime/load.ts`.
 */
import { createHash } from 'node:crypto';
import { open, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { createError, isKddError } from '../model/errors.js';
import type { KddIndex } from '../runtime/kdd-index.js';
import { checkBundleName, loadIndex, parsePointer, POINTER_FILE } from '../runtime/load.js';

/**
 * @param source a directory containing `kdd.json` (e.g. `dist`), a `kdd.json` file, a
 *   `kdd-<hash>.msgpack` file, or the bundle bytes themselves.
 * @throws KddError `INDEX_UNAVAILABLE` (message names the path) when missing or corrupt.
 */
export async function loadBundle(source: string | Uint8Array): Promise<KddIndex> {
  if (typeof source !== 'string') return loadIndex(source);
  const bundlePath = await resolveBundlePath(source);
  const { bytes, hash } = await readAndHash(bundlePath);
  try {
    // The tag is computed here, of the very bytes decoded, so loadIndex need not hash them again.
    const index = await loadIndex(bytes, { verify: 'none', hash });
    checkBundleName(basename(bundlePath), index.hash, bundlePath);
    return index;
  } catch (error) {
    if (isKddError(error) && error.code === 'INDEX_UNAVAILABLE' && !error.message.includes(bundlePath)) {
      throw createError('INDEX_UNAVAILABLE', { reason: `${bundlePath}: ${String(error.params.reason ?? error.message)}` }, { cause: error });
    }
    throw error;
  }
}

/** Directory or pointer → the bundle file it names; a `.msgpack` path is returned as is. */
export async function resolveBundlePath(source: string): Promise<string> {
  let pointerPath: string;
  try {
    const info = await stat(source);
    if (info.isDirectory()) pointerPath = join(source, POINTER_FILE);
    else if (source.endsWith('.json')) pointerPath = source;
    else return source;
  } catch (error) {
    throw unavailable(source, error);
  }
  const text = (await readOrFail(pointerPath)).toString();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw unavailable(pointerPath, error);
  }
  return join(dirname(pointerPath), parsePointer(json, pointerPath).bundle);
}

/** Reads of this size keep the disk (or page cache) busy while the previous piece is hashed. */
const READ_PIECE = 4 << 20;

/**
 * The file's bytes and their SHA-256 tag (as `bundleHash` in runtime/load.ts), hashed piece by piece
 * while the next piece is read: one buffer of the file's size, no second pass over 60+ MB, no copy
 * (WebCrypto's digest copies its input first).
 */
export async function readAndHash(path: string, pieceBytes = READ_PIECE): Promise<{ bytes: Uint8Array; hash: string }> {
  try {
    const file = await open(path, 'r');
    try {
      const { size } = await file.stat();
      const bytes = Buffer.allocUnsafeSlow(size);
      const sha = createHash('sha256');
      let done = 0;
      let reading = size > 0 ? file.read(bytes, 0, Math.min(pieceBytes, size), 0) : null;
      while (reading) {
        const { bytesRead } = await reading;
        if (bytesRead === 0) throw new Error(`file ended after ${done} of ${size} bytes`);
        const from = done;
        done += bytesRead;
        reading = done < size ? file.read(bytes, done, Math.min(pieceBytes, size - done), done) : null;
        sha.update(bytes.subarray(from, done));
      }
      return { bytes, hash: sha.digest('hex').slice(0, 12) };
    } finally {
      await file.close();
    }
  } catch (error) {
    throw unavailable(path, error);
  }
}

async function readOrFail(path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (error) {
    throw unavailable(path, error);
  }
}

function unavailable(path: string, error: unknown) {
  const code = (error as NodeJS.ErrnoException).code;
  const detail = code === 'ENOENT' ? 'no such file or directory' : (error as Error).message;
  return createError('INDEX_UNAVAILABLE', { reason: `cannot read ${path} (${detail}); run \`kdd build\` first` }, { cause: error });
}
