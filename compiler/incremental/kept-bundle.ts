/**
 * The bundle the previous build left in `dist/`, when it is provably the one this index describes:
 * a build that changed nothing in `.kdd-index/` keeps it instead of packing it again.
 */
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { BUNDLE_FORMAT_VERSION } from '../../formats/bundle/types.js';
import { writeAtomic } from '../atomic.js';
import type { ArtifactStamp } from '../cache/record-cache.js';
import { sameStamp } from '../cache/stamps.js';
import { readPointer, type BundlePointer } from '../pack/dist.js';
import { bundleHash } from '../pack/pack.js';

/**
 * The existing pointer, if it was written for this exact index (`index_digest`) and names a bundle
 * of this format whose bytes are on disk whole: their hash is the one in its name, or the file
 * still has the size and times it had when this index's last build wrote or checked it (`checked`,
 * a local cache: hashing a 60 MB bundle on every unchanged build would cost a fifth of it).
 */
export async function keptBundle(outDir: string, digest: string, checked: string): Promise<BundlePointer | null> {
  const pointer = await readPointer(outDir);
  if (!pointer || pointer.format !== BUNDLE_FORMAT_VERSION || pointer.index_digest !== digest) return null;
  return (await wholeBundle(outDir, pointer, checked, false)) ? pointer : null;
}

/**
 * The bytes of the bundle `dist/` points to, when it is `name` and whole (same checks as
 * {@link keptBundle}): what an incremental pack may copy from (compiler/incremental/patch-bundle.ts).
 * When its stamp vouches for it, `readTrusted` reads it (the patch reads only the parts it copies
 * from); otherwise all of it is read, to be hashed.
 */
export async function trustedBundle(outDir: string, name: string, checked: string, readTrusted: (path: string, size: number) => Promise<Uint8Array | null>): Promise<Uint8Array | null> {
  const pointer = await readPointer(outDir);
  if (!pointer || pointer.format !== BUNDLE_FORMAT_VERSION || pointer.bundle !== name) return null;
  const bytes = await wholeBundle(outDir, pointer, checked, readTrusted);
  return bytes === true ? null : bytes;
}

/** The pointer's bundle is on disk whole: true (or its bytes, when `read`), else null. */
async function wholeBundle(outDir: string, pointer: BundlePointer, checked: string, read: ((path: string, size: number) => Promise<Uint8Array | null>) | false): Promise<Uint8Array | true | null> {
  const path = join(outDir, pointer.bundle);
  const known = (await readBundleStamps(checked))[bundleKey(checked, outDir)];
  const now = statSync(path, { throwIfNoEntry: false });
  if (known?.bundle === pointer.bundle && now && now.size === pointer.bytes && sameStamp(known, now)) {
    // Stamp unchanged: the bytes are the ones written (a file replaced since has another ctime).
    return read ? read(path, pointer.bytes).catch(() => null) : true;
  }
  const bytes = await readFile(path).catch(() => null);
  if (!bytes || bytes.byteLength !== pointer.bytes || bundleHash(bytes) !== pointer.hash) return null;
  await rememberBundle(checked, outDir, pointer);
  return bytes;
}

/** Out folder → the stamp of its bundle. */
type BundleStamps = Record<string, ArtifactStamp & { bundle: string }>;

/** Out folders are named relative to the cache file: no machine path lands in the index folder. */
const bundleKey = (file: string, outDir: string) => relative(dirname(file), outDir).split(sep).join('/');

async function readBundleStamps(file: string): Promise<BundleStamps> {
  const stamps = await readFile(file, 'utf8').then((text) => JSON.parse(text) as unknown, () => null);
  return stamps && typeof stamps === 'object' ? (stamps as BundleStamps) : {};
}

/** Records the stamp of the bundle `pointer` names in `outDir`, as written or checked just now. */
export async function rememberBundle(file: string, outDir: string, pointer: BundlePointer): Promise<void> {
  const info = statSync(join(outDir, pointer.bundle), { throwIfNoEntry: false });
  if (!info) return;
  const stamps = await readBundleStamps(file);
  stamps[bundleKey(file, outDir)] = { bundle: pointer.bundle, size: info.size, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs };
  // An optimisation like the other caches: failing to write it must not fail the build.
  await writeAtomic(file, `${JSON.stringify(stamps)}\n`).catch(() => undefined);
}
