/**
 * The site's sharded search (#7) must rank exactly like the runtime over the full bundle: same
 * nodes, same order, same scores, for Spanish, English, id and alias queries, with filters.
 */
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Packr } from 'msgpackr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../compiler/build.js';
import { packSiteBundle, writeSiteBundle } from '../../compiler/emit/site-bundle.js';
import { decodeBundle } from '../../formats/bundle/bundle.js';
import type { KddIndex } from '../../runtime/kdd-index.js';
import { loadIndex } from '../../runtime/load.js';
import { SITE_POINTER_FILE, type SearchMeta, type SitePointer } from '../../site/src/format.js';
import { rank } from '../../site/src/search/rank.js';
import { ShardedSearch } from '../../site/src/search/sharded.js';

const QUERIES = ['crear pedido', 'create order', 'CMD-001', 'Entity:Pedido', 'pedido', 'regla de negocio del pedido', 'ship order event', 'carrito vacío', 'BR-PEDIDO-001', 'latencia', 'zzz nothing here'];

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

  it('names the full bundle it was derived from and writes every file it lists', async () => {
    const pointer = JSON.parse(await readFile(join(dir, 'dist', SITE_POINTER_FILE), 'utf8')) as SitePointer;
    expect(pointer.source).toBe(bundleFile);
    const names = await readdir(join(dir, 'dist'));
    expect(names.filter((n) => n.startsWith('kdd-s-'))).toHaveLength(pointer.files);
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
