/**
 * Hostile trees and ordinary faults (docs/integrity.md): every case ends in the bytes of a clean
 * full build of the same specs, or in a typed refusal that leaves the previous index and bundle as
 * they were. Each case was first seen failing (stale bundle, takeover, wipe, raw SyntaxError…).
 */
import { execFileSync } from 'node:child_process';
import { appendFile, chmod, cp, mkdir, mkdtemp, readdir, readFile, rename, rm, symlink, truncate, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../cli/main.js';
import { MASS_DELETE_MIN } from '../../compiler/mass-delete.js';
import { buildIndex, type IndexBuildOptions } from '../../compiler/pipeline.js';
import { capture } from '../helpers/cli-io.js';
import { FIXTURES, removedAfter } from '../helpers/temp-tree.js';

const roots = removedAfter('all');

/** A fresh folder holding a copy of the shop fixture in `specs/`. */
async function shop(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'kdd-hostile-'));
  roots.push(root);
  await cp(join(FIXTURES, 'shop'), join(root, 'specs'), { recursive: true });
  return root;
}

const dirs = (root: string, out = 'dist') => ({ specsDir: join(root, 'specs'), outDir: join(root, out), indexDir: join(root, '.kdd-index'), level: 'L1' as const });
const kdd = (root: string, options: Partial<IndexBuildOptions> = {}) => buildIndex({ ...dirs(root), ...options });

async function files(dir: string): Promise<Record<string, string>> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  const out: Record<string, string> = {};
  for (const entry of entries) {
    const path = relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/');
    if (entry.isFile() && !path.startsWith('.cache/')) out[path] = await readFile(join(dir, path), 'latin1');
  }
  return out;
}

/** The bundle `dist/kdd.json` names, with the pointer. */
async function bundleOf(dir: string): Promise<{ pointer: string; bytes: Buffer }> {
  const pointer = await readFile(join(dir, 'kdd.json'), 'utf8');
  return { pointer, bytes: await readFile(join(dir, (JSON.parse(pointer) as { bundle: string }).bundle)) };
}

/** What a clean full build of `root/specs` gives: its bundle, pointer and committed index files. */
async function cleanBuild(root: string): Promise<{ pointer: string; bytes: Buffer; index: Record<string, string> }> {
  const clean = await mkdtemp(join(tmpdir(), 'kdd-clean-'));
  roots.push(clean);
  await buildIndex({ specsDir: join(root, 'specs'), outDir: join(clean, 'dist'), indexDir: join(clean, '.kdd-index'), level: 'L1', mode: 'full' });
  return { ...(await bundleOf(join(clean, 'dist'))), index: await files(join(clean, '.kdd-index')) };
}

/** The bundle and index of `root` are those of a clean build (tombstones aside: a clean build has seen no deletion). */
async function expectCleanBytes(root: string): Promise<void> {
  const clean = await cleanBuild(root);
  const now = await bundleOf(join(root, 'dist'));
  expect(withoutIndexBytes(now.pointer)).toEqual(withoutIndexBytes(clean.pointer));
  expect(now.bytes.equals(clean.bytes)).toBe(true);
  const { 'tombstones.jsonl': _, ...index } = await files(join(root, '.kdd-index'));
  expect(withoutGitTimes(index)).toEqual(withoutGitTimes(clean.index));
}

/**
 * The pointer without the committed index's size: that folder has history a clean build lacks
 * (tombstones, node files that keep the git time they were written with).
 */
function withoutIndexBytes(pointer: string): unknown {
  const { sizes, ...rest } = JSON.parse(pointer) as { sizes: { index_bytes?: number; index_ratio?: number } };
  const { index_bytes: _, index_ratio: __, ...others } = sizes;
  return { ...rest, sizes: others };
}

/**
 * Committed files keep the git facts they were written with when only git moved (a commit of the
 * same bytes: docs/decisions/index-times.md); the bundle above carries the current ones.
 */
function withoutGitTimes(index: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [path, text] of Object.entries(index)) {
    if (!path.endsWith('.json')) out[path] = text;
    else out[path] = { ...(JSON.parse(text) as object), indexed_at: null, ...(path === 'manifest.json' && { git_commit: null }) };
  }
  return out;
}

async function cli(root: string, argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const { io, out, err } = capture(root);
  const code = await runCli(argv, io);
  return { code, out: out.join(''), err: err.join('') };
}

const PEDIDO = 'specs/01-domain/entities/Pedido.md';
const COMMAND = 'specs/02-behavior/commands/CMD-001-CrearPedido.md';

