/**
 * Issue #10 chunk retrieval: every field rule of the contract (docs/chunks.md), over bundles built
 * by the real compiler (fixtures and random generated trees) and random queries, at L1 (lexical,
 * through the pack-time chunk index) and at L2 (cosine, with hand-made vectors).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile, packCompiled } from '../../compiler/pipeline.js';
import type { KddIndex } from '../../runtime/kdd-index.js';
import { loadIndex } from '../../runtime/load.js';
import { chunks, EPOCH, type ChunksResult } from '../../runtime/queries/chunks.js';
import { isChunkIndex } from '../../runtime/search/chunk-index.js';
import { toVectorStore } from '../../runtime/vectors.js';
import { quantize } from '../../formats/bundle/vectors.js';
import { treeArbitrary, writeTree, type Tree } from '../helpers/arbitrary-tree.js';
import { FIXTURES } from '../helpers/temp-tree.js';

const NOW = '2026-01-02T03:04:05.000Z';
const WORDS = ['pedido', 'order', 'usuario', 'regla', 'cliente', 'pago', 'estado', 'envío', 'shipment', 'versión', 'enlaces', 'generated', 'descripción', 'BR-GEN-001', 'UC-002', 'zzzz', 'de la', 'Entity:Pedido'];

async function indexOf(specsDir: string): Promise<KddIndex> {
  return loadIndex(packCompiled(await compile({ specsDir })).bytes);
}

let work: string;
let kinds: KddIndex;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'kdd-chunks-'));
  kinds = await indexOf(join(FIXTURES, 'kinds'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** Every field rule of a response, for the params it answered. */
function checkContract(index: KddIndex, result: ChunksResult, params: { query_text: string; top_k?: number; threshold?: number; include_metadata?: boolean }): void {
  const topK = params.top_k ?? 5;
  const threshold = params.threshold ?? 0;
  expect(result.query).toBe(params.query_text);
  expect(result.results.length).toBeLessThanOrEqual(topK);
  expect(result.metadata.total_results).toBe(result.results.length);
  expect(result.metadata.query_time_ms).toBeGreaterThanOrEqual(0);
  expect(result.metadata.timestamp).toBe(NOW);
  expect(['cosine', 'lexical']).toContain(result.metadata.scoring);
  const byId = new Map(index.bundle.chunks.map((chunk) => [chunk.id, chunk]));
  result.results.forEach((chunk, i) => {
    expect(chunk.similarity_score).toBeGreaterThanOrEqual(threshold);
    expect(chunk.similarity_score).toBeGreaterThanOrEqual(0);
    expect(chunk.similarity_score).toBeLessThanOrEqual(1);
    expect(chunk.content.length).toBeGreaterThan(0);
    expect(chunk.content.length).toBeLessThan(2000);
    expect(Number.isInteger(chunk.position) && chunk.position >= 0).toBe(true);
    expect(() => new URL(chunk.url)).not.toThrow();
    if (i > 0) {
      const previous = result.results[i - 1]!;
      expect(previous.similarity_score).toBeGreaterThanOrEqual(chunk.similarity_score);
      if (previous.similarity_score === chunk.similarity_score && chunk.chunk_id) expect(previous.chunk_id! < chunk.chunk_id).toBe(true);
    }
    if (params.include_metadata === false) {
      expect(Object.keys(chunk).sort()).toEqual(['content', 'position', 'similarity_score', 'url']);
      return;
    }
    const stored = byId.get(chunk.chunk_id!)!;
    expect(stored).toBeDefined();
    const node = index.bundle.nodes[stored.node]!;
    expect(chunk.content).toBe(node.sections[stored.section]!.text.slice(stored.start, stored.end));
    expect(chunk.position).toBe(stored.position);
    expect(chunk.node_id).toBe(node.id);
    expect(new Date(chunk.created_at!).toISOString()).toBe(chunk.created_at);
    expect(chunk.url.startsWith(`file:${node.source_file.split('/').map(encodeURIComponent).join('/')}`)).toBe(true);
  });
}

const paramsArbitrary = (words: readonly string[]) =>
  fc.record(
    {
      query_text: fc.oneof(
        fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 4 }).map((list) => list.join(' ')),
        fc.string({ minLength: 1, maxLength: 40 }).filter((text) => text.trim() !== ''),
      ),
      top_k: fc.integer({ min: 1, max: 20 }),
      threshold: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 1, noNaN: true })),
      include_metadata: fc.boolean(),
    },
    { requiredKeys: ['query_text'] },
  );

