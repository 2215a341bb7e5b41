import { readFile, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, packIndexDir } from '../../compiler/pipeline.js';
import { FIXTURES, removeTree, tempTree } from '../helpers/temp-tree.js';

let files: Record<string, string> = {};
const roots: string[] = [];

async function readAll(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(entries.map((e) => (e.isDirectory() ? readAll(join(dir, e.name)) : [join(dir, e.name)])));
  return nested.flat();
}

beforeAll(async () => {
  const source = `${FIXTURES}kinds`;
  for (const path of await readAll(source)) files[relative(source, path)] = await readFile(path, 'utf8');
});
afterAll(async () => {
  await Promise.all(roots.map(removeTree));
});

async function buildTree(tree: Record<string, string>, order?: string[]) {
  const root = await tempTree(Object.fromEntries(Object.entries(tree).map(([path, text]) => [`specs/${path}`, text])), order?.map((path) => `specs/${path}`));
  roots.push(root);
  const report = await build({ specsDir: join(root, 'specs'), outDir: join(root, 'dist'), indexDir: join(root, '.kdd-index') });
  const bytes = await readFile(join(root, 'dist', report.bundle.bundle));
  return { root, report, bytes };
}

describe('determinism', () => {
  it('building the same tree twice gives byte-identical bundles with the same name', async () => {
    const first = await buildTree(files);
    const second = await build({ specsDir: join(first.root, 'specs'), outDir: join(first.root, 'dist2'), indexDir: join(first.root, '.kdd-index2') });
    expect(second.bundle.bundle).toBe(first.report.bundle.bundle);
    expect(await readFile(join(first.root, 'dist2', second.bundle.bundle))).toEqual(first.bytes);
  });

  it('same files written in any order ⇒ identical bytes', async () => {
    // Built in a temp dir like the candidates: the fixture folder itself sits in git, which sets indexed_at.
    const reference = (await buildTree(files)).report.bundle;
    const paths = Object.keys(files);
    await fc.assert(
      fc.asyncProperty(fc.shuffledSubarray(paths, { minLength: paths.length, maxLength: paths.length }), async (order) => {
        const { report } = await buildTree(files, order);
        expect(report.bundle.hash).toBe(reference.hash);
      }),
      { numRuns: 4 },
    );
  });

  it('.kdd-index/ alone rebuilds the same bundle, for any subset of the tree', async () => {
    const paths = Object.keys(files).sort();
    await fc.assert(
      fc.asyncProperty(fc.subarray(paths, { minLength: 1 }), async (subset) => {
        const { root, bytes } = await buildTree(Object.fromEntries(subset.map((path) => [path, files[path]!])));
        const repacked = await packIndexDir(join(root, '.kdd-index'));
        expect(Buffer.from(repacked.bytes).equals(bytes)).toBe(true);
      }),
      { numRuns: 6 },
    );
  });

  it('an unchanged rebuild rewrites no artifact', async () => {
    const { root } = await buildTree(files);
    const again = await build({ specsDir: join(root, 'specs'), outDir: join(root, 'dist'), indexDir: join(root, '.kdd-index') });
    expect(again.index_dir).toEqual({ written: 0, removed: 0 });
  });
});
