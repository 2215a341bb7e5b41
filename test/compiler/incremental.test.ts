import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { build } from '../../compiler/pipeline.js';
import { buildIndex } from '../../compiler/pipeline.js';
import { readTombstones } from '../../compiler/emit/tombstones.js';
import { INDEX_FORMAT_VERSION } from '../../formats/index-dir/manifest.js';
import { loadBundle } from '../../library/load-bundle.js';
import { applyOp, opArbitrary, treeArbitrary, writeTree, type Tree } from '../helpers/arbitrary-tree.js';
import { removedAfter } from '../helpers/temp-tree.js';

const roots = removedAfter('all');

async function fresh(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'kdd-incr-'));
  roots.push(root);
  return root;
}

const dirs = (root: string) => ({ specsDir: join(root, 'specs'), outDir: join(root, 'dist'), indexDir: join(root, '.kdd-index') });

async function readAll(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  async function walk(current: string): Promise<void> {
    for (const entry of await readdir(current, { withFileTypes: true })) {
      if (entry.name === '.cache') continue; // local, git-ignored caches are not artifacts
      const full = join(current, entry.name);
      if (entry.isDirectory()) await walk(full);
      else out[relative(dir, full)] = await readFile(full, 'utf8');
    }
  }
  await walk(dir);
  return out;
}

async function bundleOf(root: string): Promise<Buffer> {
  const pointer = JSON.parse(await readFile(join(root, 'dist', 'kdd.json'), 'utf8'));
  return readFile(join(root, 'dist', pointer.bundle));
}

/** A full build of `tree` in a new folder: the reference an incremental build must equal. */
async function fullBuildOf(tree: Tree): Promise<{ bundle: Buffer; index: Record<string, string> }> {
  const root = await fresh();
  await writeTree(join(root, 'specs'), tree);
  await build(dirs(root));
  const { 'tombstones.jsonl': _ignored, ...index } = await readAll(join(root, '.kdd-index'));
  return { bundle: await bundleOf(root), index };
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_COMMITTER_DATE: process.env.KDD_TEST_DATE, GIT_AUTHOR_DATE: process.env.KDD_TEST_DATE } });
}

const ENTITY = (links: string) => `---\nid: Pedido\nkind: entity\nstatus: draft\n---\n# Pedido\n\n## Descripción\n\nUn pedido ${links}.\n`;
const RULE = '---\nid: BR-PEDIDO-001\nkind: business-rule\n---\n# BR-PEDIDO-001 — Total\n\n## Declaración\n\nUn [[Pedido]] tiene total positivo.\n';
const UC = '---\nid: UC-001\nkind: use-case\n---\n# UC-001 — Crear\n\n## Descripción\n\nCrea un [[Pedido]].\n\n## Reglas Aplicadas\n\n- [[BR-PEDIDO-001]]\n';

