/**
 * Node-only loader: a path (a `.msgpack` bundle, a `kdd.json` pointer, or a directory holding one)
 * or raw bytes → {@link KddIndex}. Everything after reading the file is `runtime/load.ts`.
 */
import { readFile, stat } from 'node:fs/promises';
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
  const bytes = await readOrFail(bundlePath);
  try {
    const index = await loadIndex(bytes);
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