describe('the bundle always matches the index', () => {
  it('a build to another --out does not leave the default bundle stale', async () => {
    const root = await shop();
    await kdd(root);
    await appendFile(join(root, PEDIDO), '\nUna palabra nueva: zzqxstale.\n');
    await kdd(root, { outDir: join(root, 'other') });
    const report = await kdd(root);
    expect(report.bundle_reused).toBe(false);
    expect((await bundleOf(join(root, 'dist'))).bytes.includes('zzqxstale')).toBe(true);
    await expectCleanBytes(root);
  });

  it.each([
    ['truncated', (path: string) => truncate(path, 100)],
    ['one byte flipped', async (path: string) => {
      const bytes = await readFile(path);
      const at = bytes.length >> 1;
      bytes[at] = bytes[at]! ^ 0xff;
      await writeFile(path, bytes);
    }],
    ['deleted', (path: string) => unlink(path)],
  ])('a %s bundle in dist/ is replaced by the next build', async (_, damage) => {
    const root = await shop();
    await kdd(root);
    const pointer = JSON.parse(await readFile(join(root, 'dist', 'kdd.json'), 'utf8')) as { bundle: string };
    await damage(join(root, 'dist', pointer.bundle));
    expect((await kdd(root)).bundle_reused).toBe(false);
    await expectCleanBytes(root);
  });

  it('an unchanged tree with an intact bundle keeps it without packing', async () => {
    const root = await shop();
    await kdd(root);
    expect((await kdd(root)).bundle_reused).toBe(true);
  });
});