describe('chunks at L1 (lexical)', () => {
  it('the bundle carries the pack-time chunk index', () => {
    expect(isChunkIndex(kinds.bundle.chunk_search)).toBe(true);
  });

  it('every field rule holds for random queries and params (fixtures/kinds)', () => {
    fc.assert(
      fc.property(paramsArbitrary(WORDS), (params) => {
        const result = chunks(kinds, params, { now: NOW });
        checkContract(kinds, result, params);
        expect(result.metadata.scoring).toBe('lexical');
        expect(result.metadata.warnings.map((w) => w.code)).toEqual(['NO_EMBEDDINGS']);
      }),
      { numRuns: 300 },
    );
  });

  it('finds the chunk that contains the query words, and defaults to top_k 5 with metadata', () => {
    const result = chunks(kinds, { query_text: 'pasarela de pago' }, { now: NOW });
    expect(result.results.length).toBeGreaterThan(0);
    expect(result.results.length).toBeLessThanOrEqual(5);
    expect(result.results[0]!.content).toMatch(/pasarela de pago/);
    expect(result.results[0]!.url).toBe('file:01-domain/entities/Pedido.md#descripcion');
    expect(result.results[0]!.chunk_id).toBe('Entity:Pedido#descripcion:0');
    expect(result.results.every((chunk) => chunk.similarity_score > 0)).toBe(true);
  });

  it('top_k and threshold cut the same ranking', () => {
    const all = chunks(kinds, { query_text: 'pedido usuario', top_k: 20 }, { now: NOW }).results;
    expect(chunks(kinds, { query_text: 'pedido usuario', top_k: 3 }, { now: NOW }).results).toEqual(all.slice(0, 3));
    const cut = all[Math.floor(all.length / 2)]!.similarity_score;
    expect(chunks(kinds, { query_text: 'pedido usuario', top_k: 20, threshold: cut }, { now: NOW }).results).toEqual(all.filter((chunk) => chunk.similarity_score >= cut));
    expect(chunks(kinds, { query_text: 'pedido usuario', threshold: 1 }, { now: NOW }).results).toEqual([]);
  });

  it('is pure: same index, params and now ⇒ same answer (query_time_ms from the timer)', () => {
    const env = { now: NOW, timer: () => 42 };
    const a = chunks(kinds, { query_text: 'regla de negocio', top_k: 10 }, env);
    expect(chunks(kinds, { query_text: 'regla de negocio', top_k: 10 }, env)).toEqual(a);
    expect(a.metadata.query_time_ms).toBe(0);
  });

  it('builds repository and docs-site URLs from a base URL', () => {
    const repo = chunks(kinds, { query_text: 'pasarela de pago', top_k: 1 }, { now: NOW, baseUrl: 'https://github.com/acme/shop/blob/main/specs' }).results[0]!;
    expect(repo.url).toBe('https://github.com/acme/shop/blob/main/specs/01-domain/entities/Pedido.md#descripcion');
    const site = chunks(kinds, { query_text: 'pasarela de pago', top_k: 1 }, { now: NOW, baseUrl: 'https://docs.acme.dev/#/node/' }).results[0]!;
    expect(site.url).toBe('https://docs.acme.dev/#/node/Entity%3APedido');
    for (const chunk of [repo, site]) expect(() => new URL(chunk.url)).not.toThrow();
  });

  it('falls back to the manifest time, then the Unix epoch, for created_at outside git', async () => {
    const dir = join(work, 'outside-git');
    await writeTree(dir, { '01-domain/entities/Ent1.md': '---\nid: Ent1\nkind: entity\n---\n\n# Ent1\n\n## Descripción\n\nUn pedido sin historia en git.\n' });
    const index = await indexOf(dir);
    expect(index.bundle.nodes[0]!.indexed_at).toBeNull();
    const [chunk] = chunks(index, { query_text: 'pedido' }, { now: NOW }).results;
    expect(chunk!.created_at).toBe(EPOCH);
  });

  it('bundles packed without chunk_search (before issue #10) fall back to scanning candidate nodes', () => {
    const bundle = Object.create(kinds.bundle, { chunk_search: { value: undefined, enumerable: true } });
    const old: KddIndex = { ...kinds, bundle };
    fc.assert(
      fc.property(paramsArbitrary(WORDS), (params) => checkContract(old, chunks(old, params, { now: NOW }), params)),
      { numRuns: 100 },
    );
    expect(chunks(old, { query_text: 'pasarela de pago', top_k: 1 }, { now: NOW }).results[0]!.chunk_id).toBe('Entity:Pedido#descripcion:0');
  });

  it('holds on random generated trees, and chunk ids are stable across rebuilds', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(treeArbitrary({ minDocs: 1, maxDocs: 6 }), fc.array(paramsArbitrary(WORDS), { minLength: 1, maxLength: 5 }), async (tree: Tree, queries) => {
        const a = join(work, `tree-${run}-a`);
        const b = join(work, `tree-${run++}-b`);
        await writeTree(a, tree);
        await writeTree(b, tree);
        const first = await indexOf(a);
        const second = await indexOf(b);
        expect(second.bundle.chunks.map((chunk) => chunk.id)).toEqual(first.bundle.chunks.map((chunk) => chunk.id));
        for (const params of queries) {
          const one = chunks(first, params, { now: NOW, timer: () => 0 });
          checkContract(first, one, params);
          expect(chunks(second, params, { now: NOW, timer: () => 0 })).toEqual(one);
        }
      }),
      { numRuns: 12 },
    );
  });
});

