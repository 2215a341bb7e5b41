/**
 * The REAL transformers.js path (tokenizer.json → WordPiece → onnxruntime-node → mean pooling →
 * normalize) on a tiny generated model, with the network made impossible: `fetch` throws and
 * remote models are disabled. No test here may need model weights from the internet.
 */
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EmbeddingError, type Embedder } from '../../compiler/embed/embedder.js';
import { listModels, pullModel } from '../../compiler/embed/pull.js';
import { loadTransformersEmbedder } from '../../compiler/embed/transformers.js';
import { TINY_MODEL_DIMENSIONS, TINY_MODEL_GROUPS, makeTinyModel } from '../helpers/tiny-model/make-tiny-model.js';

const fetchSpy = vi.fn(async (input: unknown) => {
  throw new Error(`network access attempted in a test: ${String(input)}`);
});

let store: string;
let folder: string;
let embedder: Embedder;

const cosine = (a: Float32Array, b: Float32Array) => a.reduce((sum, value, index) => sum + value * b[index]!, 0);
const norm = (a: Float32Array) => Math.sqrt(cosine(a, a));

beforeAll(async () => {
  vi.stubGlobal('fetch', fetchSpy);
  store = await mkdtemp(join(tmpdir(), 'kdd-models-'));
  folder = await makeTinyModel(join(store, 'kdd-test'), { name: 'tiny-e5-test' });
  embedder = await loadTransformersEmbedder({ model: 'kdd-test/tiny-e5-test', dtype: 'fp32', modelsDir: store, batchSize: 4 });
});

afterAll(async () => {
  await embedder?.dispose?.();
  vi.unstubAllGlobals();
  await rm(store, { recursive: true, force: true });
});

