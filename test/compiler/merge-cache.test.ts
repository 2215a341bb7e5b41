/**
 * Merge caches (compiler/team/merge-write.ts): input record caches and the merge's pack memo make
 * repeated merges fast and never change a byte of the bundle. Every merge here is compared with a
 * merge of the same indexes that uses no cache at all (copies without `.cache/`, `cacheDir: false`).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CACHE_DIR, readRecordCache, recordCachePath } from '../../compiler/cache/record-cache.js';
import { buildIndex } from '../../compiler/pipeline.js';
import { BLOB_CACHE_FILE, MERGE_MEMO_FILE, mergeAndWrite, type MergeWriteOptions } from '../../compiler/team/merge-write.js';
import { worthRewriting } from '../../compiler/cache/rewrite-policy.js';
import { readIndexForMerge } from '../../compiler/team/merge-inputs.js';
import { tempTree, removedAfter } from '../helpers/temp-tree.js';

const roots = removedAfter('all');

const ENTITY = (name: string, text: string) => `---\nkind: entity\n---\n# ${name}\n\n## Descripción\n\n${text}\n`;
const RULE = (id: string, text: string) => `---\nid: ${id}\nkind: business-rule\n---\n# ${id} — Regla\n\n## Declaración\n\n${text}\n`;
const UC = '---\nid: UC-001\nkind: use-case\n---\n# UC-001 — Crear pedido\n\n## Descripción\n\nCrea un [[Pedido]] para un [[Usuario]].\n\n## Reglas Aplicadas\n\n- [[BR-PEDIDO-001]]\n';

/** Three developers' trees: a document two of them hold as is, one they edited differently, links across. */
const TREES: Record<string, Record<string, string>> = {
  a: {
    '01-domain/entities/Pedido.md': ENTITY('Pedido', 'Un pedido de un [[Usuario]], con líneas y total.'),
    '01-domain/rules/BR-PEDIDO-001.md': RULE('BR-PEDIDO-001', 'Todo [[Pedido]] tiene un total positivo.'),
    '01-domain/entities/Cliente.md': ENTITY('Cliente', 'Un [[Usuario]] con contrato.'),
  },
  b: {
    '01-domain/entities/Usuario.md': ENTITY('Usuario', 'Quien compra y paga sus pedidos.'),
    '01-domain/rules/BR-PEDIDO-001.md': RULE('BR-PEDIDO-001', 'Todo [[Pedido]] tiene un total positivo y una [[Factura]].'),
    '01-domain/entities/Cliente.md': ENTITY('Cliente', 'Un [[Usuario]] con contrato.'),
  },
  c: {
    '01-domain/entities/Factura.md': ENTITY('Factura', 'La factura de un [[Pedido]]; la emite el sistema.'),
    '02-behavior/use-cases/UC-001-Crear.md': UC,
  },
};
const DEVS = Object.keys(TREES);

async function setup() {
  const files: Record<string, string> = {};
  for (const [dev, tree] of Object.entries(TREES)) for (const [path, text] of Object.entries(tree)) files[`${dev}/specs/${path}`] = text;
  const root = await tempTree(files);
  roots.push(root);
  const dirs = (dev: string) => ({ specsDir: join(root, dev, 'specs'), outDir: join(root, dev, 'dist'), indexDir: join(root, dev, '.kdd-index'), level: 'L1' as const });
  for (const dev of DEVS) await buildIndex(dirs(dev));
  return { root, dirs, indexDirs: DEVS.map((dev) => dirs(dev).indexDir) };
}

async function bundleBytes(outDir: string): Promise<Buffer> {
  const pointer = JSON.parse(await readFile(join(outDir, 'kdd.json'), 'utf8')) as { bundle: string };
  return readFile(join(outDir, pointer.bundle));
}

