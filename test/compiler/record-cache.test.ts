import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { Packr } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { build } from '../../compiler/pipeline.js';
import { canonical } from '../../formats/canonical.js';
import { nodeFileText } from '../../formats/index-dir/node-file.js';
import { readIndexDir } from '../../compiler/emit/read-index-dir.js';
import { entriesPath, readRecordCache, restoreGraph, writeRecordCache } from '../../compiler/cache/record-cache.js';
import { readStampColumns, stampColumns } from '../../compiler/cache/stamp-columns.js';
import { linkRecords } from '../../compiler/graph/link.js';
import { buildIndex } from '../../compiler/pipeline.js';
import { tempTree, removedAfter } from '../helpers/temp-tree.js';

const roots = removedAfter('all');

const ENTITY = (text: string) => `---\nid: Pedido\nkind: entity\n---\n# Pedido\n\n## Descripción\n\nUn pedido ${text}.\n`;
const RULE = '---\nid: BR-PEDIDO-001\nkind: business-rule\n---\n# BR-PEDIDO-001 — Total\n\n## Declaración\n\nUn [[Pedido]] tiene total positivo.\n';
const UC = '---\nid: UC-001\nkind: use-case\n---\n# UC-001 — Crear\n\n## Descripción\n\nCrea un [[Pedido]].\n\n## Reglas Aplicadas\n\n- [[BR-PEDIDO-001]]\n';
const TREE = { 'specs/01-domain/entities/Pedido.md': ENTITY('simple'), 'specs/01-domain/rules/BR-PEDIDO-001.md': RULE, 'specs/02-behavior/use-cases/UC-001-Crear.md': UC };

async function setup() {
  const root = await tempTree(TREE);
  roots.push(root);
  const dirs = { specsDir: join(root, 'specs'), outDir: join(root, 'dist'), indexDir: join(root, '.kdd-index'), recordCache: join(root, 'cache', 'records') };
  return { root, dirs };
}

async function headerOf(file: string): Promise<Record<string, unknown>> {
  const bytes = await readFile(file);
  return new Packr({ useRecords: false, variableMapSize: true }).unpack(bytes.subarray(4, 4 + bytes.readUInt32LE(0))) as Record<string, unknown>;
}

async function bundleOf(outDir: string): Promise<Buffer> {
  const pointer = JSON.parse(await readFile(join(outDir, 'kdd.json'), 'utf8')) as { bundle: string };
  return readFile(join(outDir, pointer.bundle));
}

