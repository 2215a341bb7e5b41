/**
 * `dist/` writer: the content-hashed bundle first, then the `kdd.json` pointer, each atomically.
 * Readers (kdd serve, the site) follow the pointer, so they only ever see a complete bundle. The
 * previous bundle is kept one generation so a reader holding the old pointer can still fetch it.
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { BUNDLE_FORMAT_VERSION, POINTER_FILE, type BundlePointer } from '../../formats/bundle/types.js';
import type { IndexManifest } from '../../model/graph.js';
import { isTempFile, writeAtomic, writeAtomicParts } from '../atomic.js';
import { artifactSizes, type IndexWeight } from '../emit/sizes.js';
import type { PackedBundle } from './pack.js';

export { POINTER_FILE, type BundlePointer };

/**
 * Writes the bundle, then the pointer. `ready`: work that must be over before the pointer moves
 * (the build's caches), done meanwhile: its writes overlap the bundle's. `indexDigest`: what the
 * bundle was packed from (compiler/pack/digest.ts), so the next build can tell a stale one.
 * `weight`: the specs' and the index's bytes, kept in the pointer with the bundle's (`sizes`).
 */
export async function writeDist(
  outDir: string,
  packed: PackedBundle,
  manifest: Pick<IndexManifest, 'index_level' | 'structure' | 'stats'>,
  ready?: Promise<unknown>,
  indexDigest?: string,
  weight?: IndexWeight,
): Promise<BundlePointer> {
  const previous = await readPointer(outDir);
  const path = join(outDir, packed.fileName);
  await Promise.all([packed.parts ? writeAtomicParts(path, packed.parts) : writeAtomic(path, packed.bytes), ready]);
  const size = packed.parts ? packed.parts.reduce((sum, part) => sum + part.byteLength, 0) : packed.bytes.byteLength;
  const pointer: BundlePointer = {
    format: BUNDLE_FORMAT_VERSION,
    bundle: packed.fileName,
    hash: packed.hash,
    bytes: size,
    index_level: manifest.index_level,
    structure: manifest.structure,
    stats: manifest.stats,
    ...(indexDigest ? { index_digest: indexDigest } : {}),
    ...(weight ? { sizes: artifactSizes(weight, size) } : {}),
  };
  await writeAtomic(join(outDir, POINTER_FILE), `${JSON.stringify(pointer, null, 2)}\n`);
  const keep = new Set([packed.fileName, previous?.bundle]);
  for (const name of await readdir(outDir)) {
    // Older bundles, and temp files a killed build left (never served, never kept).
    if ((/^kdd-[0-9a-f]{12}\.msgpack$/.test(name) && !keep.has(name)) || isTempFile(name)) await rm(join(outDir, name), { force: true });
  }
  return pointer;
}

export async function readPointer(outDir: string): Promise<BundlePointer | null> {
  try {
    return JSON.parse(await readFile(join(outDir, POINTER_FILE), 'utf8')) as BundlePointer;
  } catch {
    return null;
  }
}
