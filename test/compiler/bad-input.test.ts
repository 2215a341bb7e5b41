import { readFile, symlink, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { build, compile } from '../../compiler/pipeline.js';
import { writeAtomic } from '../../compiler/atomic.js';
import { removeTree, tempTree } from '../helpers/temp-tree.js';

const GOOD = `---\nkind: entity\nstatus: draft\n---\n# Pedido\n\n## Descripción\n\nUn pedido de compra.\n`;
const roots: string[] = [];
async function tree(files: Record<string, string | Uint8Array>) {
  const root = await tempTree(files);
  roots.push(root);
  return root;
}
afterEach(async () => {
  await Promise.all(roots.splice(0).map(removeTree));
});

describe('bad input', () => {
  it('gives one typed warning per bad document, naming the file, and indexes the rest', async () => {
    const root = await tree({
      'specs/01-domain/entities/Pedido.md': GOOD,
      'specs/01-domain/entities/Broken.md': '---\nkind: entity\naliases: [unclosed\n---\n# Broken\n',
      'specs/01-domain/entities/Alien.md': '---\nkind: spaceship\n---\n# Alien\n',
      'specs/01-domain/entities/Dup.md': '---\nkind: entity\nid: Pedido\n---\n# Otro Pedido\n',
      'specs/01-domain/entities/Image.md': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1]),
      'specs/01-domain/entities/Huge.md': `---\nkind: entity\n---\n# Huge\n\n${'palabra '.repeat(200_000)}`,
      'specs/01-domain/entities/Evil.md': '---js\n{ kind: (globalThis.__kddPwned = true, "entity") }\n---\n# Evil\n',
      'specs/01-domain/entities/README.md': '# Notes without front-matter\n',
    });
    await symlink(join(root, 'nowhere.md'), join(root, 'specs/01-domain/entities/Gone.md'));
    const result = await compile({ specsDir: join(root, 'specs') });
    const byFile = Object.fromEntries(result.warnings.map((w) => [w.file.split('/').pop(), w.code]));
    expect(byFile).toEqual({
      'Broken.md': 'INVALID_FRONT_MATTER',
      'Alien.md': 'UNKNOWN_KIND',
      'Pedido.md': 'DUPLICATE_ID',
      'Image.md': 'BINARY_FILE',
      'Huge.md': 'FILE_TOO_LARGE',
      'Evil.md': 'INVALID_FRONT_MATTER',
      'Gone.md': 'UNREADABLE_FILE',
    });
    expect((globalThis as Record<string, unknown>).__kddPwned).toBeUndefined();
    for (const w of result.warnings) expect(w.message).toContain(w.file.split('/').pop()!.replace('.md', ''));
    // Dup.md sorts before Pedido.md, so Dup.md holds the id and Pedido.md is the reported duplicate.
    expect(result.graph.nodes.map((n) => n.id)).toEqual(['Entity:Pedido']);
    expect(result.skipped.map((s) => s.file)).toContain('01-domain/entities/README.md');
  });

  it('warns when a kind sits outside its expected folder but indexes it by its front-matter', async () => {
    const root = await tree({ 'specs/02-behavior/MiEntidad.md': '---\nkind: entity\n---\n# MiEntidad\n' });
    const result = await compile({ specsDir: join(root, 'specs') });
    expect(result.graph.nodes[0]).toMatchObject({ id: 'Entity:MiEntidad', kind: 'entity', layer: '02-behavior' });
    expect(result.warnings).toEqual([expect.objectContaining({ code: 'KIND_LOCATION_MISMATCH', message: expect.stringContaining("entity 'MiEntidad' found outside expected path") })]);
  });

  it('--strict semantics: the report carries the warnings so the CLI can fail', async () => {
    const root = await tree({ 'specs/01-domain/entities/Alien.md': '---\nkind: spaceship\n---\n' });
    const report = await build({ specsDir: join(root, 'specs'), outDir: join(root, 'dist'), indexDir: join(root, '.kdd-index') });
    expect(report.warnings.map((w) => w.code)).toEqual(['UNKNOWN_KIND']);
    expect(report.nodes).toBe(0);
  });
});

describe('atomic writes', () => {
  it('leaves the previous file intact when a write fails', async () => {
    const root = await tree({ 'dist/kdd.json': '{"bundle":"old"}' });
    const target = join(root, 'dist/kdd.json');
    // A directory where the temp file would go makes the write fail midway.
    await mkdir(`${target}.${process.pid}.tmp`);
    await writeFile(join(`${target}.${process.pid}.tmp`, 'x'), 'blocker');
    await expect(writeAtomic(target, '{"bundle":"new"}')).rejects.toThrow();
    expect(await readFile(target, 'utf8')).toBe('{"bundle":"old"}');
  });

  it('a failing build never touches the previous bundle', async () => {
    const root = await tree({ 'specs/01-domain/entities/Pedido.md': GOOD });
    const options = { specsDir: join(root, 'specs'), outDir: join(root, 'dist'), indexDir: join(root, '.kdd-index') };
    const first = await build(options);
    const before = await readFile(join(root, 'dist', first.bundle.bundle));
    // The index dir becomes a file: writing artifacts fails before the bundle is written.
    await writeFile(join(root, 'specs/01-domain/entities/Pedido.md'), GOOD.replace('compra', 'venta'));
    await removeTree(options.indexDir);
    await writeFile(options.indexDir, 'not a directory');
    await expect(build(options)).rejects.toThrow();
    expect(JSON.parse(await readFile(join(root, 'dist/kdd.json'), 'utf8')).bundle).toBe(first.bundle.bundle);
    expect(await readFile(join(root, 'dist', first.bundle.bundle))).toEqual(before);
  });
});
