/**
 * A full build writes `.kdd-index/` without reading it back when the folder holds no artifact yet:
 * a folder with nothing but the local `.cache/` (where a build puts its in-progress marker first)
 * counts as empty; a folder with artifacts of an earlier index is compared and cleaned as before.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { build } from '../../compiler/pipeline.js';
import { tempTree, removedAfter } from '../helpers/temp-tree.js';

const roots = removedAfter('each');

const entity = (name: string, link: string) => `---\nkind: entity\n---\n# ${name}\n\n## Descripción\n\nUn ${name} de un [[${link}]].\n`;
const specs = Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`specs/01-domain/entities/E${i}.md`, entity(`E${i}`, `E${(i + 1) % 4}`)]));

/** Every committed file of an index folder (not its local `.cache/`) with its text. */
async function committed(dir: string): Promise<Record<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => relative(dir, join(entry.parentPath, entry.name)));
  const kept = files.filter((path) => !path.startsWith('.cache')).sort();
  return Object.fromEntries(await Promise.all(kept.map(async (path) => [path, await readFile(join(dir, path), 'utf8')] as const)));
}

describe('writing .kdd-index/ in a full build', () => {
  it('into a folder holding only the local cache: every file written, the same folder as into a new one', async () => {
    const root = await tempTree(specs);
    roots.push(root);
    await mkdir(join(root, 'cached/.cache'), { recursive: true });
    await writeFile(join(root, 'cached/.cache/left-over'), 'x');
    const intoCached = await build({ specsDir: join(root, 'specs'), outDir: join(root, 'dist-a'), indexDir: join(root, 'cached') });
    const intoNew = await build({ specsDir: join(root, 'specs'), outDir: join(root, 'dist-b'), indexDir: join(root, 'new') });
    expect(intoCached.index_dir).toEqual(intoNew.index_dir);
    expect(intoCached.index_dir.removed).toBe(0);
    expect(await committed(join(root, 'cached'))).toEqual(await committed(join(root, 'new')));
  });

  it('over an earlier index: the node file of a spec that is gone is removed, unchanged files are not rewritten', async () => {
    const root = await tempTree(specs);
    roots.push(root);
    const options = { specsDir: join(root, 'specs'), outDir: join(root, 'dist'), indexDir: join(root, 'idx') };
    const first = await build(options);
    await rm(join(root, 'specs/01-domain/entities/E3.md'));
    const second = await build(options);
    expect(second.index_dir.removed).toBe(1);
    expect(second.index_dir.written).toBeLessThan(first.index_dir.written);
    expect(Object.keys(await committed(join(root, 'idx'))).filter((path) => path.includes('E3'))).toEqual([]);
  });
});