let references = 0;
/** The bundle of the same inputs merged with no cache anywhere: copies of the folders without `.cache/`. */
async function uncached(root: string, indexDirs: readonly string[], options: Partial<MergeWriteOptions> = {}): Promise<Buffer> {
  const base = join(root, `reference-${references++}`);
  const copies = await Promise.all(
    indexDirs.map(async (dir, i) => {
      const copy = join(base, `in${i}`);
      await cp(dir, copy, { recursive: true, filter: (path) => !path.split(/[\\/]/).includes(CACHE_DIR) });
      return copy;
    }),
  );
  const outDir = join(base, 'dist');
  const report = await mergeAndWrite({ paths: copies, outDir, cacheDir: false, ...options });
  expect(report.cache).toEqual({ dir: null, record_caches: [], git_blob_hits: 0, git_blob_misses: 0, memo_hits: 0, memo_misses: 0 });
  expect(existsSync(join(outDir, CACHE_DIR))).toBe(false);
  return bundleBytes(outDir);
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

describe('merge caches', () => {
  it('from fresh record caches and a warm memo: the bytes of a merge with no cache, edit after edit', async () => {
    const { root, dirs, indexDirs } = await setup();
    const outDir = join(root, 'server-dist');
    const first = await mergeAndWrite({ paths: indexDirs, outDir });
    expect(first.cache).toMatchObject({ dir: join(outDir, CACHE_DIR), record_caches: indexDirs, memo_hits: 0, memo_misses: first.nodes });
    expect(first.stages_ms).toEqual({ read: expect.any(Number), merge: expect.any(Number), vectors: expect.any(Number), pack: expect.any(Number), write: expect.any(Number) });
    expect(await readFile(join(outDir, CACHE_DIR, '.gitignore'), 'utf8')).toBe('*\n');
    expect(existsSync(join(outDir, CACHE_DIR, MERGE_MEMO_FILE))).toBe(true);
    expect((await bundleBytes(outDir)).equals(await uncached(root, indexDirs))).toBe(true);

    const again = await mergeAndWrite({ paths: indexDirs, outDir });
    expect(again.cache).toMatchObject({ record_caches: indexDirs, memo_hits: first.nodes, memo_misses: 0 });
    expect(again.bundle).toEqual(first.bundle);

    // A server's next merge after a push: one document of one input edited and that input rebuilt.
    await appendFile(join(dirs('b').specsDir, '01-domain/entities/Usuario.md'), '\nTambién guarda su dirección de envío.\n');
    await buildIndex(dirs('b'));
    const edited = await mergeAndWrite({ paths: indexDirs, outDir });
    expect(edited.cache).toMatchObject({ record_caches: indexDirs, memo_hits: first.nodes - 1, memo_misses: 1 });
    expect(edited.bundle.hash).not.toBe(first.bundle.hash);
    expect((await bundleBytes(outDir)).equals(await uncached(root, indexDirs))).toBe(true);

    // A link added (the graph changes, not only a text) and a document deleted (a tombstone).
    await appendFile(join(dirs('c').specsDir, '01-domain/entities/Factura.md'), '\nSe envía al [[Usuario]].\n');
    await rm(join(dirs('a').specsDir, '01-domain/rules/BR-PEDIDO-001.md'));
    await buildIndex(dirs('c'));
    await buildIndex(dirs('a'));
    const relinked = await mergeAndWrite({ paths: indexDirs, outDir });
    expect(relinked.tombstones_applied).toBe(1);
    expect(relinked.cache.record_caches).toEqual(indexDirs);
    expect((await bundleBytes(outDir)).equals(await uncached(root, indexDirs))).toBe(true);
  }, 30_000);

  it('git-ref inputs with a warm memo and blob cache: the bytes of a merge with no cache, and of the same folders', async () => {
    const { root, dirs, indexDirs } = await setup();
    const repo = join(root, 'repo');
    await mkdir(repo);
    git(repo, 'init', '-q', '-b', 'main');
    git(repo, 'config', 'user.name', 'Test');
    git(repo, 'config', 'user.email', 'test@example.com');
    git(repo, 'config', 'commit.gpgsign', 'false');
    /** Commits developer `dev`'s current .kdd-index/ on branch `dev`. */
    const commit = async (dev: string) => {
      const exists = git(repo, 'branch', '--list', dev).trim() !== '';
      git(repo, 'checkout', '-q', ...(exists ? [dev] : DEVS.indexOf(dev) === 0 ? ['--orphan', dev] : ['-b', dev, DEVS[0]!]));
      await rm(join(repo, '.kdd-index'), { recursive: true, force: true });
      await cp(dirs(dev).indexDir, join(repo, '.kdd-index'), { recursive: true });
      git(repo, 'add', '-A', '.kdd-index');
      git(repo, 'commit', '-q', '-m', dev);
    };
    for (const dev of DEVS) await commit(dev);
    // `.kdd-index/.cache/` carries its own .gitignore: the refs hold no cache.
    expect(git(repo, 'ls-tree', '-r', '--name-only', 'a').split('\n').filter((path) => path.includes(CACHE_DIR))).toEqual([]);
    const outDir = join(root, 'git-dist');
    const merge = () => mergeAndWrite({ paths: [], refs: DEVS, repo, outDir });
    const cold = await merge();
    // 8 node files on the branches, 7 distinct blobs (Cliente is the same file on a and b), 6 nodes.
    const blobs = cold.cache.git_blob_misses;
    expect(cold.cache).toMatchObject({ git_blob_hits: 0, git_blob_misses: 7, memo_misses: cold.nodes });
    expect(cold.nodes).toBe(6);
    expect(existsSync(join(outDir, CACHE_DIR, BLOB_CACHE_FILE))).toBe(true);
    const warm = await merge();
    expect(warm.cache).toMatchObject({ record_caches: [], git_blob_hits: blobs, git_blob_misses: 0, memo_hits: cold.nodes, memo_misses: 0 });
    const bytes = await bundleBytes(outDir);
    const plain = join(root, 'git-plain');
    await mergeAndWrite({ paths: [], refs: DEVS, repo, outDir: plain, cacheDir: false });
    expect(bytes.equals(await bundleBytes(plain))).toBe(true);
    expect(bytes.equals(await uncached(root, indexDirs))).toBe(true);

    // A push: one document of one developer edited, rebuilt and committed. Only its node file is read.
    await appendFile(join(dirs('c').specsDir, '01-domain/entities/Factura.md'), '\nSe envía al [[Usuario]].\n');
    await buildIndex(dirs('c'));
    await commit('c');
    const pushed = await merge();
    expect(pushed.cache).toMatchObject({ git_blob_misses: 1, memo_misses: 1 });
    expect((await bundleBytes(outDir)).equals(await uncached(root, indexDirs))).toBe(true);

    // A corrupt blob cache is an empty one.
    await writeFile(join(outDir, CACHE_DIR, BLOB_CACHE_FILE), 'not a blob cache');
    const afterCorrupt = await merge();
    expect(afterCorrupt.cache).toMatchObject({ git_blob_hits: 0, git_blob_misses: blobs });
    expect(afterCorrupt.bundle).toEqual(pushed.bundle);
    // Truncated, or one byte changed (a body goes into the bundle as it is): the same.
    const file = join(outDir, CACHE_DIR, BLOB_CACHE_FILE);
    const full = await readFile(file);
    await writeFile(file, full.subarray(0, full.length - 100));
    expect((await merge()).cache).toMatchObject({ git_blob_hits: 0, git_blob_misses: blobs });
    const flipped = Buffer.from(await readFile(file));
    flipped.writeUInt8(flipped.readUInt8(flipped.length - 20) ^ 0x01, flipped.length - 20);
    await writeFile(file, flipped);
    expect((await merge()).cache).toMatchObject({ git_blob_hits: 0, git_blob_misses: blobs });
    expect((await bundleBytes(outDir)).equals(await uncached(root, indexDirs))).toBe(true);
  }, 30_000);

  it('a stale or corrupt input record cache, and a corrupt or unwritable memo, are ignored: same bytes', async () => {
    const { root, dirs, indexDirs } = await setup();
    const reference = await uncached(root, indexDirs);
    const [a, b] = indexDirs.map((dir) => recordCachePath(dir));

    // Stale: a cache of an earlier state of the folder (the manifest it was written with changed since).
    const old = await readFile(a!);
    await appendFile(join(dirs('a').specsDir, '01-domain/entities/Pedido.md'), '\nOtra línea.\n');
    await buildIndex(dirs('a'));
    const current = await uncached(root, indexDirs);
    expect(current.equals(reference)).toBe(false);
    await writeFile(a!, old);
    expect((await readIndexForMerge(indexDirs[0]!)).cached).toBe(false);
    // Corrupt: not a cache at all.
    await writeFile(b!, 'not a record cache');
    // A corrupt memo where the merge looks for it.
    const outDir = join(root, 'dist-stale');
    await mkdir(join(outDir, CACHE_DIR), { recursive: true });
    await writeFile(join(outDir, CACHE_DIR, MERGE_MEMO_FILE), 'not a memo');
    const report = await mergeAndWrite({ paths: indexDirs, outDir });
    expect(report.cache).toMatchObject({ record_caches: [indexDirs[2]], memo_hits: 0, memo_misses: report.nodes });
    expect((await bundleBytes(outDir)).equals(current)).toBe(true);
    // The corrupt memo was replaced by a good one.
    expect((await mergeAndWrite({ paths: indexDirs, outDir })).cache.memo_misses).toBe(0);

    // A memo that cannot be read nor written (a folder in its place) never fails the merge.
    const blocked = join(root, 'blocked-cache');
    await mkdir(join(blocked, MERGE_MEMO_FILE), { recursive: true });
    const unwritable = await mergeAndWrite({ paths: indexDirs, outDir: join(root, 'dist-blocked'), cacheDir: blocked });
    expect(unwritable.cache).toMatchObject({ dir: blocked, memo_hits: 0 });
    expect((await bundleBytes(join(root, 'dist-blocked'))).equals(current)).toBe(true);
  }, 30_000);

  it('a cache file is rewritten only when enough of it changed; in between, the few changed nodes are computed again', async () => {
    expect([worthRewriting(0, 0, 5), worthRewriting(0, 0, 0), worthRewriting(1000, 999, 1), worthRewriting(1000, 999, 17), worthRewriting(1000, 940, 1)]).toEqual([true, false, false, true, true]);
    const many: Record<string, string> = {};
    for (let i = 0; i < 30; i++) many[`x/specs/01-domain/entities/E${i}.md`] = ENTITY(`E${i}`, `Entidad ${i}, ligada a [[E${(i + 1) % 30}]].`);
    const root = await tempTree({ ...many, 'y/specs/01-domain/entities/Otro.md': ENTITY('Otro', 'Otro objeto.') });
    roots.push(root);
    const dirs = (dev: string) => ({ specsDir: join(root, dev, 'specs'), outDir: join(root, dev, 'dist'), indexDir: join(root, dev, '.kdd-index'), level: 'L1' as const });
    await buildIndex(dirs('x'));
    await buildIndex(dirs('y'));
    const paths = [dirs('x').indexDir, dirs('y').indexDir];
    const outDir = join(root, 'out');
    await mergeAndWrite({ paths, outDir });
    const memoFile = join(outDir, CACHE_DIR, MERGE_MEMO_FILE);
    const before = await readFile(memoFile);
    await appendFile(join(dirs('x').specsDir, '01-domain/entities/E7.md'), '\nUna frase más.\n');
    await buildIndex(dirs('x'));
    // 1 of 31 entries changed: the memo file stays as it was, and the edited node is computed each time.
    for (let i = 0; i < 2; i++) {
      const report = await mergeAndWrite({ paths, outDir });
      expect(report.cache).toMatchObject({ memo_hits: 30, memo_misses: 1 });
      expect((await readFile(memoFile)).equals(before)).toBe(true);
      expect((await bundleBytes(outDir)).equals(await uncached(root, paths))).toBe(true);
    }
  }, 30_000);

  it('a merged --index-dir gets the record cache of what was written, so it is a fast input in turn', async () => {
    const { root, indexDirs } = await setup();
    const merged = join(root, 'team', '.kdd-index');
    // Whatever cache was there before belongs to another manifest.
    await mkdir(join(merged, CACHE_DIR), { recursive: true });
    await writeFile(recordCachePath(merged), 'left over');
    await mergeAndWrite({ paths: indexDirs, outDir: join(root, 'team', 'dist'), indexDir: merged });
    const cache = await readRecordCache(recordCachePath(merged), await readFile(join(merged, 'manifest.json'), 'utf8'));
    expect(cache?.records.map((record) => record.node.id)).toEqual((await readIndexForMerge(merged)).records.map((record) => record.node.id));
    const fromFiles = join(root, 'copy');
    await cp(merged, fromFiles, { recursive: true, filter: (path) => !path.split(/[\\/]/).includes(CACHE_DIR) });
    const viaCache = await mergeAndWrite({ paths: [merged, indexDirs[0]!], outDir: join(root, 'again'), cacheDir: false });
    expect(viaCache.cache.record_caches).toEqual([merged, indexDirs[0]]);
    const viaFiles = await mergeAndWrite({ paths: [fromFiles, indexDirs[0]!], outDir: join(root, 'again-files'), cacheDir: false });
    expect(viaFiles.cache.record_caches).toEqual([indexDirs[0]]);
    expect(viaCache.bundle.hash).toBe(viaFiles.bundle.hash);
  }, 30_000);
});