describe('record cache', () => {
  it('incremental builds that trust file stamps still equal a full rebuild byte for byte', async () => {
    const { root, dirs } = await setup();
    await buildIndex(dirs);
    // Stamps are trusted only for files untouched for 2 s (racily clean otherwise).
    await sleep(2_100);
    const second = await buildIndex(dirs);
    expect(second).toMatchObject({ mode: 'incremental', bundle_reused: true });
    const cache = await readRecordCache(dirs.recordCache, await readFile(join(dirs.indexDir, 'manifest.json'), 'utf8'));
    expect([...cache!.stamps.keys()].sort()).toEqual(['01-domain/entities/Pedido.md', '01-domain/rules/BR-PEDIDO-001.md', '02-behavior/use-cases/UC-001-Crear.md']);

    await writeFile(join(dirs.specsDir, '01-domain/entities/Pedido.md'), ENTITY('con [[BR-PEDIDO-001]]'));
    const third = await buildIndex(dirs);
    expect(third.changes).toMatchObject({ modified: ['01-domain/entities/Pedido.md'], reindexed: ['01-domain/entities/Pedido.md'] });
    const reference = await build({ specsDir: dirs.specsDir, outDir: join(root, 'dist-full'), indexDir: join(root, 'index-full') });
    expect(third.bundle.hash).toBe(reference.bundle.hash);
    expect((await bundleOf(dirs.outDir)).equals(await bundleOf(join(root, 'dist-full')))).toBe(true);
  }, 20_000);

  it('hands back the node files\' records, text decoded on access, and the graph they link to', async () => {
    const { dirs } = await setup();
    await buildIndex(dirs);
    const cache = await readRecordCache(dirs.recordCache, await readFile(join(dirs.indexDir, 'manifest.json'), 'utf8'));
    const files = await readIndexDir(dirs.indexDir);
    expect(cache!.records.map(nodeFileText)).toEqual(files.records.map(nodeFileText));
    expect(canonical(restoreGraph(cache!.records, cache!.graph!))).toEqual(canonical(linkRecords(files.records)));
  });

  it('a corrupt or stale cache is ignored and the index folder is read instead', async () => {
    const { root, dirs } = await setup();
    await buildIndex(dirs);
    await writeFile(dirs.recordCache, '{"format":"kdd-record-cache/1","manifest":"0","lengths":[],"stamps":{}}\n');
    await writeFile(join(dirs.specsDir, '02-behavior/use-cases/UC-001-Crear.md'), `${UC}\nOtra línea.\n`);
    const stale = await buildIndex(dirs);
    expect(stale.changes.reindexed).toEqual(['02-behavior/use-cases/UC-001-Crear.md']);
    await writeFile(dirs.recordCache, 'not a cache');
    const corrupt = await buildIndex(dirs);
    expect(corrupt).toMatchObject({ mode: 'incremental', bundle_reused: true });
    const reference = await build({ specsDir: dirs.specsDir, outDir: join(root, 'dist-full'), indexDir: join(root, 'index-full') });
    expect(corrupt.bundle.hash).toBe(reference.bundle.hash);
  });

  it('a cache written by other code (another kdd-index version) is ignored', async () => {
    const { dirs } = await setup();
    await buildIndex(dirs);
    const manifest = await readFile(join(dirs.indexDir, 'manifest.json'), 'utf8');
    expect(await readRecordCache(dirs.recordCache, manifest)).not.toBeNull();
    const bytes = await readFile(dirs.recordCache);
    const length = bytes.readUInt32LE(0);
    const packr = new Packr({ useRecords: false, variableMapSize: true });
    const header = packr.unpack(bytes.subarray(4, 4 + length)) as { code: string };
    const other = packr.pack({ ...header, code: 'another version' });
    const prefix = Buffer.alloc(4);
    prefix.writeUInt32LE(other.length);
    await writeFile(dirs.recordCache, Buffer.concat([prefix, other, bytes.subarray(4 + length)]));
    expect(await readRecordCache(dirs.recordCache, manifest)).toBeNull();
  });

  it('a cache with one byte changed in place (lengths intact) is ignored, and the build still equals a full one', async () => {
    const { root, dirs } = await setup();
    await buildIndex(dirs);
    const manifest = await readFile(join(dirs.indexDir, 'manifest.json'), 'utf8');
    for (const file of [entriesPath(dirs.recordCache), dirs.recordCache]) {
      const bytes = await readFile(file);
      const original = Buffer.from(bytes);
      bytes.writeUInt8(bytes.at(-3)! ^ 0x20, bytes.length - 3);
      await writeFile(file, bytes);
      expect(await readRecordCache(dirs.recordCache, manifest)).toBeNull();
      await writeFile(file, original);
      expect(await readRecordCache(dirs.recordCache, manifest)).not.toBeNull();
    }
    const entries = await readFile(entriesPath(dirs.recordCache));
    entries.writeUInt8(entries.at(-3)! ^ 0x20, entries.length - 3);
    await writeFile(entriesPath(dirs.recordCache), entries);
    await writeFile(join(dirs.specsDir, '01-domain/entities/Pedido.md'), ENTITY('con un cambio'));
    const report = await buildIndex(dirs);
    const reference = await build({ specsDir: dirs.specsDir, outDir: join(root, 'dist-full'), indexDir: join(root, 'index-full') });
    expect(report.bundle.hash).toBe(reference.bundle.hash);
  });

  it('recordCache: false neither reads nor writes a cache', async () => {
    const { dirs } = await setup();
    await buildIndex({ ...dirs, recordCache: false });
    await expect(readFile(dirs.recordCache)).rejects.toThrow();
  });
});

