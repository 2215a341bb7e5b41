import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { compile } from '../../compiler/pipeline.js';
import { packBundle, type PackInput } from '../../compiler/pack/pack.js';
import { createPackMemo, packMemoPath, readPackMemo, writePackMemo, type PackMemo } from '../../compiler/cache/pack-memo.js';
import { buildIndex } from '../../compiler/pipeline.js';
import { applyOp, opArbitrary, treeArbitrary, writeTree, type Tree } from '../helpers/arbitrary-tree.js';
import { removeTree } from '../helpers/temp-tree.js';

const roots: string[] = [];
afterAll(async () => {
  await Promise.all(roots.map(removeTree));
});

async function fresh(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'kdd-packcache-'));
  roots.push(root);
  return root;
}

async function packInput(root: string, tree: Tree, previous: Tree = {}): Promise<PackInput> {
  await writeTree(join(root, 'specs'), tree, previous);
  const result = await compile({ specsDir: join(root, 'specs') });
  return { ...result.graph, manifest: result.manifest };
}

const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

describe('pack cache (compiler/cache/pack-memo.ts)', () => {
  it('a memo filled from another tree and edit history (through its file) packs the same bytes as no memo', async () => {
    await fc.assert(
      fc.asyncProperty(treeArbitrary(), fc.array(opArbitrary(), { maxLength: 4 }), treeArbitrary(), fc.boolean(), async (initial, ops, other, roundTrip) => {
        const root = await fresh();
        let memo: PackMemo = createPackMemo();
        // Fill the memo from an unrelated tree, then from an edit history of `initial`.
        packBundle(await packInput(join(root, 'other'), other), { memo });
        let tree = initial;
        packBundle(await packInput(join(root, 'main'), tree), { memo });
        for (const op of ops) {
          const next = applyOp(tree, op);
          const input = await packInput(join(root, 'main'), next, tree);
          tree = next;
          if (roundTrip) {
            await writePackMemo(join(root, 'pack'), memo);
            memo = await readPackMemo(join(root, 'pack'));
          }
          const cached = packBundle(input, { memo });
          expect(same(cached.bytes, packBundle(input).bytes)).toBe(true);
        }
        const input = await packInput(join(root, 'main'), tree);
        expect(same(packBundle(input, { memo }).bytes, packBundle(input).bytes)).toBe(true);
        await rm(root, { recursive: true, force: true });
      }),
      { numRuns: 15 },
    );
  }, 60_000);

  it('buildIndex writes the cache under .kdd-index/.cache and ignores a corrupt one', async () => {
    const root = await fresh();
    const tree: Tree = { 'entities/Pedido.md': '---\nid: Pedido\nkind: entity\n---\n# Pedido\n\n## Descripción\n\nUn pedido del cliente.\n' };
    await writeTree(join(root, 'specs'), tree);
    const dirs = { specsDir: join(root, 'specs'), outDir: join(root, 'dist'), indexDir: join(root, '.kdd-index') };
    const first = await buildIndex(dirs);
    const file = packMemoPath(dirs.indexDir);
    expect((await readPackMemo(file)).entries.size).toBe(1);
    const bytes = await readFile(file);
    const flipped = Buffer.from(bytes);
    flipped.writeUInt8(flipped.at(-2)! ^ 0x01, flipped.length - 2); // a term id, every length intact
    await writeFile(file, flipped);
    expect((await readPackMemo(file)).entries.size).toBe(0);
    await writeFile(file, bytes.subarray(0, bytes.length >> 1));
    expect((await readPackMemo(file)).entries.size).toBe(0);
    await writeFile(join(dirs.specsDir, 'entities/Pedido.md'), `${tree['entities/Pedido.md']}\nOtra línea.\n`);
    const second = await buildIndex(dirs);
    const reference = await packInput(join(root, 'ref'), { 'entities/Pedido.md': `${tree['entities/Pedido.md']}\nOtra línea.\n` });
    expect(second.bundle.hash).not.toBe(first.bundle.hash);
    expect(second.bundle.hash).toBe(packBundle(reference).hash);
  });
});
