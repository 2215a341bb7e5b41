/**
 * The compiled CLI is a bundle (scripts/bundle-cli.mjs): it must build exactly what the compiled
 * library builds, and see the same code fingerprint (paths it finds from `import.meta.url` point
 * into `build/` as unbundled), so caches and `kdd.json` digests do not depend on the door used.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempTree, removedAfter } from '../helpers/temp-tree.js';

const CLI = new URL('../../build/cli/main.js', import.meta.url).pathname;
const LIBRARY = new URL('../../build/index.js', import.meta.url).pathname;
const run = promisify(execFile);

const roots = removedAfter('each');

const entity = (name: string, link: string) => `---\nkind: entity\naliases: [${name}s]\n---\n# ${name}\n\n## Descripción\n\nUn ${name} de un [[${link}]].\n`;

describe.skipIf(!existsSync(CLI) || !existsSync(LIBRARY))('the bundled CLI', () => {
  it('is the bundle, with its command modules in chunks', () => {
    const entry = readFileSync(CLI, 'utf8');
    expect(entry.split('\n').slice(0, 2)).toEqual(['#!/usr/bin/env node', '// Bundled by scripts/bundle-cli.mjs']);
    expect(entry).toMatch(/import\("\.\/chunks\/build-[\w-]+\.js"\)/);
  });

  it('reads Node built-ins through process.getBuiltinModule, not static imports (no facade per built-in)', () => {
    const chunks = join(CLI, '../chunks');
    const sources = [CLI, ...readdirSync(chunks).map((name) => join(chunks, name))].map((file) => readFileSync(file, 'utf8'));
    expect(sources.filter((source) => /^import [^;]*from "node:/m.test(source))).toEqual([]);
    expect(sources.some((source) => source.includes('process.getBuiltinModule("node:crypto")'))).toBe(true);
  });

  it('writes the bundle and kdd.json that the compiled library writes, index digest (code fingerprint) included', async () => {
    const root = await tempTree({
      ...Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`specs/01-domain/entities/E${i}.md`, entity(`E${i}`, `E${(i + 1) % 6}`)])),
      // Front-matter the simple reader declines (a flow mapping): gray-matter, loaded on first use in the bundle, reads it.
      'specs/01-domain/entities/E6.md': `---\nkind: entity\naliases: [Sexto]\nowner: {name: Ana Quiroga, team: "índices: núcleo"}\n---\n# E6\n\n## Descripción\n\nUn E6 de un [[E0]].\n`,
    });
    roots.push(root);
    await run(process.execPath, [CLI, 'build', 'specs', '--out', 'cli/dist', '--index-dir', 'cli/.kdd-index', '--quiet'], { cwd: root });
    const { build } = (await import(LIBRARY)) as typeof import('../../index.js');
    await build({ specsDir: join(root, 'specs'), outDir: join(root, 'library/dist'), indexDir: join(root, 'library/.kdd-index') });
    const pointer = (side: string) => JSON.parse(readFileSync(join(root, side, 'dist/kdd.json'), 'utf8')) as { bundle: string; index_digest: string };
    expect(pointer('cli')).toEqual(pointer('library'));
    const bundle = pointer('cli').bundle;
    expect(readFileSync(join(root, 'cli/dist', bundle))).toEqual(readFileSync(join(root, 'library/dist', bundle)));
    expect(readFileSync(join(root, 'cli/.kdd-index/nodes/entity/E6.json'), 'utf8')).toContain('"aliases":["Sexto"]');
  });
});