describe('record cache layout', () => {
  it('stamp columns give back every stamp exactly (fixed seed)', () => {
    const stamp = fc.record({ size: fc.nat({ max: 2 ** 40 }), mtimeMs: fc.double({ min: 0, max: 4e12, noNaN: true }), ctimeMs: fc.double({ min: 0, max: 4e12, noNaN: true }) });
    const path = fc.string({ minLength: 1, maxLength: 20 }).filter((p) => !p.includes('\0'));
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(path, stamp, fc.stringMatching(/^[0-9a-f]{64}$/)), { selector: ([p]) => p, maxLength: 30 }), (rows) => {
        const specs = new Map(rows.map(([p, s, hash]) => [p, { ...s, hash }]));
        const artifacts = new Map(rows.map(([p, s]) => [p, s]));
        const packr = new Packr({ useRecords: false, variableMapSize: true });
        const roundTrip = (value: unknown) => packr.unpack(packr.pack(value)) as unknown;
        expect(readStampColumns(roundTrip(stampColumns(specs)), true)).toEqual(specs);
        expect(readStampColumns(roundTrip(stampColumns(artifacts)), false)).toEqual(artifacts);
        // Columns of one kind are not read as the other.
        if (rows.length > 0) expect(readStampColumns(roundTrip(stampColumns(artifacts)), true)).toBeNull();
      }),
      { seed: 17, numRuns: 200 },
    );
  });

  it('writes back the graph bytes it read when the graph is the restored one, the same bytes a fresh encoding gives', async () => {
    const { root, dirs } = await setup();
    await buildIndex(dirs);
    const manifest = await readFile(join(dirs.indexDir, 'manifest.json'), 'utf8');
    const cache = (await readRecordCache(dirs.recordCache, manifest))!;
    const restored = restoreGraph(cache.records, cache.graph!);
    const linked = linkRecords((await readIndexDir(dirs.indexDir)).records);
    const reused = join(root, 'reused');
    const fresh = join(root, 'fresh');
    await writeRecordCache(reused, manifest, cache.records, cache.stamps, cache.artifacts, restored);
    await writeRecordCache(fresh, manifest, cache.records, cache.stamps, cache.artifacts, linked);
    // Each entry file has its own random tag: the graph's parts of the headers are compared.
    const graphParts = async (file: string) => {
      const { graph, links, lists } = await headerOf(file);
      return { graph, links, lists };
    };
    expect(await graphParts(reused)).toEqual(await graphParts(fresh));
    expect(await graphParts(reused)).toEqual(await graphParts(dirs.recordCache));
    // A graph changed after it was restored is encoded again, not written from the old bytes.
    const changed = { ...restored, dangling: [] };
    await writeRecordCache(reused, manifest, cache.records, cache.stamps, cache.artifacts, changed);
    expect((await readRecordCache(reused, manifest))!.graph!.dangling).toEqual([]);
  });

  it('a graph JSON would not give back exactly (an undefined field) is not stored: the next build links again', async () => {
    const { root, dirs } = await setup();
    await buildIndex(dirs);
    const manifest = await readFile(join(dirs.indexDir, 'manifest.json'), 'utf8');
    const cache = (await readRecordCache(dirs.recordCache, manifest))!;
    const restored = restoreGraph(cache.records, cache.graph!);
    const file = join(root, 'inexact');
    const dangling = [{ ...restored.dangling[0], section: undefined }] as unknown as typeof restored.dangling;
    await writeRecordCache(file, manifest, cache.records, cache.stamps, cache.artifacts, { ...restored, dangling });
    const read = await readRecordCache(file, manifest);
    expect(read!.records).toHaveLength(cache.records.length);
    expect(read!.graph).toBeNull();
  });

  it('a record whose light part JSON would not give back exactly is refused, never stored changed', async () => {
    const { root, dirs } = await setup();
    await buildIndex(dirs);
    const manifest = await readFile(join(dirs.indexDir, 'manifest.json'), 'utf8');
    const { records } = await readIndexDir(dirs.indexDir);
    const odd = { ...records[0]!, node: { ...records[0]!.node, status: Number.NaN } } as unknown as (typeof records)[number];
    await expect(writeRecordCache(join(root, 'odd'), manifest, [odd, ...records.slice(1)], new Map())).rejects.toThrow(/light field/);
  });

  it('a cache whose graph bytes were altered is ignored', async () => {
    const { dirs } = await setup();
    await buildIndex(dirs);
    const manifest = await readFile(join(dirs.indexDir, 'manifest.json'), 'utf8');
    const bytes = await readFile(dirs.recordCache);
    const length = bytes.readUInt32LE(0);
    const packr = new Packr({ useRecords: false, variableMapSize: true });
    const header = packr.unpack(bytes.subarray(4, 4 + length)) as { links: Uint8Array };
    const links = JSON.parse(new TextDecoder().decode(header.links)) as { dangling: unknown[] };
    const other = packr.pack({ ...header, links: new Uint8Array(Buffer.from(JSON.stringify({ ...links, dangling: [{ from: 'x', to: 'y' }] }))) });
    const prefix = Buffer.alloc(4);
    prefix.writeUInt32LE(other.length);
    await writeFile(dirs.recordCache, Buffer.concat([prefix, other, bytes.subarray(4 + length)]));
    expect(await readRecordCache(dirs.recordCache, manifest)).toBeNull();
  });
});