describe('transformers.js backend on the tiny offline model', () => {
  it('loads by hub id from the model store, with a path-free id and the model dimensions', () => {
    expect(embedder.id).toBe('kdd-test/tiny-e5-test@fp32');
    expect(embedder.dimensions).toBe(TINY_MODEL_DIMENSIONS);
  });

  it('returns unit-norm vectors of the right size, one per text, in input order', async () => {
    const texts = ['El pedido de compra del cliente', 'regla', 'fusión de índices', 'texto sin vocabulario conocido zzz'];
    const vectors = await embedder.embedDocuments(texts);
    expect(vectors).toHaveLength(texts.length);
    for (const vector of vectors) {
      expect(vector).toBeInstanceOf(Float32Array);
      expect(vector).toHaveLength(TINY_MODEL_DIMENSIONS);
      expect(norm(vector)).toBeCloseTo(1, 5);
    }
    const [alone] = await embedder.embedDocuments(['regla']);
    expect(Array.from(vectors[1]!)).toEqual(Array.from(alone!));
  });

  it('is invariant to batching and padding: a text alone equals the same text among longer ones', async () => {
    const short = 'pedido';
    const long = Array.from({ length: 60 }, (_, index) => (index % 2 ? 'regla de negocio' : 'evento emitido')).join(' ');
    const [alone] = await embedder.embedDocuments([short]);
    const batch = await embedder.embedDocuments([long, short, `${long} ${long}`, 'merge', 'orden', 'usuario', 'grafo']);
    for (let d = 0; d < TINY_MODEL_DIMENSIONS; d++) expect(batch[1]![d]).toBeCloseTo(alone![d]!, 6);
  });

  it('is deterministic across calls', async () => {
    const texts = ['Cada pedido contiene líneas', 'The merge rule combines indexes'];
    const first = await embedder.embedDocuments(texts);
    const second = await embedder.embedDocuments(texts);
    expect(second.map((v) => Array.from(v))).toEqual(first.map((v) => Array.from(v)));
    expect(Array.from(await embedder.embedQuery('pedido'))).toEqual(Array.from(await embedder.embedQuery('pedido')));
  });

  it('ranks words of the same group together (es/en synonyms share a direction)', async () => {
    const groups = Object.entries(TINY_MODEL_GROUPS);
    const words = groups.flatMap(([group, members]) => members.slice(0, 3).map((word) => ({ group, word })));
    const vectors = await embedder.embedDocuments(words.map((entry) => entry.word));
    words.forEach((entry, i) => {
      const ranked = words.map((other, j) => ({ group: other.group, score: cosine(vectors[i]!, vectors[j]!) })).filter((_, j) => j !== i).sort((a, b) => b.score - a.score);
      // The two other words of the same group are the two nearest neighbours.
      expect(ranked.slice(0, 2).map((r) => r.group)).toEqual([entry.group, entry.group]);
    });
    const documents = ['Representa un pedido de compra realizado por un usuario', 'Regla de negocio que valida la norma', 'Fusión: combinar dos índices en uno'];
    const docVectors = await embedder.embedDocuments(documents);
    const best = async (query: string) => {
      const q = await embedder.embedQuery(query);
      return docVectors.map((v, index) => ({ index, score: cosine(q, v) })).sort((a, b) => b.score - a.score)[0]!.index;
    };
    expect(await best('purchase order')).toBe(0);
    expect(await best('business rule policy')).toBe(1);
    expect(await best('merge indexes')).toBe(2);
  });

  it('applies e5 prefixes (query: / passage:) so queries and documents differ, unless configured off', async () => {
    const document = (await embedder.embedDocuments(['pedido']))[0]!;
    const query = await embedder.embedQuery('pedido');
    expect(Array.from(query)).not.toEqual(Array.from(document));
    const plain = await loadTransformersEmbedder({ model: folder, dtype: 'fp32', prefixes: { query: '', document: '' } });
    try {
      expect(plain.id).toBe('tiny-e5-test@fp32');
      expect(Array.from(await plain.embedQuery('pedido'))).toEqual(Array.from((await plain.embedDocuments(['pedido']))[0]!));
    } finally {
      await plain.dispose?.();
    }
  });

  it('never touched the network', () => {
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});

describe('typed failures (the build degrades to L1 on any of them)', () => {
  it('a missing model says how to pull it', async () => {
    const error = await loadTransformersEmbedder({ model: 'kdd-test/missing-e5', dtype: 'q8', modelsDir: store }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbeddingError);
    expect(error).toMatchObject({ code: 'MODEL_NOT_AVAILABLE', exitCode: 4, model: 'kdd-test/missing-e5' });
    expect((error as Error).message).toContain('model not available locally; run `kdd model pull kdd-test/missing-e5`');
  });

  it('a dtype whose ONNX file is absent is reported as not available, with the --dtype to pull', async () => {
    const error = await loadTransformersEmbedder({ model: 'kdd-test/tiny-e5-test', dtype: 'q4', modelsDir: store }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'MODEL_NOT_AVAILABLE' });
    expect((error as Error).message).toContain('run `kdd model pull kdd-test/tiny-e5-test --dtype q4`');
  });

  it('a corrupt ONNX file gives MODEL_LOAD_FAILED', async () => {
    const broken = join(store, 'kdd-test', 'broken-onnx');
    await cp(folder, broken, { recursive: true });
    await writeFile(join(broken, 'onnx', 'model.onnx'), new TextEncoder().encode('this is not a protobuf model'.repeat(10)));
    const error = await loadTransformersEmbedder({ model: 'kdd-test/broken-onnx', dtype: 'fp32', modelsDir: store }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbeddingError);
    expect(error).toMatchObject({ code: 'MODEL_LOAD_FAILED', exitCode: 1 });
  });

  it('a corrupt tokenizer gives MODEL_LOAD_FAILED', async () => {
    const broken = join(store, 'kdd-test', 'broken-tokenizer');
    await cp(folder, broken, { recursive: true });
    await writeFile(join(broken, 'tokenizer.json'), '{ not json');
    const error = await loadTransformersEmbedder({ model: broken, dtype: 'fp32' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'MODEL_LOAD_FAILED' });
  });

  it('pull reaches the network only through fetch, and reports a typed download failure', async () => {
    const error = await pullModel({ model: 'kdd-test/not-on-this-machine', dtype: 'q8', modelsDir: store }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'MODEL_DOWNLOAD_FAILED' });
    expect(fetchSpy).toHaveBeenCalled();
    fetchSpy.mockClear();
  });
});

describe('model store listing', () => {
  it('lists the cached models with the dtypes usable offline', async () => {
    const models = await listModels({ modelsDir: store });
    const tiny = models.find((model) => model.model === 'kdd-test/tiny-e5-test');
    expect(tiny).toMatchObject({ dtypes: ['fp32'], ids: ['kdd-test/tiny-e5-test@fp32'] });
    expect(tiny!.bytes).toBeGreaterThan(10_000);
    expect(models.map((model) => model.model)).toEqual([...models.map((model) => model.model)].sort());
  });
});
