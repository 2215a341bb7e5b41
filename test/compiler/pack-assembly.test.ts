/**
 * The full pack assembles the bundle's chunk columns and both indexes straight from the per-node
 * products (compiler/pack/pack.ts). Whatever shortcut it takes, the bundle must hold what the
 * plain, one-node-at-a-time definitions give: `chunkSpans` of every node for the chunks,
 * `buildChunkIndex` over those chunks and `buildTextIndex` over the nodes for the two indexes.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile, packCompiled } from '../../compiler/pipeline.js';
import { chunkSpans } from '../../compiler/embed/chunk.js';
import { decodeBundle } from '../../formats/bundle/bundle.js';
import { buildChunkIndex } from '../../runtime/search/chunk-index.js';
import { buildTextIndex } from '../../runtime/search/index.js';
import { treeArbitrary, writeTree, type Tree } from '../helpers/arbitrary-tree.js';
import { FIXTURES } from '../helpers/temp-tree.js';

let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'kdd-pack-assembly-'));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

async function expectPlainDefinitions(specsDir: string): Promise<void> {
  const bundle = decodeBundle(packCompiled(await compile({ specsDir })).bytes, { lazy: false });
  const expected = bundle.nodes.flatMap((node, index) =>
    chunkSpans(node).map((span) => ({ id: span.chunk_id, node: index, position: span.position, section: span.section_index, start: span.start, end: span.end, embeddable: span.embeddable })),
  );
  expect(bundle.chunks).toEqual(expected);
  expect(bundle.chunk_search).toEqual(buildChunkIndex(bundle.chunks, bundle.nodes));
  expect(bundle.search).toEqual(buildTextIndex(bundle.nodes));
}

describe('the full pack assembled from per-node products', () => {
  it('holds the chunks, chunk index and text index of the plain definitions (fixtures)', async () => {
    for (const fixture of ['kinds', 'shop', 'multi-domain']) await expectPlainDefinitions(join(FIXTURES, fixture));
  });

  it('holds them on random generated trees', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(treeArbitrary({ minDocs: 1, maxDocs: 8 }), async (tree: Tree) => {
        const dir = join(work, `tree-${run++}`);
        await writeTree(dir, tree);
        await expectPlainDefinitions(dir);
      }),
      { numRuns: 15, seed: 1725 },
    );
  });
});