describe('committed index files that are damaged', () => {
  const node = (root: string) => join(root, '.kdd-index', 'nodes', 'entity', 'Pedido.json');

  it.each([
    ['garbage', 'not json at all {{{'],
    ['git conflict markers', '<<<<<<< HEAD\n{"id": "Entity:Pedido"}\n=======\n{"id": "Entity:Pedido", "title": "x"}\n>>>>>>> theirs\n'],
    ['valid JSON of the wrong shape', '{"hello": "world"}'],
  ])('a node file holding %s is named in a warning and rebuilt (incremental and --full)', async (_, text) => {
    for (const mode of ['auto', 'full'] as const) {
      const root = await shop();
      await kdd(root);
      await rm(join(root, '.kdd-index', '.cache'), { recursive: true }); // as after a fresh clone
      await writeFile(node(root), text);
      const report = await kdd(root, { mode });
      expect(report.warnings).toContainEqual(expect.objectContaining({ code: 'INDEX_FILE_CORRUPT', file: '.kdd-index/nodes/entity/Pedido.json' }));
      await expectCleanBytes(root);
    }
  });

  it('a garbage manifest.json is named in a warning; the build is full and clean', async () => {
    const root = await shop();
    await kdd(root);
    await writeFile(join(root, '.kdd-index', 'manifest.json'), '<<<<<<< HEAD\n{}\n');
    const report = await kdd(root);
    expect(report.mode).toBe('full');
    expect(report.warnings).toContainEqual(expect.objectContaining({ code: 'INDEX_FILE_CORRUPT', file: '.kdd-index/manifest.json' }));
    await expectCleanBytes(root);
  });

  it('a manifest of another format version ("version": 99) rebuilds in full', async () => {
    const root = await shop();
    await kdd(root);
    await writeFile(join(root, '.kdd-index', 'manifest.json'), '{"version": 99, "sources": {}}');
    const report = await kdd(root);
    expect(report.warnings.map((w) => w.code)).toContain('INDEX_FILE_CORRUPT');
    await expectCleanBytes(root);
  });

  it.each([
    ['deleted', (path: string) => unlink(path)],
    ['edited', (path: string) => writeFile(path, '{"id": "Entity:Pedido", "source_file": "x", "source_hash": "0", "links": []}\n')],
  ])('a %s node file is restored by the next build (record cache present)', async (_, damage) => {
    const root = await shop();
    await kdd(root);
    await damage(node(root));
    const report = await kdd(root);
    expect(report.index_dir.written).toBeGreaterThan(0);
    await expectCleanBytes(root);
  });

  it('a node file edited by hand (valid JSON, source_hash intact) is rewritten from its spec even without the record cache', async () => {
    const root = await shop();
    await kdd(root);
    const committed = await readFile(node(root), 'utf8');
    await rm(join(root, '.kdd-index', '.cache'), { recursive: true }); // as after a fresh clone
    await writeFile(node(root), committed.replace(/"title": ?"Pedido"/, '"title":"zzqxforged"'));
    expect(await readFile(node(root), 'utf8')).toContain('zzqxforged');
    const report = await kdd(root);
    expect(report.warnings).toContainEqual(expect.objectContaining({ code: 'INDEX_FILE_MISMATCH', file: '.kdd-index/nodes/entity/Pedido.json' }));
    expect((await bundleOf(join(root, 'dist'))).bytes.includes('zzqxforged')).toBe(false);
    expect(await readFile(node(root), 'utf8')).toBe(committed);
    await expectCleanBytes(root);
  });

  it('temp files a killed build left are removed', async () => {
    const root = await shop();
    await kdd(root);
    // What a build killed mid-write leaves: its in-progress marker and half-written temp files.
    await writeFile(join(root, '.kdd-index', '.cache', 'build-in-progress'), '4242\n');
    await writeFile(join(root, '.kdd-index', 'manifest.json.4242.tmp'), 'half');
    await writeFile(join(root, '.kdd-index', 'nodes', 'entity', 'Pedido.json.4242.tmp'), 'half');
    await writeFile(join(root, 'dist', 'kdd.json.4242.tmp'), 'half');
    await appendFile(join(root, PEDIDO), '\nMás.\n');
    await kdd(root);
    await expectCleanBytes(root);
    expect(Object.keys(await files(join(root, 'dist'))).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});

describe('a build that would wipe the index is refused', () => {
  async function refused(root: string, specsDir: string): Promise<void> {
    const [index, dist] = [await files(join(root, '.kdd-index')), await files(join(root, 'dist'))];
    await expect(kdd(root, { specsDir })).rejects.toMatchObject({ code: 'MASS_DELETE_REFUSED' });
    expect(await files(join(root, '.kdd-index'))).toEqual(index);
    expect(await files(join(root, 'dist'))).toEqual(dist);
  }

  it('an empty specs folder: refused, nothing written; --allow-mass-delete lets it through', async () => {
    const root = await shop();
    await kdd(root);
    await mkdir(join(root, 'empty'));
    await refused(root, join(root, 'empty'));
    const cmd = await cli(root, ['build', 'empty', '--strict']);
    expect(cmd.code).toBe(1);
    expect(cmd.err).toContain('MASS_DELETE_REFUSED');
    const allowed = await kdd(root, { specsDir: join(root, 'empty'), allowMassDelete: true });
    expect(allowed.nodes).toBe(0);
  });

  it('another project’s tree (every document replaced) is refused', async () => {
    const root = await shop();
    await kdd(root);
    await mkdir(join(root, 'other'));
    await writeFile(join(root, 'other', 'X.md'), '---\nkind: entity\n---\n# X\n');
    await refused(root, join(root, 'other'));
  });

  it(`more than half of an index of ${MASS_DELETE_MIN}+ documents is refused; half is allowed`, async () => {
    const root = await mkdtemp(join(tmpdir(), 'kdd-hostile-'));
    roots.push(root);
    const total = MASS_DELETE_MIN * 2;
    for (let i = 0; i < total; i++) await mkdir(join(root, 'specs'), { recursive: true }).then(() => writeFile(join(root, 'specs', `E${i}.md`), `---\nkind: entity\n---\n# E${i}\n`));
    await kdd(root);
    for (let i = 0; i < total / 2; i++) await unlink(join(root, 'specs', `E${i}.md`));
    expect((await kdd(root)).changes.tombstoned).toHaveLength(total / 2);
    await unlink(join(root, 'specs', `E${total / 2}.md`));
    await writeFile(join(root, 'specs', `E0.md`), `---\nkind: entity\n---\n# E0\n`);
    await kdd(root); // revives E0, deletes one: fine
    for (let i = total / 2 + 1; i < total; i++) await unlink(join(root, 'specs', `E${i}.md`));
    await expect(kdd(root)).rejects.toMatchObject({ code: 'MASS_DELETE_REFUSED' });
  });
});

describe('the specs root given', () => {
  it.each([
    ['a missing folder', 'missing-dir'],
    ['a file', 'specs/01-domain/entities/Pedido.md'],
  ])('%s is a typed usage error (exit 2), nothing written', async (_, arg) => {
    const root = await shop();
    const result = await cli(root, ['build', arg]);
    expect(result.code).toBe(2);
    expect(result.err).toContain('SPECS_NOT_FOUND');
    expect(result.err).not.toContain('    at ');
    expect(await files(join(root, '.kdd-index'))).toEqual({});
  });
});

describe('duplicate ids', () => {
  const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, stdio: 'pipe' });

  it('a newcomer copying a committed document never takes it over; the warning names the newcomer', async () => {
    const root = await shop();
    git(root, 'init', '-q');
    git(root, 'add', '.');
    git(root, 'commit', '-qm', 'specs');
    const first = await kdd(root);
    // "A-copy" sorts before "CMD-001-…": path order alone would hand it the id.
    await cp(join(root, COMMAND), join(root, 'specs/02-behavior/commands/A-copy.md'));
    const report = await kdd(root);
    expect(report.edges).toBe(first.edges);
    expect(report.warnings).toContainEqual(expect.objectContaining({ code: 'DUPLICATE_ID', file: '02-behavior/commands/A-copy.md' }));
    expect(report.warnings.find((w) => w.code === 'DUPLICATE_ID')!.message).toContain('stays with 02-behavior/commands/CMD-001-CrearPedido.md');
    const node = JSON.parse(await readFile(join(root, '.kdd-index/nodes/command/CMD-001.json'), 'utf8')) as { source_file: string };
    expect(node.source_file).toBe('02-behavior/commands/CMD-001-CrearPedido.md');
    await expectCleanBytes(root);
    // Committing the copy later does not change who owns the id.
    git(root, 'add', '.');
    git(root, 'commit', '-qm', 'copy');
    await kdd(root);
    await expectCleanBytes(root);
  });
});

describe('a fresh clone (no local record cache)', () => {
  const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, stdio: 'pipe' }).toString();

  /** A repository with the shop specs and their committed index, cloned into a new folder. */
  async function cloned(): Promise<string> {
    const origin = await shop();
    await writeFile(join(origin, '.gitignore'), 'dist/\n');
    git(origin, 'init', '-q');
    expect((await cli(origin, ['build', '--json'])).code).toBe(0);
    git(origin, 'add', '.');
    git(origin, 'commit', '-qm', 'specs and index');
    const clone = await mkdtemp(join(tmpdir(), 'kdd-clone-'));
    roots.push(clone);
    git(tmpdir(), 'clone', '-q', origin, clone);
    return clone;
  }

  it('kdd build leaves an untouched clone clean (git times moved, nothing rewritten)', async () => {
    const clone = await cloned();
    const { code, out } = await cli(clone, ['build', '--json']);
    expect(code).toBe(0);
    expect((JSON.parse(out) as { warnings: unknown[] }).warnings).toEqual([]);
    expect(git(clone, 'status', '--porcelain')).toBe('');
  });

  it('a node file edited by hand (valid JSON, source_hash intact) is restored, with a warning naming it', async () => {
    const clone = await cloned();
    const path = join(clone, '.kdd-index', 'nodes', 'entity', 'Pedido.json');
    const committed = await readFile(path, 'utf8');
    await writeFile(path, committed.replace(/"title": ?"Pedido"/, '"title":"zzqxforged"'));
    expect(await readFile(path, 'utf8')).toContain('zzqxforged'); // the edit took
    const { code, out, err } = await cli(clone, ['build']);
    expect(code).toBe(0);
    expect(out + err).toContain('INDEX_FILE_MISMATCH');
    expect(out + err).toContain('.kdd-index/nodes/entity/Pedido.json');
    expect(git(clone, 'status', '--porcelain')).toBe('');
    const search = await cli(clone, ['search', 'zzqxforged', '--json']);
    expect(search.out).not.toContain('Entity:Pedido');
    expect((await cli(clone, ['build', '--strict'])).code).toBe(0);
  });
});

