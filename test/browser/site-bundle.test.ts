/**
 * The site's sharded search (#7) must rank exactly like the runtime over the full bundle: same
 * nodes, same order, same scores, for Spanish, English, id and alias queries, with filters.
 */
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Packr } from 'msgpackr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../compiler/pipeline.js';
import { packSiteBundle, writeSiteBundle } from '../../compiler/pack/site-bundle.js';
import { decodeBundle } from '../../formats/bundle/bundle.js';
import type { KddIndex } from '../../runtime/kdd-index.js';
import { loadIndex } from '../../runtime/load.js';
import { decodeDefinitions, decodeVarints, SITE_FILE, SITE_POINTER_FILE, type SearchMeta, type SitePointer } from '../../formats/site-bundle.js';
import { bytesToU16 } from '../../formats/bytes.js';
import { rank } from '../../site/src/search/rank.js';
import { ShardedSearch } from '../../site/src/search/sharded.js';
import fc from 'fast-check';
import { impact } from '../../runtime/queries/impact.js';
import { runQuery } from '../../runtime/queries/registry.js';
import { layerMap } from '../../runtime/views/layer-map.js';
import type { GraphMeta } from '../../formats/site-bundle.js';
import { BundleGraph, ChunkedGraph } from '../../site/src/graph/store.js';
import { filterNeighbourhood, neighbourhood } from '../../site/src/graph/walk.js';
import { sortedVocabulary } from '../../site/src/search/prefix.js';
import type { SerializedTextIndex } from '../../runtime/search/bm25f.js';
import { glossaryRows } from '../../runtime/search/definitions.js';

const QUERIES = ['crear pedido', 'create order', 'CMD-001', 'Entity:Pedido', 'pedido', 'regla de negocio del pedido', 'ship order event', 'carrito vacío', 'BR-PEDIDO-001', 'latencia', 'zzz nothing here', 'orden del cliente', 'user'];

let dir: string;
let full: KddIndex;
let bundleFile: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kdd-site-bundle-'));
  const report = await build({ specsDir: 'test/fixtures/kinds', outDir: join(dir, 'dist'), indexDir: join(dir, 'idx') });
  bundleFile = report.bundle.bundle;
  const bytes = new Uint8Array(await readFile(join(dir, 'dist', bundleFile)));
  full = await loadIndex(bytes);
  await writeSiteBundle(join(dir, 'dist'), packSiteBundle(decodeBundle(bytes), bundleFile));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function sharded(): Promise<ShardedSearch> {
  const packr = new Packr({ useRecords: false, variableMapSize: true });
  const read = async <T>(name: string) => packr.unpack(await readFile(join(dir, 'dist', name))) as T;
  const pointer = JSON.parse(await readFile(join(dir, 'dist', SITE_POINTER_FILE), 'utf8')) as SitePointer;
  return new ShardedSearch(await read<SearchMeta>(pointer.meta), read);
}

describe('packSiteBundle', () => {
  it('is deterministic: the same bundle gives the same files', () => {
    return readFile(join(dir, 'dist', bundleFile)).then((bytes) => {
      const a = packSiteBundle(decodeBundle(new Uint8Array(bytes)), bundleFile);
      const b = packSiteBundle(decodeBundle(new Uint8Array(bytes)), bundleFile);
      expect(a.pointer).toEqual(b.pointer);
      expect(a.files.map((f) => f.name)).toEqual(b.files.map((f) => f.name));
    });
  });

  it("carries the full index's field names and every node's field lengths", async () => {
    const packr = new Packr({ useRecords: false, variableMapSize: true });
    const pointer = JSON.parse(await readFile(join(dir, 'dist', SITE_POINTER_FILE), 'utf8')) as SitePointer;
    const meta = packr.unpack(await readFile(join(dir, 'dist', pointer.meta))) as SearchMeta;
    const search = decodeBundle(new Uint8Array(await readFile(join(dir, 'dist', bundleFile)))).search as SerializedTextIndex;
    expect(meta.fields).toEqual(search.fields);
    expect(Array.from(decodeVarints(meta.lens))).toEqual(Array.from(bytesToU16(search.lens)));
  });

  it('carries the glossary rows definition scoring reads (the nodes it holds carry no fields)', async () => {
    const packr = new Packr({ useRecords: false, variableMapSize: true });
    const pointer = JSON.parse(await readFile(join(dir, 'dist', SITE_POINTER_FILE), 'utf8')) as SitePointer;
    const meta = packr.unpack(await readFile(join(dir, 'dist', pointer.meta))) as SearchMeta;
    const rows = glossaryRows(full.bundle.nodes);
    expect(rows.map((row) => row.name)).toEqual(['Carrito']);
    expect(decodeDefinitions(meta.definitions)).toEqual(rows);
  });

  it('names the full bundle it was derived from and writes every file it lists', async () => {
    const pointer = JSON.parse(await readFile(join(dir, 'dist', SITE_POINTER_FILE), 'utf8')) as SitePointer;
    expect(pointer.source).toBe(bundleFile);
    const names = await readdir(join(dir, 'dist'));
    expect(names.filter((n) => SITE_FILE.test(n))).toHaveLength(pointer.files);
  });
});

