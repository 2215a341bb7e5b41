/**
 * What a one-edit build keeps of the previous index between reading the record cache and using it
 * is held in fewer objects (docs/decisions/one-edit-build.md): records' links behind one shared
 * accessor, stats taken ahead as a column of numbers. Each must read exactly as the plain values did.
 */
import { mkdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Packr } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { readRecordCache } from '../../compiler/cache/record-cache.js';
import { loadRecord, storeRecord } from '../../compiler/cache/record-entries.js';
import { checkStamps, fileState } from '../../compiler/cache/stamps.js';
import { readIndexDir } from '../../compiler/emit/read-index-dir.js';
import { buildIndex } from '../../compiler/pipeline.js';
import { newPackr } from '../../formats/msgpack.js';
import { nodeFileText } from '../../formats/index-dir/node-file.js';
import { tempTree, removedAfter } from '../helpers/temp-tree.js';

const roots = removedAfter('all');

const entity = (i: number) => `---\nid: E${i}\nkind: entity\n---\n# E${i}\n\n## Descripción\n\nLa entidad ${i}, ver [[E${(i + 1) % 4}]] y [[Nadie]].\n`;

async function builtTree() {
  const root = await tempTree(Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`specs/01-domain/entities/E${i}.md`, entity(i)])));
  roots.push(root);
  const dirs = { specsDir: join(root, 'specs'), outDir: join(root, 'dist'), indexDir: join(root, '.kdd-index') };
  await buildIndex(dirs);
  return { root, dirs };
}

describe('records read from the record cache with links decoded on access', () => {
  it('read as the node files: same keys, same JSON, same links, an assignment replaces them', async () => {
    const { dirs } = await builtTree();
    const cache = await readRecordCache(join(dirs.indexDir, '.cache', 'records'), await readFile(join(dirs.indexDir, 'manifest.json'), 'utf8'));
    const { records } = await readIndexDir(dirs.indexDir);
    expect(cache!.records.map(nodeFileText)).toEqual(records.map(nodeFileText));
    cache!.records.forEach((record, i) => {
      expect(Object.keys(record)).toEqual(['node', 'links']);
      expect(JSON.parse(JSON.stringify(record))).toEqual(JSON.parse(JSON.stringify(records[i])));
      expect({ ...record }.links).toEqual(records[i]!.links);
      // Decoded once, then the same list.
      expect(record.links).toBe(record.links);
    });
    const [first, second] = cache!.records;
    expect(first!.links.length).toBeGreaterThan(0);
    first!.links = [];
    expect(first!.links).toEqual([]);
    // Each record keeps its own links: the accessor is shared, the bytes are not.
    expect(second!.links).toEqual(records[1]!.links);
  });

  it('a record stored and loaded on access gives back the links it was stored with', () => {
    const packr = newPackr();
    const links = [{ target: 'E1', domain: null, anchor: null, alias: null, field: null, section: 'Descripción', origin: 'wiki' as const }];
    const node = { id: 'Entity:E0', kind: 'entity', title: 'E0', sections: [], indexed_fields: {} } as never;
    const entry = storeRecord({ node, links }, packr);
    const eager = loadRecord(entry, new Packr({ useRecords: false, variableMapSize: true }), 'now');
    const lazy = loadRecord(entry, packr, 'on-access');
    expect(lazy.links).toEqual(links);
    expect(lazy.links).toEqual(eager.links);
  });
});

describe('stamps checked ahead', () => {
  it('match a file as stamped, not a file whose size or times moved, a folder or a missing path; a path not stamped is not checked', async () => {
    const root = await tempTree({ 'a.md': 'uno', 'sub/b.md': 'dos dos' });
    roots.push(root);
    await mkdir(join(root, 'folder.md'));
    await writeFile(join(root, 'c.md'), 'tres tres tres');
    // Times set by hand: its modification time then differs from its change time.
    await utimes(join(root, 'a.md'), new Date(2001, 0, 1), new Date(2001, 0, 1, 0, 0, 0, 250));
    const stampOf = (path: string) => {
      const state = fileState(join(root, path))!;
      return { size: state.size, mtimeMs: state.mtimeMs, ctimeMs: state.ctimeMs };
    };
    const a = stampOf('a.md');
    const stamps = new Map([
      ['a.md', a],
      ['sub/b.md', stampOf('sub/b.md')],
      ['c.md', { ...stampOf('c.md'), size: 3 }],
      ['a-later.md', { ...a, mtimeMs: a.mtimeMs + 1 }],
      ['folder.md', stampOf('folder.md')],
      ['missing.md', a],
    ]);
    await writeFile(join(root, 'a-later.md'), 'uno');
    await utimes(join(root, 'a-later.md'), new Date(2001, 0, 1), new Date(2001, 0, 1, 0, 0, 0, 250));
    const checked = checkStamps(root, stamps);
    for (const path of stamps.keys()) expect(checked.has(path)).toBe(true);
    expect([...stamps.keys()].filter((path) => checked.matches(path))).toEqual(['a.md', 'sub/b.md']);
    expect(checked.has('other.md')).toBe(false);
  });
});