describe('symlinks', () => {
  it('file and folder links leaving the specs root are never read, one warning per link', async () => {
    const root = await shop();
    const outside = join(root, 'outside');
    await mkdir(join(outside, 'folder'), { recursive: true });
    await writeFile(join(outside, 'Secret.md'), '---\nkind: entity\n---\n# Secret\n\nzzqxsecret\n');
    await writeFile(join(outside, 'folder', 'Other.md'), '---\nkind: entity\n---\n# Other\n\nzzqxsecret\n');
    await symlink(join(outside, 'Secret.md'), join(root, 'specs', 'Secret.md'));
    await symlink(join(outside, 'folder'), join(root, 'specs', 'linked'));
    await symlink(join(root, PEDIDO), join(root, 'specs', 'Inside.md')); // inside the root: fine (duplicate id, warned as such)
    const report = await kdd(root);
    const links = report.warnings.filter((w) => w.code === 'SYMLINK_OUTSIDE_ROOT');
    expect(links.map((w) => w.file)).toEqual(['Secret.md', 'linked']);
    expect((await bundleOf(join(root, 'dist'))).bytes.includes('zzqxsecret')).toBe(false);
  });
});

describe('other hostile trees', () => {
  it('a 5,000-level blockquote is indexed (no stack overflow)', async () => {
    const root = await shop();
    await writeFile(join(root, 'specs', 'Deep.md'), `---\nkind: entity\n---\n# Deep\n\n${'>'.repeat(5000)} zzqxdeep\n`);
    const report = await kdd(root);
    expect(report.warnings.filter((w) => w.file === 'Deep.md' && w.code !== 'KIND_LOCATION_MISMATCH')).toEqual([]);
    expect((await bundleOf(join(root, 'dist'))).bytes.includes('zzqxdeep')).toBe(true);
  });

  it('a 3,000-level nested list is indexed (no stack overflow, indentation bounded)', async () => {
    const root = await shop();
    await writeFile(join(root, 'specs', 'Deep.md'), `---\nkind: entity\n---\n# Deep\n\n## Descripción\n\n${'- '.repeat(3000)}zzqxdeep\n`);
    const report = await kdd(root);
    expect(report.warnings.filter((w) => w.file === 'Deep.md' && w.code !== 'KIND_LOCATION_MISMATCH')).toEqual([]);
    const { bytes } = await bundleOf(join(root, 'dist'));
    expect(bytes.includes('zzqxdeep')).toBe(true);
    expect(bytes.length).toBeLessThan(200_000);
  });

  it('an empty spec file gets a warning', async () => {
    const root = await shop();
    await writeFile(join(root, 'specs', 'Empty.md'), '');
    const report = await kdd(root);
    expect(report.warnings).toContainEqual(expect.objectContaining({ code: 'EMPTY_DOCUMENT', file: 'Empty.md' }));
  });

  it.skipIf(process.getuid?.() === 0)('a file without read permission is an UNREADABLE_FILE warning naming it', async () => {
    const root = await shop();
    await writeFile(join(root, 'specs', 'Locked.md'), '---\nkind: entity\n---\n# Locked\n');
    await chmod(join(root, 'specs', 'Locked.md'), 0o000);
    const report = await kdd(root);
    expect(report.warnings).toContainEqual(expect.objectContaining({ code: 'UNREADABLE_FILE', file: 'Locked.md' }));
    await chmod(join(root, 'specs', 'Locked.md'), 0o644);
  });

  it('a dangling link and a link to a folder are UNREADABLE_FILE warnings, never a crash or a hang', async () => {
    const root = await shop();
    await symlink(join(root, 'specs', 'nowhere.md'), join(root, 'specs', 'Dangling.md'));
    await mkdir(join(root, 'specs', 'dir-target'));
    await symlink(join(root, 'specs', 'dir-target'), join(root, 'specs', 'Folder.md'));
    const report = await kdd(root);
    expect(report.warnings.filter((w) => w.code === 'UNREADABLE_FILE').map((w) => w.file)).toEqual(['Dangling.md', 'Folder.md']);
  });

  it('names with odd characters build, and rebuild incrementally to clean bytes', async () => {
    const root = await shop();
    const odd = ["Ñandú café #1 (copia) 'x' & y.md", 'emoji 🚀 spec.md', 'ü\u0308 combining.md'];
    for (const [i, name] of odd.entries()) await writeFile(join(root, 'specs', name), `---\nkind: entity\nid: Odd${i}\n---\n# Odd ${i}\n\n[[Pedido]]\n`);
    await kdd(root);
    await appendFile(join(root, 'specs', odd[0]!), '\nMás.\n');
    await kdd(root);
    await expectCleanBytes(root);
  });

  it('a case-only rename rebuilds to clean bytes', async () => {
    const root = await shop();
    await kdd(root);
    await rename(join(root, PEDIDO), join(root, 'specs/01-domain/entities/pedido.md'));
    await kdd(root);
    await expectCleanBytes(root);
  });

  it('a file changing while the build reads the tree: the next build gives clean bytes', async () => {
    const root = await shop();
    await kdd(root);
    let step = 0;
    await appendFile(join(root, PEDIDO), '\nUno.\n');
    await kdd(root, { onProgress: () => void (step++ === 0 && appendFile(join(root, 'specs/01-domain/entities/Customer.md'), '\nDos zzqxrace.\n')) });
    await new Promise((done) => setTimeout(done, 50));
    await kdd(root);
    await expectCleanBytes(root);
    expect((await bundleOf(join(root, 'dist'))).bytes.includes('zzqxrace')).toBe(true);
  });
});
