/**
 * `dist/` as a build writes it: the bundle first, the caches, then the pointer. While the bundle
 * is on disk and the pointer has not moved, readers still get the previous bundle, which stays.
 */
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { POINTER_FILE, writeBundle, writeDist, writePointer } from '../../compiler/pack/dist.js';
import { bundleHash, type PackedBundle } from '../../compiler/pack/pack.js';
import type { IndexManifest } from '../../model/graph.js';
import { removeTree } from '../helpers/temp-tree.js';

const manifest = { index_level: 'L1', structure: 'single-domain', stats: {} } as unknown as Pick<IndexManifest, 'index_level' | 'structure' | 'stats'>;

function packed(text: string): PackedBundle {
  const bytes = new TextEncoder().encode(text);
  const hash = bundleHash(bytes);
  return { bytes, hash, fileName: `kdd-${hash}.msgpack` };
}

const named = async (dir: string) => (JSON.parse(await readFile(join(dir, POINTER_FILE), 'utf8')) as { bundle: string }).bundle;

let dir: string;
afterAll(() => removeTree(dir));

describe('dist/ written in two steps', () => {
  it('keeps the pointer on the previous bundle until writePointer, then drops only bundles older than it', async () => {
    dir = await mkdtemp(join(tmpdir(), 'kdd-dist-order-'));
    const [a, b, c] = [packed('first'), packed('second'), packed('third')];
    await writeDist(dir, a, manifest);
    await writeDist(dir, b, manifest);

    const written = await writeBundle(dir, c);
    expect(await named(dir)).toBe(b.fileName);
    expect((await readdir(dir)).sort()).toEqual([a.fileName, b.fileName, c.fileName, POINTER_FILE].sort());

    const pointer = await writePointer(dir, written, manifest, 'digest', undefined);
    expect(pointer).toMatchObject({ bundle: c.fileName, hash: c.hash, bytes: c.bytes.byteLength, index_digest: 'digest' });
    expect(await named(dir)).toBe(c.fileName);
    expect((await readdir(dir)).sort()).toEqual([b.fileName, c.fileName, POINTER_FILE].sort());
  });
});
