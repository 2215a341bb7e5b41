/**
 * `dist/` writer: the content-hashed bundle first, then the `kdd.json` pointer, each atomically.
 * Readers (kdd serve, the site) follow the pointer, so they only ever see a complete bundle. The
 * previous bundle is kept one generation so a reader holding the old pointer can still fetch it.
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { BUNDLE_FORMAT_VERSION, POINTER_FILE, type BundlePointer } from '../../formats/bundle/types.js';
import type { IndexManifest } from '../../model/graph.js';
import { isTempFile, writeAtomic, writeAtomicPartsNamed } from '../atomic.js';
import { artifactSizes, type IndexWeight } from '../emit/sizes.js';
import type { PackedBundle } from './pack.js';

export { POINTER_FILE, type BundlePointer };

/** A bundle on disk that no pointer names yet, and the bundle the pointer named before it. */
export interface WrittenBundle {
  fileName: string;
  hash: string;
  bytes: number;
  previous: BundlePointer | null;
}

/** Writes the bundle, then the pointer (a build writes its caches between the two: compiler/pipeline.ts). */
export async function writeDist(outDir: string, packed: PackedBundle, manifest: Pick<IndexManifest, 'index_level' | 'structure' | 'stats'>): Promise<BundlePointer> {
  return writePointer(outDir, await writeBundle(outDir, packed), manifest);
}

/**
 * The content-hashed bundle alone. Until `writePointer` names it no reader sees it, and the
 * bundle the pointer names stays: a build that stops here has lost nothing. The caller may let
 * go of `packed.bytes` once this is over.
 */
export async function writeBundle(outDir: string, packed: PackedBundle): Promise<WrittenBundle> {
  const previous = await readPointer(outDir);
  // A packed or patched bundle comes as pieces (compiler/pack/pack.ts packedParts): written as they
  // are, never joined; a bundle handed over whole is one piece.
  const parts = packed.parts ?? [packed.bytes];
  // Named after its hash, made while the thread pool writes the bytes (compiler/atomic.ts).
  const fileName = await writeAtomicPartsNamed(outDir, parts, () => packed.fileName);
  const bytes = parts.reduce((sum, part) => sum + part.byteLength, 0);
  return { fileName, hash: packed.hash, bytes, previous };
}

/**
 * Moves the pointer to a written bundle, then removes bundles older than the one it named before.
 * `indexDigest`: what the bundle was packed from (compiler/pack/digest.ts), so the next build can
 * tell a stale one. `weight`: the specs' and the index's bytes, kept with the bundle's (`sizes`).
 */
export async function writePointer(
  outDir: string,
  written: WrittenBundle,
  manifest: Pick<IndexManifest, 'index_level' | 'structure' | 'stats'>,
  indexDigest?: string,
  weight?: IndexWeight,
): Promise<BundlePointer> {
  const pointer: BundlePointer = {
    format: BUNDLE_FORMAT_VERSION,
    bundle: written.fileName,
    hash: written.hash,
    bytes: written.bytes,
    index_level: manifest.index_level,
    structure: manifest.structure,
    stats: manifest.stats,
    ...(indexDigest ? { index_digest: indexDigest } : {}),
    ...(weight ? { sizes: artifactSizes(weight, written.bytes) } : {}),
  };
  await writeAtomic(join(outDir, POINTER_FILE), `${JSON.stringify(pointer, null, 2)}\n`);
  const keep = new Set([written.fileName, written.previous?.bundle]);
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
