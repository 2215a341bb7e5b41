/**
 * L2 end to end on the tiny offline model: build test/fixtures/kinds with embeddings, load the
 * bundle, and show the semantic list changes rankings (QRY-002 semantic search, QRY-003 fusion),
 * plus the degrade-to-L1 path with a corrupt model. `fetch` throws: nothing may touch the network.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { build } from '../../compiler/pipeline.js';
import type { Embedder } from '../../compiler/embed/embedder.js';
import { loadTransformersEmbedder } from '../../compiler/embed/transformers.js';
import { loadBundle } from '../../library/load-bundle.js';
import type { KddIndex } from '../../runtime/kdd-index.js';
import { chunks } from '../../runtime/queries/chunks.js';
import { context } from '../../runtime/queries/context.js';
import { search } from '../../runtime/queries/search.js';
import { fold } from '../../runtime/search/tokenizer.js';
import { FIXTURES } from '../helpers/temp-tree.js';
import { makeTinyModel, TINY_MODEL_DIMENSIONS } from '../helpers/tiny-model/make-tiny-model.js';

let root: string;
let index: KddIndex;
let embedder: Embedder;
const specsDir = join(FIXTURES, 'kinds');

beforeAll(async () => {
  vi.stubGlobal('fetch', async (input: unknown) => {
    throw new Error(`network access attempted in a test: ${String(input)}`);
  });
  root = await mkdtemp(join(tmpdir(), 'kdd-semantic-'));
  const folder = await makeTinyModel(root, { quantizedCopy: true });
  const report = await build({ specsDir, outDir: join(root, 'dist'), indexDir: join(root, 'index'), embedder: folder, level: 'L2' });
  expect(report.index_level).toBe('L2');
  index = await loadBundle(join(root, 'dist'));
  embedder = await loadTransformersEmbedder({ model: folder, dtype: 'q8' });
});

afterAll(async () => {
  await embedder?.dispose?.();
  vi.unstubAllGlobals();
  await rm(root, { recursive: true, force: true });
});

const rankOf = (ids: string[], id: string) => (ids.includes(id) ? ids.indexOf(id) : Number.POSITIVE_INFINITY);

describe('L2 build of test/fixtures/kinds with the tiny model', () => {
  it('records L2 in the manifest and carries int8 vectors for the embeddable chunks', () => {
    const { manifest, vectors, chunks: all } = index.bundle;
    expect(manifest.index_level).toBe('L2');
    expect(manifest.embedding_model).toBe('tiny-e5-test@q8');
    expect(manifest.embedding_dimensions).toBe(TINY_MODEL_DIMENSIONS);
    expect(vectors).not.toBeNull();
    expect(vectors!.model).toBe(manifest.embedding_model);
    expect(index.vectors!.dims).toBe(TINY_MODEL_DIMENSIONS);
    expect(index.vectors!.count).toBe(vectors!.rows.length);
    expect(vectors!.rows.length).toBe(manifest.stats.embeddings);
    expect(vectors!.rows.every((row) => all[row]!.embeddable)).toBe(true);
  });

  it('QRY-002: with a query vector, search is semantic; without one it is lexical with NO_EMBEDDINGS', async () => {
    const vector = await embedder.embedQuery('norma politica');
    const semantic = search(index, { query_text: 'norma politica', query_vector: vector, min_score: 0 });
    expect(semantic.retrieval_strategy).toBe('semantic');
    expect(semantic.embedding_model).toBe('tiny-e5-test@q8');
    expect(semantic.warnings).toEqual([]);
    expect(semantic.results.length).toBeGreaterThan(0);
    for (const hit of semantic.results) {
      expect(hit.score).toBeGreaterThanOrEqual(0);
      expect(hit.score).toBeLessThanOrEqual(1);
      expect(hit.snippet.length).toBeGreaterThan(0);
    }
    const scores = semantic.results.map((hit) => hit.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(new Set(semantic.results.map((hit) => hit.node_id)).size).toBe(semantic.results.length);
    const rules = search(index, { query_text: 'norma politica', query_vector: vector, min_score: 0, include_kinds: ['business-rule'] });
    expect(rules.results.every((hit) => hit.document_kind === 'business-rule')).toBe(true);

    const lexical = search(index, { query_text: 'norma politica', min_score: 0 });
    expect(lexical.retrieval_strategy).toBe('lexical');
    expect(lexical.warnings.map((w) => w.code)).toEqual(['NO_EMBEDDINGS']);
  });

  it('QRY-003 fusion: a target whose text shares no word with the query ranks higher at L2 than at L1', async () => {
    const query = 'norma politica';
    const target = 'BR:BR-ORDER-002';
    const node = index.bundle.nodes[index.nodeIndex.get(target)!]!;
    const text = fold([node.title, ...node.sections.map((s) => `${s.heading} ${s.text}`)].join(' '));
    for (const word of query.split(' ')) expect(text).not.toContain(word);

    const l1 = context(index, { query_text: query, min_score: 0, limit: 50 });
    const l2 = context(index, { query_text: query, min_score: 0, limit: 50, query_vector: await embedder.embedQuery(query) });
    expect(l1.retrieval_strategy).toBe('lexical+graph');
    expect(l1.warnings.map((w) => w.code)).toContain('NO_EMBEDDINGS');
    expect(l2.retrieval_strategy).toBe('semantic+lexical+graph');
    expect(l2.warnings.map((w) => w.code)).not.toContain('NO_EMBEDDINGS');
    const before = rankOf(l1.results.map((r) => r.node_id), target);
    const after = rankOf(l2.results.map((r) => r.node_id), target);
    expect(after).toBeLessThan(before);
    expect(['semantic', 'fusion']).toContain(l2.results[after]!.match_source);
  });

  it('with explain, a result the semantic list brought names its closest chunk; at L1 none does', async () => {
    const query = 'offline local model';
    const l2 = context(index, { query_text: query, min_score: 0, explain: true, query_vector: await embedder.embedQuery(query) });
    const semantic = l2.results.filter((hit) => hit.match_source === 'semantic');
    expect(semantic.length).toBeGreaterThan(0);
    for (const hit of semantic) {
      const chunk = index.bundle.chunks.find((c) => c.id === hit.why!.semantic_chunk);
      expect(chunk && index.bundle.nodes[chunk.node]!.id).toBe(hit.node_id);
    }
    const l1 = context(index, { query_text: 'norma politica', min_score: 0, explain: true }).results;
    expect(l1.length).toBeGreaterThan(0);
    expect(l1.every((hit) => hit.why!.semantic_chunk === undefined)).toBe(true);
  });

  it('a query no spec contains lexically is answered at L2 by meaning alone', async () => {
    const query = 'offline local model';
    expect(context(index, { query_text: query, min_score: 0 }).results).toEqual([]);
    const l2 = context(index, { query_text: query, min_score: 0, query_vector: await embedder.embedQuery(query) });
    expect(l2.results.length).toBeGreaterThan(0);
    expect(l2.results.some((hit) => hit.match_source === 'semantic')).toBe(true);
  });

  it('chunks at L2 score by clamped cosine and name the model', async () => {
    const result = chunks(index, { query_text: 'purchase orders', query_vector: await embedder.embedQuery('purchase orders'), top_k: 20 }, { now: 0 });
    expect(result.metadata.scoring).toBe('cosine');
    expect(result.metadata.embedding_model).toBe('tiny-e5-test@q8');
    expect(result.metadata.warnings).toEqual([]);
    expect(result.results.length).toBeGreaterThan(0);
    for (const chunk of result.results) {
      expect(chunk.similarity_score).toBeGreaterThanOrEqual(0);
      expect(chunk.similarity_score).toBeLessThanOrEqual(1);
      expect(index.bundle.chunks.find((c) => c.id === chunk.chunk_id)!.embeddable).toBe(true);
    }
  });

  it('a query vector of the wrong length is INVALID_PARAMS naming query_vector', () => {
    expect(() => search(index, { query_text: 'pedido', query_vector: new Float32Array(3) })).toThrow(expect.objectContaining({ code: 'INVALID_PARAMS', params: expect.objectContaining({ field: 'query_vector' }) }));
    expect(() => context(index, { query_text: 'pedido', query_vector: 'x' })).toThrow(expect.objectContaining({ code: 'INVALID_PARAMS' }));
  });
});

describe('a failing model', () => {
  it('degrades the build to L1 with EMBEDDING_FAILED and still writes a complete bundle', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kdd-corrupt-'));
    try {
      const folder = await makeTinyModel(dir, { name: 'broken-model', quantizedCopy: true });
      await writeFile(join(folder, 'onnx', 'model_quantized.onnx'), 'this is not an onnx protobuf');
      const report = await build({ specsDir, outDir: join(dir, 'dist'), indexDir: join(dir, 'index'), embedder: folder, level: 'L2' });
      expect(report.index_level).toBe('L1');
      expect(report.warnings.map((w) => w.code)).toContain('EMBEDDING_FAILED');
      const l1 = await loadBundle(join(dir, 'dist'));
      expect(l1.bundle.manifest.index_level).toBe('L1');
      expect(l1.bundle.manifest.embedding_model).toBeNull();
      expect(l1.bundle.vectors).toBeNull();
      expect(l1.vectors).toBeNull();
      expect(l1.bundle.nodes.map((n) => n.id)).toEqual(index.bundle.nodes.map((n) => n.id));
      expect(l1.bundle.edges.length).toBe(index.bundle.edges.length);
      expect(l1.bundle.chunks.map((c) => c.id)).toEqual(index.bundle.chunks.map((c) => c.id));
      expect(context(l1, { query_text: 'pedido' }).results.length).toBeGreaterThan(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
