/** The whole L2 stage on the kdd-engine corpus with the tiny real model, offline. */
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { compile } from '../../compiler/pipeline.js';
import { embedStage } from '../../compiler/embed/stage.js';
import type { GraphNode } from '../../model/graph.js';
import { cosineTopK, toVectorStore } from '../../runtime/vectors.js';
import { KDD_ENGINE_SPECS } from '../helpers/temp-tree.js';
import { makeTinyModel } from '../helpers/tiny-model/make-tiny-model.js';

let root: string;
let store: string;
let nodes: GraphNode[];
const present = existsSync(KDD_ENGINE_SPECS);
if (!present) console.warn(`kdd-engine corpus not found at ${KDD_ENGINE_SPECS}: embed stage tests skipped`);

beforeAll(async () => {
  if (!present) return;
  vi.stubGlobal('fetch', async () => {
    throw new Error('offline test');
  });
  root = await mkdtemp(join(tmpdir(), 'kdd-stage-'));
  store = join(root, 'models');
  await makeTinyModel(join(store, 'kdd-test'), { name: 'tiny-e5-test' });
  nodes = (await compile({ specsDir: KDD_ENGINE_SPECS })).graph.nodes;
});
afterAll(async () => {
  vi.unstubAllGlobals();
  await rm(root, { recursive: true, force: true });
});

const options = () => ({ indexDir: join(root, '.kdd-index'), model: 'kdd-test/tiny-e5-test', dtype: 'fp32' as const, modelsDir: store });

describe.skipIf(!present)('embedStage', () => {
  it('embeds the embeddable chunks, then rebuilds from the cache with identical vectors and no model call', async () => {
    const first = await embedStage(nodes, options());
    if (first.level !== 'L2') throw new Error(first.warning.message);
    expect(first.model).toBe('kdd-test/tiny-e5-test@fp32');
    expect(first.dimensions).toBe(32);
    expect(first.vectors.count).toBe(first.chunks.length);
    expect(first.embedded).toBeGreaterThan(50);
    expect(first.chunks.every((chunk) => chunk.embeddable)).toBe(true);
    expect((await readdir(join(root, '.kdd-index', 'embeddings', 'kdd-test--tiny-e5-test--fp32'))).length).toBeGreaterThan(10);

    // Second build: a model folder that no longer exists proves the model is not even loaded.
    const second = await embedStage(nodes, { ...options(), modelsDir: join(root, 'gone') });
    if (second.level !== 'L2') throw new Error(second.warning.message);
    expect(second).toMatchObject({ embedded: 0, reused: first.chunks.length, cache: { written: [], removed: [] } });
    expect(Buffer.from(second.vectors.data).equals(Buffer.from(first.vectors.data))).toBe(true);
    expect(Buffer.from(second.vectors.scales).equals(Buffer.from(first.vectors.scales))).toBe(true);

    // The vectors answer a semantic query end to end.
    const { loadTransformersEmbedder } = await import('../../compiler/embed/transformers.js');
    const embedder = await loadTransformersEmbedder(options());
    const query = await embedder.embedQuery('merge indices combinar');
    const [top] = cosineTopK(query, toVectorStore(first.vectors), 1);
    expect(first.chunks[top!.index]!.text.toLowerCase()).toMatch(/fusi|merg|combin/);
    await embedder.dispose?.();
  });

  it('persist: false writes nothing (compile mode)', async () => {
    const result = await embedStage(nodes, { ...options(), indexDir: join(root, 'no-write'), persist: false });
    expect(result.level).toBe('L2');
    await expect(readdir(join(root, 'no-write'))).rejects.toThrow();
  });

  it('degrades to L1 with a warning when the model is missing and chunks need embedding', async () => {
    const result = await embedStage(nodes, { ...options(), indexDir: join(root, 'fresh-index'), model: 'kdd-test/absent' });
    expect(result).toMatchObject({ level: 'L1', warning: { code: 'MODEL_NOT_AVAILABLE' } });
    if (result.level === 'L1') expect(result.warning.message).toContain("run `kdd model pull kdd-test/absent --dtype fp32`");
  });

  it('degrades to L1 when the embedder fails at run time', async () => {
    const failing = { id: 'x@fp32', dimensions: 4, embedDocuments: async () => Promise.reject(new Error('OOM')), embedQuery: async () => new Float32Array(4) };
    const result = await embedStage(nodes, { indexDir: join(root, 'failing-index'), embedder: failing });
    expect(result).toMatchObject({ level: 'L1', warning: { code: 'EMBEDDING_FAILED' } });
  });
});
