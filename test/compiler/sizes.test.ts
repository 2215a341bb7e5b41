import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildIndex } from '../../compiler/pipeline.js';
import { writeTree } from '../helpers/arbitrary-tree.js';
import { removedAfter } from '../helpers/temp-tree.js';

const roots = removedAfter('all');

const TREE = {
  '01-domain/entities/Pedido.md': '---\nid: Pedido\nkind: entity\n---\n# Pedido\n\n## Descripción\n\nUn pedido de un [[Usuario]].\n',
  '01-domain/entities/Usuario.md': '---\nid: Usuario\nkind: entity\n---\n# Usuario\n\n## Descripción\n\nQuien compra.\n',
  'README.md': 'Not a spec: no front-matter.\n',
};

/** Bytes of every file under `dir`, except those under `skip`. */
async function bytesUnder(dir: string, skip = '\0'): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isFile() && !path.includes(skip)) total += (await stat(path)).size;
  }
  return total;
}

describe('artifact sizes', () => {
  it('the report and kdd.json give the bytes of the specs indexed, of the committed .kdd-index/ and of the bundle', async () => {
    const root = await mkdtemp(join(tmpdir(), 'kdd-sizes-'));
    roots.push(root);
    await writeTree(join(root, 'specs'), TREE);
    const dirs = { specsDir: join(root, 'specs'), outDir: join(root, 'dist'), indexDir: join(root, '.kdd-index') };
    const pedido = Buffer.byteLength(TREE['01-domain/entities/Pedido.md']);
    const specBytes = pedido + Buffer.byteLength(TREE['01-domain/entities/Usuario.md']);
    const report = await buildIndex(dirs);
    const indexBytes = await bytesUnder(dirs.indexDir, join(dirs.indexDir, '.cache'));
    expect(report.sizes).toEqual({
      spec_bytes: specBytes,
      index_bytes: indexBytes,
      index_ratio: Math.round((indexBytes / specBytes) * 1000) / 1000,
      bundle_bytes: report.bundle.bytes,
      bundle_ratio: Math.round((report.bundle.bytes / specBytes) * 1000) / 1000,
    });
    expect(JSON.parse(await readFile(join(dirs.outDir, 'kdd.json'), 'utf8')).sizes).toEqual(report.sizes);
    // A deletion: the tombstones file counts too; the next, unchanged build reports the same.
    await rm(join(root, 'specs/01-domain/entities/Usuario.md'));
    const after = await buildIndex(dirs);
    expect(after.sizes.index_bytes).toBe(await bytesUnder(dirs.indexDir, join(dirs.indexDir, '.cache')));
    expect(after.sizes.spec_bytes).toBe(pedido);
    expect(after.tombstones).toBe(1);
    const unchanged = await buildIndex(dirs);
    expect(unchanged.bundle_reused).toBe(true);
    expect(unchanged.sizes).toEqual(after.sizes);
  });
});