describe('chunks at L2 (cosine, hand-made vectors)', () => {
  function withVectors(index: KddIndex, seed: number): { index: KddIndex; vectorOf: (row: number) => Float32Array } {
    const rows = index.bundle.chunks.flatMap((chunk, i) => (chunk.embeddable ? [i] : []));
    let state = seed >>> 0;
    const random = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
    const vectors = rows.map(() => Float32Array.from({ length: 8 }, random));
    const quantized = quantize(vectors, 8);
    const bundle = Object.create(index.bundle, { vectors: { value: { model: 'test@fp32', dimensions: 8, rows, quantized }, enumerable: true } });
    return { index: { ...index, bundle, vectors: toVectorStore(quantized) }, vectorOf: (row) => vectors[row]! };
  }

  it('scores by clamped cosine, best first, and every field rule holds', () => {
    const { index, vectorOf } = withVectors(kinds, 7);
    fc.assert(
      fc.property(paramsArbitrary(WORDS), fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 8, maxLength: 8 }), (params, raw) => {
        const result = chunks(index, { ...params, query_vector: Float32Array.from(raw) }, { now: NOW });
        checkContract(index, result, params);
        expect(result.metadata.scoring).toBe('cosine');
        expect(result.metadata.embedding_model).toBe('test@fp32');
      }),
      { numRuns: 200 },
    );
    // A chunk's own vector finds it first with similarity ≈ 1.
    const row = 3;
    const own = index.bundle.chunks[index.bundle.vectors!.rows[row]!]!;
    const [best] = chunks(index, { query_text: 'x', query_vector: vectorOf(row), top_k: 1 }, { now: NOW }).results;
    expect(best!.chunk_id).toBe(own.id);
    expect(best!.similarity_score).toBeGreaterThan(0.98);
  });
});

describe('validation errors name the field', () => {
  const bad: [string, Record<string, unknown>][] = [
    ['query_text', {}],
    ['query_text', { query_text: '' }],
    ['query_text', { query_text: '   ' }],
    ['query_text', { query_text: 42 }],
    ['query_text', { query_text: 'x'.repeat(2000) }],
    ['top_k', { query_text: 'pedido', top_k: 0 }],
    ['top_k', { query_text: 'pedido', top_k: 21 }],
    ['top_k', { query_text: 'pedido', top_k: 2.5 }],
    ['top_k', { query_text: 'pedido', top_k: 'many' }],
    ['threshold', { query_text: 'pedido', threshold: -0.1 }],
    ['threshold', { query_text: 'pedido', threshold: 1.01 }],
    ['threshold', { query_text: 'pedido', threshold: 'high' }],
    ['include_metadata', { query_text: 'pedido', include_metadata: 'yes' }],
    ['query_vector', { query_text: 'pedido', query_vector: 'not a vector' }],
  ];
  it.each(bad)('%s: %j', (field, params) => {
    expect(() => chunks(kinds, params, { now: NOW })).toThrow(expect.objectContaining({ code: 'INVALID_PARAMS', exitCode: 2, status: 400, params: expect.objectContaining({ field }) }));
  });

  it('accepts the limits: 1999 characters, top_k 1 and 20, threshold 0 and 1', () => {
    expect(() => chunks(kinds, { query_text: 'p'.repeat(1999), top_k: 1, threshold: 1 }, { now: NOW })).not.toThrow();
    expect(() => chunks(kinds, { query_text: 'pedido', top_k: 20, threshold: 0, include_metadata: false }, { now: NOW })).not.toThrow();
  });

  it('rejects a bad clock or base URL, and a missing index', () => {
    expect(() => chunks(kinds, { query_text: 'pedido' }, { now: 'yesterday' })).toThrow(expect.objectContaining({ code: 'INVALID_PARAMS', params: expect.objectContaining({ field: 'now' }) }));
    expect(() => chunks(kinds, { query_text: 'pedido' }, { now: NOW, baseUrl: 'not a url' })).toThrow(expect.objectContaining({ code: 'INVALID_PARAMS', params: expect.objectContaining({ field: 'base_url' }) }));
    expect(() => chunks(null as never, { query_text: 'pedido' }, { now: NOW })).toThrow(expect.objectContaining({ code: 'INDEX_UNAVAILABLE' }));
  });
});
