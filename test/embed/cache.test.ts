import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VectorCache, decodeShard, embedWithCache, encodeShard, textHash } from '../../compiler/embed/cache.js';
import type { Embedder } from '../../compiler/embed/embedder.js';

/** A fake model whose floats differ on every call (like ONNX across CPUs) — the cache must hide that. */
function noisyEmbedder(id = 'fake/model@q8', dimensions = 8): Embedder & { calls: string[][] } {
  let call = 0;
  const calls: string[][] = [];
  const vector = (text: string) => Float32Array.from({ length: dimensions }, (_, d) => ((text.charCodeAt(d % text.length) || 1) + d) / 100 + call * 1e-7);
  return {
    id,
    dimensions,
    calls,
    async embedDocuments(texts) {
      call++;
      calls.push([...texts]);
      return texts.map(vector);
    },
    async embedQuery(text) {
      return vector(text);
    },
  };
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kdd-cache-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const shardDir = () => join(dir, 'embeddings', 'fake--model--q8');
async function snapshot(): Promise<Record<string, string>> {
  const names = (await readdir(shardDir())).sort();
  return Object.fromEntries(await Promise.all(names.map(async (name) => [name, (await readFile(join(shardDir(), name))).toString('hex')] as const)));
}

describe('shard format', () => {
  it('is deterministic (records sorted by hash) and round-trips', () => {
    const a = textHash('a');
    const b = textHash('b');
    const va = Float32Array.of(1, -0.5, 0.25);
    const vb = Float32Array.of(0, 2, -3);
    const one = encodeShard(3, new Map([[a, va], [b, vb]]));
    const two = encodeShard(3, new Map([[b, vb], [a, va]]));
    expect(Buffer.from(one).equals(Buffer.from(two))).toBe(true);
    expect(one.length).toBe(16 + 2 * (32 + 12));
    expect(new TextDecoder().decode(one.subarray(0, 4))).toBe('KDDV');
    const decoded = decodeShard(one)!;
    expect(decoded.dims).toBe(3);
    expect(Array.from(decoded.records.get(a)!)).toEqual([1, -0.5, 0.25]);
    expect(decodeShard(one.subarray(0, one.length - 1))).toBeNull();
    expect(decodeShard(new TextEncoder().encode('not a shard at all'))).toBeNull();
  });
});

describe('VectorCache + embedWithCache', () => {
  const texts = ['[entity: Pedido] > [Descripción]\nUn pedido', '[business-rule: BR-1] > [Declaración]\nUna regla', 'tercer chunk', 'tercer chunk'];

  it('embeds only misses (deduplicated) and reuses the cache on the next build', async () => {
    const embedder = noisyEmbedder();
    const cache = await VectorCache.open(dir, embedder.id);
    const first = await embedWithCache(texts, embedder, cache);
    expect(first).toMatchObject({ embedded: 3, reused: 1 });
    expect(first.vectors).toHaveLength(4);
    expect(Array.from(first.vectors[2]!)).toEqual(Array.from(first.vectors[3]!));
    await cache.save();

    const reopened = await VectorCache.open(dir, embedder.id);
    expect(reopened.size).toBe(3);
    const second = await embedWithCache([...texts, 'nuevo chunk'], embedder, reopened);
    expect(second).toMatchObject({ embedded: 1, reused: 4 });
    expect(embedder.calls.at(-1)).toEqual(['nuevo chunk']);
    // Vectors come from the cache, not from the (noisy) model: identical floats.
    expect(second.vectors.slice(0, 4).map((v) => Array.from(v))).toEqual(first.vectors.map((v) => Array.from(v)));
  });

  it('rebuilds of the same content are byte-identical; only touched shards are rewritten', async () => {
    const embedder = noisyEmbedder();
    const cache = await VectorCache.open(dir, embedder.id);
    await embedWithCache(texts, embedder, cache);
    const firstSave = await cache.save();
    const before = await snapshot();
    expect(Object.keys(before)).toContain('model.json');
    expect(firstSave.written.length).toBe(new Set(texts.map((t) => textHash(t).slice(0, 2))).size);

    const again = await VectorCache.open(dir, embedder.id);
    await embedWithCache(texts, embedder, again);
    again.retain(texts.map(textHash));
    expect(await again.save()).toEqual({ written: [], removed: [] });
    expect(await snapshot()).toEqual(before);

    // One new chunk touches exactly one shard; the others keep their bytes and mtime.
    const untouched = textHash(texts[0]!).slice(0, 2);
    const mtime = (await stat(join(shardDir(), `${untouched}.bin`))).mtimeMs;
    let extra = 'otro chunk';
    for (let i = 0; textHash(extra).slice(0, 2) === untouched; i++) extra = `otro chunk ${i}`;
    const third = await VectorCache.open(dir, embedder.id);
    await embedWithCache([...texts, extra], embedder, third);
    expect((await third.save()).written).toEqual([`${textHash(extra).slice(0, 2)}.bin`]);
    expect((await stat(join(shardDir(), `${untouched}.bin`))).mtimeMs).toBe(mtime);
  });

  it('retain() drops vectors of deleted chunks and deletes emptied shards', async () => {
    const embedder = noisyEmbedder();
    const cache = await VectorCache.open(dir, embedder.id);
    await embedWithCache(texts, embedder, cache);
    await cache.save();
    cache.retain([textHash(texts[0]!)]);
    const report = await cache.save();
    expect(report.removed.length).toBeGreaterThan(0);
    const reopened = await VectorCache.open(dir, embedder.id);
    expect(reopened.size).toBe(1);
    expect(reopened.get(textHash(texts[0]!))).toBeDefined();
  });

  it('a corrupt shard costs a re-embed, never a failure', async () => {
    const embedder = noisyEmbedder();
    const cache = await VectorCache.open(dir, embedder.id);
    await embedWithCache(texts, embedder, cache);
    await cache.save();
    const victim = `${textHash(texts[0]!).slice(0, 2)}.bin`;
    await writeFile(join(shardDir(), victim), 'garbage');
    const reopened = await VectorCache.open(dir, embedder.id);
    const result = await embedWithCache(texts, embedder, reopened);
    expect(result.embedded).toBeGreaterThanOrEqual(1);
    expect((await reopened.save()).written).toContain(victim);
    expect(decodeShard(await readFile(join(shardDir(), victim)))).not.toBeNull();
  });

  it('keeps one folder per model and refuses to mix models', async () => {
    const a = noisyEmbedder('fake/model@q8');
    const b = noisyEmbedder('other/model@fp32', 4);
    const cache = await VectorCache.open(dir, a.id);
    await expect(embedWithCache(texts, b, cache)).rejects.toThrow(/cache is for/);
    const other = await VectorCache.open(dir, b.id);
    await embedWithCache(texts, b, other);
    await other.save();
    expect((await readdir(join(dir, 'embeddings'))).sort()).toEqual(['other--model--fp32']);
  });
});

describe('embedder ids', () => {
  it('round-trip through parseEmbedderId and slug safely', async () => {
    const { embedderId, parseEmbedderId, modelSlug } = await import('../../compiler/embed/embedder.js');
    expect(parseEmbedderId(embedderId('Xenova/multilingual-e5-small', 'q8'))).toEqual({ model: 'Xenova/multilingual-e5-small', dtype: 'q8' });
    expect(parseEmbedderId('local-model')).toEqual({ model: 'local-model', dtype: 'fp32' });
    expect(modelSlug('Xenova/multilingual-e5-small@q8')).toBe('xenova--multilingual-e5-small--q8');
  });
});
