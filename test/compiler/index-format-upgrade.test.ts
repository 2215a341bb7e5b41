/**
 * An index committed by an older kdd (index format 1: pretty-printed node files, text repeated) is
 * read, never misread: `kdd build` rebuilds it in the current format with a warning, merges take it
 * as it is (folders and git refs), and everything ends in the bytes a fresh build gives.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildIndex } from '../../compiler/pipeline.js';
import { mergeAndWrite } from '../../compiler/team/merge-write.js';
import { stableJson } from '../../formats/canonical.js';
import { INDEX_FORMAT_VERSION } from '../../formats/index-dir/manifest.js';
import { parseNodeFile } from '../../formats/index-dir/node-file.js';
import { writeTree } from '../helpers/arbitrary-tree.js';
import { removedAfter } from '../helpers/temp-tree.js';

const roots = removedAfter('all');

const ENTITY = '---\nid: Pedido\nkind: entity\n---\n# Pedido\n\n## Descripción\n\nUn pedido de un [[Usuario]].\n\n## Atributos\n\n| Atributo | Tipo |\n|---|---|\n| total | [[Dinero]] |\n\n## Invariantes\n\n- El total es positivo.\n';
const USER = '---\nid: Usuario\nkind: entity\n---\n# Usuario\n\n## Descripción\n\nQuien compra.\n';
const RULE = '---\nid: BR-PEDIDO-001\nkind: business-rule\n---\n# BR-PEDIDO-001 — Total\n\n## Declaración\n\nUn [[Pedido]] tiene total positivo.\n';
const TREE = { '01-domain/entities/Pedido.md': ENTITY, '01-domain/entities/Usuario.md': USER, '01-domain/rules/BR-PEDIDO-001.md': RULE };

async function fresh(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'kdd-format-'));
  roots.push(root);
  return root;
}

const dirs = (root: string, name = '') => ({ specsDir: join(root, 'specs'), outDir: join(root, `dist${name}`), indexDir: join(root, `.kdd-index${name}`) });

async function files(dir: string): Promise<Record<string, string>> {
  const paths = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile() && !join(entry.parentPath, entry.name).includes('.cache'));
  const out: Record<string, string> = {};
  for (const entry of paths) out[join(entry.parentPath, entry.name).slice(dir.length + 1)] = await readFile(join(entry.parentPath, entry.name), 'utf8');
  return out;
}

/** Rewrites a `.kdd-index/` as kdd wrote it before index format 2 (and drops the local caches). */
async function downgrade(indexDir: string): Promise<void> {
  await rm(join(indexDir, '.cache'), { recursive: true, force: true });
  for (const [path, text] of Object.entries(await files(indexDir))) {
    if (path.startsWith('nodes/')) {
      const { node, links } = parseNodeFile(text);
      await writeFile(join(indexDir, path), stableJson({ ...node, links }));
    }
  }
  const manifest = JSON.parse(await readFile(join(indexDir, 'manifest.json'), 'utf8'));
  await writeFile(join(indexDir, 'manifest.json'), stableJson({ ...manifest, version: '1.0.0' }));
}

const bundleOf = async (outDir: string) => JSON.parse(await readFile(join(outDir, 'kdd.json'), 'utf8')).bundle as string;

describe('an index of the previous format (1.0.0)', () => {
  it('is rebuilt by kdd build with a warning, in the bytes of a fresh build, keeping the tombstones of what was deleted since', async () => {
    const root = await fresh();
    await writeTree(join(root, 'specs'), TREE);
    await buildIndex(dirs(root));
    await downgrade(join(root, '.kdd-index'));
    const old = await files(join(root, '.kdd-index'));
    expect(old['nodes/entity/Pedido.json']).toMatch(/^\{\n {2}"aliases"/);
    await rm(join(root, 'specs/01-domain/rules/BR-PEDIDO-001.md'));

    const report = await buildIndex(dirs(root));
    expect(report.mode).toBe('full');
    expect(report.full_reason).toBe(`index format 1.0.0 differs from ${INDEX_FORMAT_VERSION}`);
    expect(report.warnings.map((w) => w.code)).toContain('INDEX_FORMAT_CHANGED');
    expect(report.changes.tombstoned).toEqual(['BR:BR-PEDIDO-001']);

    const clean = await fresh();
    await writeTree(join(clean, 'specs'), { '01-domain/entities/Pedido.md': ENTITY, '01-domain/entities/Usuario.md': USER });
    await buildIndex(dirs(clean));
    const upgraded = await files(join(root, '.kdd-index'));
    const { 'tombstones.jsonl': tombstones, ...rest } = upgraded;
    expect(rest).toEqual(await files(join(clean, '.kdd-index')));
    expect(tombstones).toMatch(/"node_id":"BR:BR-PEDIDO-001"/);
    expect(await bundleOf(dirs(root).outDir)).toBe(await bundleOf(dirs(clean).outDir));
    // And the next build finds nothing to do.
    expect((await buildIndex(dirs(root))).index_dir).toEqual({ written: 0, removed: 0 });
  });

  it('merges with an index of the current format, from folders and from git refs, into the bundle of the current format alone', async () => {
    const root = await fresh();
    await writeTree(join(root, 'specs'), TREE);
    await buildIndex(dirs(root));
    await buildIndex(dirs(root, '-old'));
    await downgrade(join(root, '.kdd-index-old'));
    const current = await mergeAndWrite({ paths: [dirs(root).indexDir, dirs(root).indexDir], outDir: join(root, 'merged-current'), cacheDir: false });
    const mixed = await mergeAndWrite({ paths: [dirs(root, '-old').indexDir, dirs(root).indexDir], outDir: join(root, 'merged-mixed'), cacheDir: false });
    expect(mixed.bundle.bundle).toBe(current.bundle.bundle);

    const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'pipe', env: { ...process.env, GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@b', GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@b' } });
    git('init', '-q', '-b', 'new');
    git('add', '.kdd-index');
    git('commit', '-qm', 'index, format 2');
    git('checkout', '-q', '-b', 'old');
    await rm(join(root, '.kdd-index'), { recursive: true });
    execFileSync('cp', ['-r', dirs(root, '-old').indexDir, dirs(root).indexDir]);
    git('add', '-A', '.kdd-index');
    git('commit', '-qm', 'index, format 1');
    const fromGit = await mergeAndWrite({ paths: [], refs: ['old', 'new'], repo: root, outDir: join(root, 'merged-git'), cacheDir: false });
    expect(fromGit.bundle.bundle).toBe(current.bundle.bundle);
  });

  it('a newer major than this kdd reads is refused by merge and rebuilt by build, never read', async () => {
    const root = await fresh();
    await writeTree(join(root, 'specs'), TREE);
    await buildIndex(dirs(root));
    const path = join(dirs(root).indexDir, 'manifest.json');
    const manifest = JSON.parse(await readFile(path, 'utf8'));
    await writeFile(path, stableJson({ ...manifest, version: '9.0.0' }));
    await expect(mergeAndWrite({ paths: [dirs(root).indexDir, dirs(root).indexDir], outDir: join(root, 'merged'), cacheDir: false })).rejects.toMatchObject({ code: 'INCOMPATIBLE_VERSION' });
    const report = await buildIndex(dirs(root));
    expect(report.mode).toBe('full');
    expect(report.warnings.map((w) => w.code)).toContain('INDEX_FORMAT_CHANGED');
  });
});
