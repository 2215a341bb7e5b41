/**
 * An incremental build stats the node files and specs the record cache stamped while the cache's
 * entries are read (compiler/incremental/earlier.ts). Taken earlier, they must catch what they
 * caught before: a node file edited or deleted by hand, an edited spec, a spec replaced by a folder
 * (docs/integrity.md).
 */
import { appendFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { build, buildIndex } from '../../compiler/pipeline.js';
import { tempTree, removedAfter } from '../helpers/temp-tree.js';

const roots = removedAfter('all');

const entity = (i: number) => `---\nid: E${i}\nkind: entity\n---\n# E${i}\n\n## Descripción\n\nLa entidad ${i}, ver [[E${(i + 1) % 8}]].\n`;

describe('stats taken while the record cache is read', () => {
  it('still catch node files edited or deleted by hand and specs edited or replaced, and the build equals a full one', async () => {
    const root = await tempTree(Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`specs/01-domain/entities/E${i}.md`, entity(i)])));
    roots.push(root);
    const dirs = { specsDir: join(root, 'specs'), outDir: join(root, 'dist'), indexDir: join(root, '.kdd-index') };
    // Specs are stamped (so their stats are taken ahead) only once untouched for 2 s (racily clean otherwise).
    await sleep(2_100);
    await buildIndex(dirs);
    await sleep(2_100);
    // A second build that reads the cache, so the node files' and specs' stamps are the trusted ones.
    expect(await buildIndex(dirs)).toMatchObject({ mode: 'incremental', bundle_reused: true });
    const nodes = join(dirs.indexDir, 'nodes', 'entity');
    const edited = join(nodes, 'E2.json');
    const committed = await readFile(edited, 'utf8');
    // Valid JSON, same source_hash: only its stamp tells.
    await writeFile(edited, committed.replace('La entidad 2', 'La entidad zzqxforged'));
    await rm(join(nodes, 'E3.json'));
    await appendFile(join(dirs.specsDir, '01-domain/entities/E4.md'), '\nOtra línea.\n');
    await rm(join(dirs.specsDir, '01-domain/entities/E5.md'));
    await mkdir(join(dirs.specsDir, '01-domain/entities/E5.md'));
    const report = await buildIndex(dirs);
    expect(report.changes.reindexed).toEqual(['01-domain/entities/E4.md']);
    expect(report.changes.deleted).toEqual(['01-domain/entities/E5.md']);
    expect(await readFile(edited, 'utf8')).toBe(committed);
    const full = await build({ specsDir: dirs.specsDir, outDir: join(root, 'full', 'dist'), indexDir: join(root, 'full', 'idx') });
    expect(report.bundle.hash).toBe(full.bundle.hash);
    for (const name of ['E2.json', 'E3.json', 'E4.json']) expect(await readFile(join(nodes, name), 'utf8'), name).toBe(await readFile(join(root, 'full', 'idx', 'nodes', 'entity', name), 'utf8'));
  }, 30_000);
});