describe('buildIndex', () => {
  it('incremental builds after random edit/add/delete/rename sequences equal a full rebuild byte for byte', async () => {
    await fc.assert(
      fc.asyncProperty(treeArbitrary(), fc.array(opArbitrary(), { minLength: 1, maxLength: 4 }), async (initial, ops) => {
        const root = await fresh();
        await writeTree(join(root, 'specs'), initial);
        const first = await buildIndex(dirs(root));
        expect(first.mode).toBe('full');
        let tree = initial;
        for (const op of ops) {
          const next = applyOp(tree, op);
          await writeTree(join(root, 'specs'), next, tree);
          tree = next;
          const step = await buildIndex(dirs(root));
          expect(step.mode).toBe('incremental');
        }
        const reference = await fullBuildOf(tree);
        expect((await bundleOf(root)).equals(reference.bundle)).toBe(true);
        const { 'tombstones.jsonl': _tombstones, ...index } = await readAll(join(root, '.kdd-index'));
        expect(index).toEqual(reference.index);
        await rm(root, { recursive: true, force: true });
      }),
      { numRuns: 12 },
    );
  }, 30_000);

  it('re-extracts only the changed file and rewrites only its artifacts, with a Stale event', async () => {
    const root = await fresh();
    await writeTree(join(root, 'specs'), { '01-domain/entities/Pedido.md': ENTITY('simple'), '01-domain/rules/BR-PEDIDO-001.md': RULE, '02-behavior/use-cases/UC-001-Crear.md': UC });
    await buildIndex(dirs(root));
    await writeFile(join(root, 'specs/01-domain/entities/Pedido.md'), ENTITY('con [[BR-PEDIDO-001]]'));
    const report = await buildIndex(dirs(root));
    expect(report.mode).toBe('incremental');
    expect(report.changes).toMatchObject({ added: [], modified: ['01-domain/entities/Pedido.md'], deleted: [], reindexed: ['01-domain/entities/Pedido.md'] });
    expect(report.events.map((event) => event.event)).toEqual(['EVT-KDDDocument-Stale', 'EVT-KDDDocument-Detected', 'EVT-KDDDocument-Parsed', 'EVT-KDDDocument-Indexed']);
    expect(report.events[0]!.payload).toMatchObject({ document_id: 'Pedido', source_path: '01-domain/entities/Pedido.md' });
    expect(report.events[0]!.payload).toHaveProperty('previous_hash');
    // The node file of the changed document and the whole-tree files; the rule and the UC are untouched.
    expect(report.index_dir.written).toBe(3);
    expect(report.edges).toBeGreaterThan(0);
  });

  it('an unchanged tree rewrites nothing and keeps the bundle without repacking', async () => {
    const root = await fresh();
    await writeTree(join(root, 'specs'), { '01-domain/entities/Pedido.md': ENTITY('simple') });
    const first = await buildIndex(dirs(root));
    const again = await buildIndex(dirs(root));
    expect(again).toMatchObject({ mode: 'incremental', bundle_reused: true, index_dir: { written: 0, removed: 0 } });
    expect(again.bundle.hash).toBe(first.bundle.hash);
    expect(again.changes.reindexed).toEqual([]);
  });

  it('a deleted document emits Deleted, cascades its edges and leaves a tombstone that a reappearing id lifts', async () => {
    const root = await fresh();
    const tree = { '01-domain/entities/Pedido.md': ENTITY('simple'), '01-domain/rules/BR-PEDIDO-001.md': RULE };
    await writeTree(join(root, 'specs'), tree);
    const before = await buildIndex(dirs(root));
    await rm(join(root, 'specs/01-domain/entities/Pedido.md'));
    const report = await buildIndex(dirs(root));
    expect(report.changes.deleted).toEqual(['01-domain/entities/Pedido.md']);
    expect(report.edges).toBe(0);
    expect(report.dangling_links).toBe(1);
    const deleted = report.events.find((event) => event.event === 'EVT-KDDDocument-Deleted');
    expect(deleted?.payload).toMatchObject({ document_id: 'Pedido', node_id: 'Entity:Pedido', edge_count: before.edges, embedding_count: 0 });
    expect(await readTombstones(dirs(root).indexDir)).toEqual([{ node_id: 'Entity:Pedido', source_file: '01-domain/entities/Pedido.md', source_hash: expect.stringMatching(/^[0-9a-f]{64}$/), deleted_at: null }]);
    expect(existsSync(join(root, '.kdd-index/nodes/entity/Pedido.json'))).toBe(false);

    await writeTree(join(root, 'specs'), { '01-domain/entities/moved/Pedido.md': ENTITY('vuelve') });
    const back = await buildIndex(dirs(root));
    expect(back.changes.revived).toEqual(['Entity:Pedido']);
    expect(await readTombstones(dirs(root).indexDir)).toEqual([]);
    expect(existsSync(join(root, '.kdd-index/tombstones.jsonl'))).toBe(false);
  });

  it('--full re-extracts everything but still records tombstones', async () => {
    const root = await fresh();
    await writeTree(join(root, 'specs'), { '01-domain/entities/Pedido.md': ENTITY('simple'), '01-domain/rules/BR-PEDIDO-001.md': RULE });
    await buildIndex(dirs(root));
    await rm(join(root, 'specs/01-domain/rules/BR-PEDIDO-001.md'));
    const report = await buildIndex({ ...dirs(root), mode: 'full' });
    expect(report).toMatchObject({ mode: 'full', full_reason: 'full build requested' });
    expect(report.changes.reindexed).toEqual(['01-domain/entities/Pedido.md']);
    expect(report.changes.tombstoned).toEqual(['BR:BR-PEDIDO-001']);
  });

  it('falls back to a full build when the previous index has another format version', async () => {
    const root = await fresh();
    await writeTree(join(root, 'specs'), { '01-domain/entities/Pedido.md': ENTITY('simple') });
    await buildIndex(dirs(root));
    const path = join(root, '.kdd-index/manifest.json');
    await writeFile(path, (await readFile(path, 'utf8')).replace(`"version": "${INDEX_FORMAT_VERSION}"`, '"version": "0.9.0"'));
    const report = await buildIndex(dirs(root));
    expect(report.mode).toBe('full');
    expect(report.full_reason).toMatch(/0\.9\.0/);
  });

  it('in git: the bundle\'s indexed_at follows commits without re-extraction or node file writes, tombstones take the HEAD commit time', async () => {
    const root = await fresh();
    git(root, 'init', '-q');
    git(root, 'config', 'user.email', 'dev@example.com');
    git(root, 'config', 'user.name', 'Dev');
    await writeTree(join(root, 'specs'), { '01-domain/entities/Pedido.md': ENTITY('simple'), '01-domain/rules/BR-PEDIDO-001.md': RULE });
    process.env.KDD_TEST_DATE = '2024-01-01T10:00:00Z';
    git(root, 'add', 'specs');
    git(root, 'commit', '-qm', 'specs');
    await buildIndex(dirs(root));
    // A commit that touches the rule's bytes back and forth: same hash, newer commit time.
    process.env.KDD_TEST_DATE = '2024-01-02T10:00:00Z';
    await rm(join(root, 'specs/01-domain/entities/Pedido.md'));
    git(root, 'commit', '-qam', 'delete Pedido');
    await writeFile(join(root, 'specs/01-domain/rules/BR-PEDIDO-001.md'), `${RULE}\n`);
    git(root, 'commit', '-qam', 'touch rule');
    await writeFile(join(root, 'specs/01-domain/rules/BR-PEDIDO-001.md'), RULE);
    process.env.KDD_TEST_DATE = '2024-01-03T10:00:00Z';
    git(root, 'commit', '-qam', 'untouch rule');
    const report = await buildIndex(dirs(root));
    expect(report.changes.reindexed).toEqual([]);
    expect(await readTombstones(dirs(root).indexDir)).toMatchObject([{ node_id: 'Entity:Pedido', deleted_at: '2024-01-03T10:00:00.000Z' }]);
    // The bundle carries git's time now; the node file keeps the one its version was written with
    // (a time that moves alone rewrites no committed file: docs/decisions/index-times.md).
    const rule = JSON.parse(await readFile(join(root, '.kdd-index/nodes/business-rule/BR-PEDIDO-001.json'), 'utf8'));
    expect(rule.indexed_at).toBe('2024-01-01T10:00:00.000Z');
    const bundled = (await loadBundle(dirs(root).outDir)).bundle.nodes.find((node) => node.id === 'BR:BR-PEDIDO-001');
    expect(bundled?.indexed_at).toBe('2024-01-03T10:00:00.000Z');
    expect(report.bundle_reused).toBe(false);
    // And the bundle equals a full rebuild in the same repository.
    const full = await build({ ...dirs(root), outDir: join(root, 'dist-full'), indexDir: join(root, '.kdd-index-full') });
    expect(full.bundle.hash).toBe(report.bundle.hash);
    delete process.env.KDD_TEST_DATE;
  });
});
