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
import { forEachLimited, writeAtomic, writeManyIfChanged } from '../atomic.js';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);
/** Files above this use the fast brotli quality. */
const BIG_FILE = 1024 * 1024;
/** A copy must be at most this share of the original to be worth serving. */
const WORTH = 0.9;
export const COMPRESSED_SUFFIXES = ['.br', '.gz'] as const;

/** Writes `path.br` and `path.gz` for `bytes` (the content of `path`), when they pay off. */
export async function writeCompressedCopies(path: string, bytes: Uint8Array): Promise<void> {
  for (const [suffix, copy] of await compressedCopies(bytes)) {
    if (copy) await writeAtomic(path + suffix, copy);
    else await rm(path + suffix, { force: true });
  }
}

/** Files compressed and written per round of {@link writeCompressedCopiesOf}: bounds the copies held in memory. */
const BATCH = 512;

/**
 * {@link writeCompressedCopies} for many files of `dir` (names relative to it), a bounded number
 * compressed at a time, written in batches (one `mkdir` per folder, not one per copy: a 10k-document
 * site has some 60,000 copies).
 */
export async function writeCompressedCopiesOf(dir: string, files: readonly { name: string; bytes: Uint8Array }[]): Promise<void> {
  for (let at = 0; at < files.length; at += BATCH) {
    const batch = files.slice(at, at + BATCH);
    const copies: [string, Uint8Array][] = [];
    const useless: string[] = [];
    // zlib runs on libuv's small thread pool: more in flight would only queue and hold memory.
    await forEachLimited(batch, async (file) => {
      for (const [suffix, copy] of await compressedCopies(file.bytes)) {
        if (copy) copies.push([file.name + suffix, copy]);
        else useless.push(join(dir, file.name + suffix));
      }
    }, 8);
    await writeManyIfChanged(dir, copies, { fresh: true });
    await forEachLimited(useless, (path) => rm(path, { force: true }));
  }
}

/**
 * The brotli and gzip copies of `bytes`, each null when it does not pay off. Brotli's window is
 * sized to the input: with the default 4 MiB window, setting up and freeing the encoder cost 20
 * times the compression itself on the 7 kB pieces of a site (same output within 0.1 %). Never above
 * the default window, so big files (a bundle) compress as before.
 */
async function compressedCopies(bytes: Uint8Array): Promise<[suffix: string, copy: Uint8Array | null][]> {
  const quality = bytes.byteLength > BIG_FILE ? 6 : 9;
  const window = Math.min(constants.BROTLI_DEFAULT_WINDOW, Math.max(constants.BROTLI_MIN_WINDOW_BITS, Math.ceil(Math.log2(bytes.byteLength + 1))));
  const [br, gzipped] = await Promise.all([
    brotli(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength, [constants.BROTLI_PARAM_LGWIN]: window } }),
    gz(bytes, { level: 6 }),
  ]);
  const worth = (copy: Uint8Array) => (copy.byteLength <= bytes.byteLength * WORTH ? copy : null);
  return [['.br', worth(br)], ['.gz', worth(gzipped)]];
}

/** Removes `X.br` / `X.gz` files of `dir` whose `X` is gone (an old bundle or shard). */
export async function removeOrphanCopies(dir: string): Promise<void> {
  const names = new Set(await readdir(dir).catch(() => [] as string[]));
  for (const name of names) {
    const suffix = COMPRESSED_SUFFIXES.find((s) => name.endsWith(s));
    if (suffix && !names.has(name.slice(0, -suffix.length))) await rm(join(dir, name), { force: true });
  }
}