describe('ShardedSearch', () => {
  it.each(QUERIES)('ranks %j exactly like the full bundle', async (q) => {
    const search = await sharded();
    const { result } = await search.run((index) => rank(index, { q }));
    const expected = rank(full, { q });
    expect(result.hits).toEqual(expected.hits);
    expect(result.groups).toEqual(expected.groups);
  });

  it('applies kind and layer filters like the full bundle', async () => {
    const search = await sharded();
    for (const request of [{ q: 'pedido', kinds: ['command'] }, { q: 'pedido', layers: ['01-domain'] }]) {
      const { result } = await search.run((index) => rank(index, request));
      expect(result.hits).toEqual(rank(full, request).hits);
      expect(result.hits.length).toBeGreaterThan(0);
    }
  });

  it('fetches shards once and answers a repeated query from memory', async () => {
    const search = await sharded();
    const first = await search.run((index) => rank(index, { q: 'crear pedido' }));
    const again = await search.run((index) => rank(index, { q: 'crear pedido' }));
    expect(first.fetched).toBeGreaterThan(0);
    expect(again.fetched).toBe(0);
  });

  it('returns the result row of a node from its doc chunk', async () => {
    const search = await sharded();
    const position = full.nodeIndex.get('UC:UC-001')!;
    const doc = await search.summary(position);
    expect(doc).toMatchObject({ id: 'UC:UC-001', title: 'CrearPedido', kind: 'use-case', layer: '02-behavior' });
    expect(doc.text).toContain('carrito');
  });
});

describe('search as you type', () => {
  const vocabulary = () => {
    const terms = (full.bundle.search as SerializedTextIndex).terms;
    return sortedVocabulary(terms.split('\n'));
  };

  it.each([
    ['crear ped', 'crear pedido'],
    ['crear pedi', 'crear pedido'],
    ['crear pedid', 'crear pedido'],
    ['carrito vac', 'carrito vacío'],
  ])('finds among its first three for the partial query %j what %j finds first', async (q, whole) => {
    const expected = rank(full, { q }, vocabulary());
    expect(expected.hits.slice(0, 3).map((hit) => hit.node)).toContain(rank(full, { q: whole }).hits[0]!.node);
    const search = await sharded();
    const { result } = await search.run((index) => rank(index, { q }, search.vocabulary));
    expect(result.hits).toEqual(expected.hits);
  });

  // Among the first three, not first: the bilingual vocabulary lets "order" titles compete with a
  // completed "pedido" (0.8 × its own weight), as they do for a whole-word "pedido".
  it('puts the use case among the first three for "crear ped"', () => {
    expect(rank(full, { q: 'crear ped' }, vocabulary()).hits.slice(0, 3).map((hit) => full.bundle.nodes[hit.node]!.id)).toContain('UC:UC-001');
  });

  it('did not find it from the partial word alone before (the completion is what matches)', () => {
    expect(rank(full, { q: 'pedi' }).hits).toEqual([]);
    expect(rank(full, { q: 'pedi' }, vocabulary()).hits.length).toBeGreaterThan(0);
  });

  it.each(QUERIES)('ranks the whole-word query %j as before', (q) => {
    expect(rank(full, { q }, vocabulary())).toEqual(rank(full, { q }));
  });
});

