/**
 * The library facade over an L2 bundle of test/fixtures/kinds built with the tiny offline model:
 * auto-loading the bundle's model from a model store, the lexical fallback with the `kdd model
 * pull` hint, an explicit embedder, `embedder: false`, and the non-text queries. Also the CLI's
 * `kdd chunks` / `kdd search` through it. `fetch` throws: nothing may touch the network.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../cli/main.js';
import { build } from '../../compiler/pipeline.js';
import { loadTransformersEmbedder } from '../../compiler/embed/transformers.js';
import { loadBundle, openKnowledgeBase, type KnowledgeBase } from '../../index.js';
import { FIXTURES } from '../helpers/temp-tree.js';
import { makeTinyModel } from '../helpers/tiny-model/make-tiny-model.js';

let root: string;
let store: string;
let dist: string;
let l1Dist: string;
const opened: KnowledgeBase[] = [];
const open = async (...args: Parameters<typeof openKnowledgeBase>) => {
  const kb = await openKnowledgeBase(...args);
  opened.push(kb);
  return kb;
};

beforeAll(async () => {
  vi.stubGlobal('fetch', async (input: unknown) => {
    throw new Error(`network access attempted in a test: ${String(input)}`);
  });
  root = await mkdtemp(join(tmpdir(), 'kdd-kb-'));
  // The model store holds the model under the name the manifest records (`tiny-e5-test@q8`).
  store = join(root, 'models');
  const folder = await makeTinyModel(store, { quantizedCopy: true });
  const specsDir = join(FIXTURES, 'kinds');
  dist = join(root, 'dist');
  await build({ specsDir, outDir: dist, indexDir: join(root, 'index'), embedder: folder, level: 'L2' });
  l1Dist = join(root, 'dist-l1');
  await build({ specsDir, outDir: l1Dist, indexDir: join(root, 'index-l1'), level: 'L1' });
});

afterAll(async () => {
  await Promise.all(opened.map((kb) => kb.close()));
  vi.unstubAllGlobals();
  await rm(root, { recursive: true, force: true });
});

describe('openKnowledgeBase', () => {
  it("auto-loads the bundle's model from the model store and answers semantically", async () => {
    const kb = await open(dist, { modelsDir: store });
    expect((await kb.stats()).semantic).toBeNull();
    const r = await kb.context({ query_text: 'cancelar pedido' });
    expect(r.retrieval_strategy).toBe('semantic+lexical+graph');
    expect(r.warnings.map((w) => w.code)).not.toContain('NO_EMBEDDINGS');
    expect(r.results[0]!.node_id).toBe('Entity:Pedido');
    const s = await kb.search({ query_text: 'norma politica', min_score: 0 });
    expect(s.retrieval_strategy).toBe('semantic');
    expect(s.embedding_model).toBe('tiny-e5-test@q8');
    const c = await kb.chunks({ query_text: 'purchase orders', top_k: 3 }, { now: 0, baseUrl: 'https://github.com/acme/shop/blob/main/specs/' });
    expect(c.metadata.scoring).toBe('cosine');
    expect(c.results).toHaveLength(3);
    expect(c.results.every((chunk) => chunk.url.startsWith('https://github.com/acme/shop/blob/main/specs/'))).toBe(true);
    const stats = await kb.stats();
    expect(stats).toMatchObject({ index_level: 'L2', embedding_model: 'tiny-e5-test@q8', semantic: true });
    expect(stats.counts.embeddings).toBeGreaterThan(0);
  });

  it('falls back to lexical with NO_EMBEDDINGS and the `kdd model pull` hint when the model is not cached', async () => {
    const empty = join(root, 'no-models');
    await mkdir(empty, { recursive: true });
    const kb = await open(dist, { modelsDir: empty });
    const r = await kb.context({ query_text: 'cancelar pedido' });
    expect(r.retrieval_strategy).toBe('lexical+graph');
    const w = r.warnings.find((x) => x.code === 'NO_EMBEDDINGS')!;
    expect(w.message).toContain('kdd model pull tiny-e5-test');
    expect(r.results.length).toBeGreaterThan(0);
    const c = await kb.chunks({ query_text: 'cancelar pedido' });
    expect(c.metadata.scoring).toBe('lexical');
    expect(c.metadata.warnings[0]!.message).toContain('kdd model pull');
    expect((await kb.stats()).semantic).toBe(false);
  });

  it('takes an embedder object, refuses one of another model, and embedder:false stays lexical', async () => {
    const embedder = await loadTransformersEmbedder({ model: join(store, 'tiny-e5-test'), dtype: 'q8' });
    try {
      expect((await loadBundle(dist)).vectors).not.toBeNull();
      const kb = await open(dist, { embedder });
      expect((await kb.search({ query_text: 'purchase orders', min_score: 0 })).retrieval_strategy).toBe('semantic');
      const other = await open(dist, { embedder: { ...embedder, id: 'other@q8' } });
      const r = await other.search({ query_text: 'purchase orders', min_score: 0 });
      expect(r.retrieval_strategy).toBe('lexical');
      expect(r.warnings[0]!.message).toContain('other@q8');
      const off = await open(dist, { embedder: false });
      expect((await off.context({ query_text: 'purchase orders' })).retrieval_strategy).toBe('lexical+graph');
    } finally {
      await embedder.dispose?.();
    }
  });

  it('answers every query on an L1 bundle without loading any model', async () => {
    const kb = await open(l1Dist, { modelsDir: join(root, 'nowhere') });
    expect((await kb.stats()).semantic).toBe(false);
    expect((await kb.context({ query_text: 'pedido' })).warnings.map((w) => w.code)).toContain('NO_EMBEDDINGS');
    expect((await kb.graph({ root_node: 'Entity:Pedido' })).center_node.id).toBe('Entity:Pedido');
    expect((await kb.impact({ node_id: 'Entity:Pedido' })).analyzed_node.id).toBe('Entity:Pedido');
    expect((await kb.coverage({ node_id: 'Entity:Pedido' })).analyzed_node.id).toBe('Entity:Pedido');
    expect(Array.isArray((await kb.violations()).violations)).toBe(true);
    expect((await kb.health()).total_nodes).toBe(kb.index.bundle.nodes.length);
    expect(await kb.hints({ hints: ['Pedido'] })).toBeDefined();
    expect((await kb.chunks({ query_text: 'pasarela de pago', top_k: 1 })).results[0]!.url).toBe('file:01-domain/entities/Pedido.md#descripcion');
    await expect(kb.chunks({ query_text: '' })).rejects.toMatchObject({ code: 'INVALID_PARAMS' });
  });
});

describe('CLI through the facade', () => {
  const cli = async (argv: string[]) => {
    let stdout = '';
    let stderr = '';
    const code = await runCli(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), isTTY: false, cwd: root });
    return { code, stdout, stderr };
  };

  it('kdd chunks prints the contract as JSON and a table otherwise', async () => {
    const json = await cli(['chunks', 'pasarela', 'de', 'pago', '--bundle', l1Dist, '--top-k', '2', '--no-metadata', '--json']);
    expect(json.code).toBe(0);
    const body = JSON.parse(json.stdout);
    expect(body.query).toBe('pasarela de pago');
    expect(body.results.length).toBeLessThanOrEqual(2);
    expect(Object.keys(body.results[0]).sort()).toEqual(['content', 'position', 'similarity_score', 'url']);
    const text = await cli(['chunks', 'pasarela de pago', '--bundle', l1Dist, '--base-url', 'https://docs.acme.dev/#/node/']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('https://docs.acme.dev/#/node/Entity%3APedido');
    const bad = await cli(['chunks', 'pedido', '--bundle', l1Dist, '--top-k', '50', '--json']);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stdout).error.code).toBe('INVALID_PARAMS');
  });

  it('kdd search and kdd context use L2 when the model is cached', async () => {
    vi.stubEnv('KDD_MODELS_DIR', store);
    try {
      const search = await cli(['search', 'norma', 'politica', '--bundle', dist, '--min-score', '0', '--json']);
      expect(search.code).toBe(0);
      expect(JSON.parse(search.stdout).retrieval_strategy).toBe('semantic');
      const context = await cli(['context', 'cancelar pedido', '--bundle', dist, '--json']);
      expect(JSON.parse(context.stdout).retrieval_strategy).toBe('semantic+lexical+graph');
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
