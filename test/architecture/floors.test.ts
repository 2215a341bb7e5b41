/**
 * The floors of the code (docs/architecture.md): which top-level folder may import which. Read from
 * the import specifiers of every source file, static and dynamic, so a new import that climbs a
 * floor fails here instead of going unnoticed until the site bundles Node code or the runtime
 * drags the compiler along.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { basename, dirname, join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CODE = ['model', 'formats', 'runtime', 'compiler', 'library', 'server', 'cli', 'site/src', 'test', 'bench', 'index.ts'];

interface Import {
  /** Importing file, from the repository root. */
  from: string;
  /** Imported file from the repository root (relative specifiers), or the bare specifier. */
  to: string;
  relative: boolean;
}

function sourceFiles(path: string): string[] {
  const full = join(ROOT, path);
  if (path.endsWith('.ts')) return [path];
  return readdirSync(full, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name === 'fixtures') return [];
    const child = posix.join(path, entry.name);
    if (entry.isDirectory()) return sourceFiles(child);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [child] : [];
  });
}

function importsOf(file: string): Import[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true);
  return importedFiles.map(({ fileName }) => {
    if (!fileName.startsWith('.')) return { from: file, to: fileName, relative: false };
    const target = relative(ROOT, join(ROOT, dirname(file), fileName)).split(sep).join('/');
    return { from: file, to: target.replace(/\.js$/, '.ts'), relative: true };
  });
}

const IMPORTS = CODE.flatMap(sourceFiles).flatMap(importsOf);
const folderOf = (path: string) => path.split('/')[0]!;
const inFolder = (path: string, folders: readonly string[]) => folders.includes(folderOf(path));

/** `from → to` for each import of a file in `importers` that lands in one of `targets`. */
function crossing(importers: readonly string[], targets: readonly string[]): string[] {
  return IMPORTS.filter((i) => i.relative && inFolder(i.from, importers) && inFolder(i.to, targets)).map((i) => `${i.from} → ${i.to}`);
}

describe('floors: who may import whom', () => {
  it('sees the code it checks (the scan itself works)', () => {
    expect(IMPORTS.some((i) => i.from === 'compiler/pipeline.ts' && i.to === 'compiler/read.ts')).toBe(true);
    expect(IMPORTS.some((i) => i.from.startsWith('site/src/') && i.to.startsWith('runtime/'))).toBe(true);
    expect(IMPORTS.some((i) => i.from.startsWith('formats/') && i.to === 'msgpackr')).toBe(true);
    expect(crossing(['site'], ['site']).length).toBeGreaterThan(0);
  });

  it('the compiler, the library, the runtime, the formats and the model never import the site app', () => {
    expect(crossing(['compiler', 'library', 'runtime', 'formats', 'model'], ['site'])).toEqual([]);
  });

  it('the runtime, the formats and the model never import the compiler (nor the adapters above it)', () => {
    expect(crossing(['runtime', 'formats', 'model'], ['compiler', 'library', 'server', 'cli'])).toEqual([]);
  });

  it('the model imports nothing outside model/, the formats nothing but model/', () => {
    expect(crossing(['model'], ['formats', 'runtime', 'compiler', 'library', 'server', 'cli', 'site'])).toEqual([]);
    expect(crossing(['formats'], ['runtime', 'compiler', 'library', 'server', 'cli', 'site'])).toEqual([]);
  });

  it('the site app never imports the compiler, the library or the adapters (it runs in browsers)', () => {
    expect(crossing(['site'], ['compiler', 'library', 'server', 'cli'])).toEqual([]);
  });

  it('the formats and the model are isomorphic: no Node built-in module', () => {
    const node = IMPORTS.filter((i) => !i.relative && inFolder(i.from, ['formats', 'model']) && isBuiltin(i.to)).map((i) => `${i.from} → ${i.to}`);
    expect(node).toEqual([]);
  });

  it('a `_` file is private to its folder', () => {
    const leaks = IMPORTS.filter((i) => i.relative && basename(i.to).startsWith('_') && folderOf(i.to) !== 'test' && dirname(i.to) !== dirname(i.from)).map((i) => `${i.from} → ${i.to}`);
    expect(leaks).toEqual([]);
  });
});
