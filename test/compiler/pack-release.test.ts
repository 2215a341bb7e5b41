import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile } from '../../compiler/pipeline.js';
import { packBundle, packPrepared, prepareNodes, type PackInput } from '../../compiler/pack/pack.js';
import { treeArbitrary, writeTree } from '../helpers/arbitrary-tree.js';
import { removedAfter } from '../helpers/temp-tree.js';

const roots = removedAfter('all');

async function packInput(tree: Parameters<typeof writeTree>[1]): Promise<PackInput> {
  const root = await mkdtemp(join(tmpdir(), 'kdd-packrelease-'));
  roots.push(root);
  await writeTree(join(root, 'specs'), tree);
  const result = await compile({ specsDir: join(root, 'specs') });
  return { ...result.graph, manifest: result.manifest };
}

const heavyParts = (input: PackInput) => input.nodes.map((node) => JSON.parse(JSON.stringify({ sections: node.sections, indexed_fields: node.indexed_fields })) as unknown);

describe('prepareNodes with release (the texts a node held are read from its packed body afterwards)', () => {
  it('packs the same bytes, leaves every node with equal sections and indexed fields, and packs them again to the same bytes', async () => {
    await fc.assert(
      fc.asyncProperty(treeArbitrary(), async (tree) => {
        const input = await packInput(tree);
        const before = heavyParts(input);
        const expected = packBundle(await packInput(tree)).bytes;
        const prepared = prepareNodes(input, undefined, true);
        const released = packPrepared(input, prepared);
        expect(Buffer.from(released.bytes).equals(Buffer.from(expected))).toBe(true);
        // Released: no longer the node's own data, decoded from the body when read.
        for (const node of input.nodes) expect(Object.getOwnPropertyDescriptor(node, 'sections')?.get).toBeTypeOf('function');
        expect(heavyParts(input)).toEqual(before);
        // A second pack of the released nodes (the pack stage retries without a corrupt memo this way).
        expect(Buffer.from(packPrepared(input, prepareNodes(input, undefined, true)).bytes).equals(Buffer.from(expected))).toBe(true);
        // Nodes that are their own packed form (as the record cache gives them) are left as they are.
        const canonical = { ...input, nodes: prepared.packed.map((p) => p.node) };
        expect(Buffer.from(packPrepared(canonical, prepareNodes(canonical, undefined, true)).bytes).equals(Buffer.from(expected))).toBe(true);
        expect(heavyParts(canonical)).toEqual(before);
      }),
      { numRuns: 25, seed: 17 },
    );
  });
});
