import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import fc from 'fast-check';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadBundle, readAndHash } from '../../library/load-bundle.js';
import { fetchIndex, loadIndex } from '../../runtime/load.js';
import { impactFeatureIndex } from '../helpers/make-index.js';
import { removeWrittenDists, writeDist } from '../helpers/write-dist.js';
import { rejection } from '../helpers/rejection.js';

const bundle = () => impactFeatureIndex().bundle;
afterAll(removeWrittenDists);


describe('loadIndex', () => {
  it('restores nodes, the id map, the text index and the 12-hex hash without touching the bytes', async () => {
    const { bytes, hash } = await writeDist(bundle());
    const copy = new Uint8Array(bytes);
    const keys = Object.keys(bytes);
    const index = await loadIndex(bytes);
    expect(index.hash).toBe(hash);
    expect(index.nodeIndex.get('UC:UC-001')).toBe(index.bundle.nodes.findIndex((n) => n.id === 'UC:UC-001'));
    expect(index.bundle.edges).toEqual(bundle().edges);
    expect(typeof index.text.search).toBe('function');
    expect(new Uint8Array(bytes)).toEqual(copy);
    expect(Object.keys(bytes)).toEqual(keys);
  });

  it('rejects bytes that are not a bundle with INDEX_UNAVAILABLE', async () => {
    expect((await rejection(loadIndex(new Uint8Array([1, 2, 3])))).code).toBe('INDEX_UNAVAILABLE');
  });
});

describe('loadBundle', () => {
  it('loads from a dist directory, a pointer file or the bundle file', async () => {
    const { dir, file, hash } = await writeDist(bundle());
    expect((await loadBundle(dir)).hash).toBe(hash);
    expect((await loadBundle(join(dir, 'kdd.json'))).hash).toBe(hash);
    expect((await loadBundle(join(dir, file))).hash).toBe(hash);
  });

  it('names the path when the bundle is missing', async () => {
    const error = await rejection(loadBundle('/nonexistent/dist'));
    expect(error.code).toBe('INDEX_UNAVAILABLE');
    expect(error.message).toContain('/nonexistent/dist');
  });

  it('detects a bundle whose content does not match its hashed name', async () => {
    const { dir, file } = await writeDist(bundle());
    const other = impactFeatureIndex().bundle;
    other.nodes[0]!.title = 'changed';
    await writeFile(join(dir, file), (await import('../../formats/bundle/bundle.js')).encodeBundle(other));
    const error = await rejection(loadBundle(dir));
    expect(error.message).toContain('corrupt');
    expect(error.message).toContain(file);
  });

  it('reads and hashes the file piece by piece into the same bytes and tag as one whole read', async () => {
    const { dir, file, hash } = await writeDist(bundle());
    const whole = await readFile(join(dir, file));
    for (const piece of [1, 7, 4096, whole.length, whole.length + 1]) {
      const read = await readAndHash(join(dir, file), piece);
      expect(read.hash).toBe(hash);
      expect(Buffer.from(read.bytes).equals(whole)).toBe(true);
    }
    expect(createHash('sha256').update(whole).digest('hex').startsWith(hash)).toBe(true);
  });

  it('never loads a damaged bundle: any changed byte ends in INDEX_UNAVAILABLE naming the file', async () => {
    const { dir, file, bytes } = await writeDist(bundle());
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: bytes.length - 1 }), fc.integer({ min: 1, max: 255 }), async (at, flip) => {
        const damaged = new Uint8Array(bytes);
        damaged[at]! ^= flip;
        await writeFile(join(dir, file), damaged);
        const error = await rejection(loadBundle(dir));
        expect(error.code).toBe('INDEX_UNAVAILABLE');
        expect(error.message).toContain(file);
      }),
      { numRuns: 60, seed: 17 },
    );
  });
});

describe('fetchIndex', () => {
  it('follows kdd.json to the bundle', async () => {
    const { bytes, file, hash } = await writeDist(bundle());
    const served: Record<string, unknown> = { '/kdd/kdd.json': { bundle: file }, [`/kdd/${file}`]: bytes };
    const fake = async (url: string) => {
      const body = served[url];
      return {
        ok: body !== undefined,
        status: body === undefined ? 404 : 200,
        json: async () => body,
        arrayBuffer: async () => new Uint8Array(body as Uint8Array).buffer,
      } as never;
    };
    expect((await fetchIndex('/kdd', { fetch: fake })).hash).toBe(hash);
    expect((await rejection(fetchIndex('/missing/', { fetch: fake }))).message).toContain('/missing/kdd.json');
  });
});