describe('graph pieces', () => {
  const chunked = async () => {
    const packr = new Packr({ useRecords: false, variableMapSize: true });
    const read = async <T>(name: string) => packr.unpack(await readFile(join(dir, 'dist', name))) as T;
    const pointer = JSON.parse(await readFile(join(dir, 'dist', SITE_POINTER_FILE), 'utf8')) as SitePointer;
    return new ChunkedGraph(await read<GraphMeta>(pointer.graph), read);
  };

  it('give every node the page data the full bundle gives', async () => {
    const pieces = await chunked();
    const whole = new BundleGraph(full);
    for (const node of full.bundle.nodes) {
      const slot = (await pieces.slotOf(node.id))!;
      expect(await pieces.nodeView(slot)).toEqual(await whole.nodeView(full.nodeIndex.get(node.id)!));
      expect(await pieces.impact(slot)).toEqual(impact(full, { node_id: node.id }));
    }
    expect(await pieces.slotOf('UC:NOPE')).toBeNull();
  });

  it('hold the layer map, violations and health answers the full bundle gives, and none for an older meta', async () => {
    const pieces = await chunked();
    expect(await pieces.report('layers')).toEqual(layerMap(full));
    expect(await pieces.report('violations')).toEqual(runQuery('violations', full, {}));
    expect(await pieces.report('health')).toEqual(runQuery('health', full, {}));
    expect((await pieces.report<{ total_violations: number }>('violations'))!.total_violations).toBeGreaterThan(0);
    const older = new ChunkedGraph({ ...pieces.meta, reports: undefined }, () => Promise.reject(new Error('no fetch expected')));
    expect(older.report('layers')).toBeNull();
  });

  it('give every node the same neighbourhood at depths 1 to 3', async () => {
    const pieces = await chunked();
    const whole = new BundleGraph(full);
    for (const node of full.bundle.nodes) {
      for (const depth of [1, 2, 3]) expect(await neighbourhood(pieces, node.id, depth)).toEqual(await neighbourhood(whole, node.id, depth));
    }
  });

  it('walk edges either way, cap the node count and say so', async () => {
    const whole = new BundleGraph(full);
    const around = await neighbourhood(whole, 'Entity:Pedido', 1);
    const ids = new Set(around.nodes.map((n) => n.id));
    for (const e of full.bundle.edges) {
      if (e.from_node === 'Entity:Pedido') expect(ids).toContain(e.to_node);
      if (e.to_node === 'Entity:Pedido') expect(ids).toContain(e.from_node);
    }
    const capped = await neighbourhood(whole, 'Entity:Pedido', 3, 4);
    expect(capped.nodes).toHaveLength(4);
    expect(capped.truncated).toBe(true);
  });

  it('filters keep the centre, only the chosen edge types and layers, within the depth (any choice)', async () => {
    const whole = new BundleGraph(full);
    const graph = await neighbourhood(whole, 'Entity:Pedido', 3);
    const types = [...new Set(graph.edges.map((e) => e.type))];
    const layers = [...new Set(graph.nodes.map((n) => n.layer))];
    expect(filterNeighbourhood(graph, 3, new Set(types), new Set(layers))).toEqual(graph);
    fc.assert(
      fc.property(fc.subarray(types), fc.subarray(layers), fc.integer({ min: 1, max: 3 }), (t, l, depth) => {
        const view = filterNeighbourhood(graph, depth, new Set(t), new Set(l));
        expect(view.nodes[0]!.id).toBe('Entity:Pedido');
        const layerOf = new Map(graph.nodes.map((n) => [n.id, n.layer]));
        for (const e of view.edges) {
          expect(t).toContain(e.type);
          expect(l).toContain(layerOf.get(e.from));
          expect(l).toContain(layerOf.get(e.to));
        }
        for (const n of view.nodes) expect(n.distance).toBeLessThanOrEqual(depth);
      }),
      { seed: 18, numRuns: 60 },
    );
  });
});
