/**
 * Brotli and gzip copies next to the files a static host serves (`X.br`, `X.gz`), so `kdd serve`
 * (sirv's `brotli`/`gzip` options) or any host that looks for them sends the smaller one without
 * compressing on each request. Copies are written only when they save at least a tenth.
 *
 * Brotli quality 9 for the site files (quality 11 saves a few per cent more and took minutes on the
 * 180 MB of pieces of a 10k-document tree), 6 for files over 1 MiB (a full bundle), gzip level 6
 * (docs/decisions/site-pieces.md).
 */
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { forEachLimited, writeAtomic } from '../atomic.js';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);
/** Files above this use the fast brotli quality. */
const BIG_FILE = 1024 * 1024;
/** A copy must be at most this share of the original to be worth serving. */
const WORTH = 0.9;
export const COMPRESSED_SUFFIXES = ['.br', '.gz'] as const;

/** Writes `path.br` and `path.gz` for `bytes` (the content of `path`), when they pay off. */
export async function writeCompressedCopies(path: string, bytes: Uint8Array): Promise<void> {
  const quality = bytes.byteLength > BIG_FILE ? 6 : 9;
  const [br, gzipped] = await Promise.all([
    brotli(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength } }),
    gz(bytes, { level: 6 }),
  ]);
  for (const [suffix, copy] of [['.br', br], ['.gz', gzipped]] as const) {
    if (copy.byteLength <= bytes.byteLength * WORTH) await writeAtomic(path + suffix, copy);
    else await rm(path + suffix, { force: true });
  }
}

/** {@link writeCompressedCopies} for many files, a bounded number at a time. */
export async function writeCompressedCopiesOf(files: readonly { path: string; bytes: Uint8Array }[]): Promise<void> {
  // zlib runs on libuv's small thread pool: more in flight would only queue and hold memory.
  await forEachLimited(files, (file) => writeCompressedCopies(file.path, file.bytes), 8);
}

/** Removes `X.br` / `X.gz` files of `dir` whose `X` is gone (an old bundle or shard). */
export async function removeOrphanCopies(dir: string): Promise<void> {
  const names = new Set(await readdir(dir).catch(() => [] as string[]));
  for (const name of names) {
    const suffix = COMPRESSED_SUFFIXES.find((s) => name.endsWith(s));
    if (suffix && !names.has(name.slice(0, -suffix.length))) await rm(join(dir, name), { force: true });
  }
}
