import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildIndex } from '../../compiler/pipeline.js';
import { runCli } from '../../cli/main.js';
import { applyOp, opArbitrary, treeArbitrary, writeTree } from '../helpers/arbitrary-tree.js';
import { capture } from '../helpers/cli-io.js';
import { removedAfter } from '../helpers/temp-tree.js';

const roots = removedAfter('all');

async function fresh(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'kdd-since-'));
  roots.push(root);
  return root;
}

const dirs = (root: string) => ({ specsDir: join(root, 'specs'), outDir: join(root, 'dist'), indexDir: join(root, '.kdd-index') });
const DATE = '2026-01-02T03:04:05Z';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_COMMITTER_DATE: DATE, GIT_AUTHOR_DATE: DATE } });
}

async function initRepo(root: string): Promise<void> {
  git(root, 'init', '-q');
  git(root, 'config', 'user.email', 'dev@example.com');
  git(root, 'config', 'user.name', 'Dev');
}

/** Every artifact (caches excluded) and the bundle, as bytes. */
async function outputs(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const top of ['.kdd-index', 'dist']) {
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        if (entry.name === '.cache') continue;
        const full = join(dir, entry.name);
        if (entry.isDirectory()) await walk(full);
        else out[relative(root, full)] = (await readFile(full)).toString('base64');
      }
    };
    await walk(join(root, top));
  }
  return out;
}

describe('kdd build --since (CMD-002, git-aware incremental)', () => {
  it('gives the bytes of a normal incremental build after random committed and uncommitted edits', async () => {
    await fc.assert(
      fc.asyncProperty(treeArbitrary(), fc.array(fc.tuple(opArbitrary(), fc.boolean()), { minLength: 1, maxLength: 4 }), async (initial, steps) => {
        const root = await fresh();
        await initRepo(root);
        await writeTree(join(root, 'specs'), initial);
        git(root, 'add', '-A');
        git(root, 'commit', '-qm', 'initial', '--allow-empty');
        const base = git(root, 'rev-parse', 'HEAD').trim();
        await buildIndex(dirs(root));
        let tree = initial;
        for (const [op, commit] of steps) {
          const next = applyOp(tree, op);
          await writeTree(join(root, 'specs'), next, tree);
          tree = next;
          if (commit) {
            git(root, 'add', '-A', 'specs');
            git(root, 'commit', '-qm', 'step', '--allow-empty');
          }
        }
        // The same repository, index and edits twice: one build takes git's word, one hashes every file.
        const twin = await fresh();
        await cp(root, twin, { recursive: true });
        const viaGit = await buildIndex({ ...dirs(root), since: { base } });
        const hashed = await buildIndex({ ...dirs(twin), recordCache: false });
        expect(viaGit.mode).toBe('incremental');
        expect(viaGit.changes).toEqual(hashed.changes);
        expect(await outputs(root)).toEqual(await outputs(twin));
      }),
      { numRuns: 5, seed: 19 },
    );
  }, 60_000);

  it('reads only what git reports: a file git is told is unchanged keeps its indexed version', async () => {
    const root = await fresh();
    await initRepo(root);
    await writeTree(join(root, 'specs'), { '01-domain/entities/Pedido.md': '---\nid: Pedido\nkind: entity\n---\n# Pedido\n\nUno.\n' });
    git(root, 'add', '-A');
    git(root, 'commit', '-qm', 'initial');
    await buildIndex(dirs(root));
    git(root, 'update-index', '--assume-unchanged', 'specs/01-domain/entities/Pedido.md');
    await writeFile(join(root, 'specs/01-domain/entities/Pedido.md'), '---\nid: Pedido\nkind: entity\n---\n# Pedido\n\nDos.\n');
    const report = await buildIndex({ ...dirs(root), since: { base: 'HEAD' } });
    expect(report.changes.reindexed).toEqual([]);
    // Without --since the content hash is the truth again.
    const hashed = await buildIndex({ ...dirs(root), recordCache: false });
    expect(hashed.changes.modified).toEqual(['01-domain/entities/Pedido.md']);
  });

  it('fails with GIT_NOT_AVAILABLE outside a repository and COMMIT_NOT_FOUND for an unknown ref (CLI exit codes 4 and 3)', async () => {
    const plain = await fresh();
    await writeTree(join(plain, 'specs'), { 'a.md': '---\nid: A\nkind: entity\n---\n# A\n' });
    const outside = capture(plain);
    expect(await runCli(['build', 'specs', '--since', 'HEAD~1'], outside.io)).toBe(4);
    expect(outside.err.join('')).toContain('GIT_NOT_AVAILABLE');

    const repo = await fresh();
    await initRepo(repo);
    await writeTree(join(repo, 'specs'), { 'a.md': '---\nid: A\nkind: entity\n---\n# A\n' });
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'initial');
    const unknown = capture(repo);
    expect(await runCli(['build', 'specs', '--since', 'no-such-branch'], unknown.io)).toBe(3);
    expect(unknown.err.join('')).toContain('COMMIT_NOT_FOUND: Commit not found: no-such-branch');
    const head = capture(repo);
    expect(await runCli(['build', 'specs', '--since', 'HEAD', '--head', 'missing'], head.io)).toBe(3);
    expect(await runCli(['build', 'specs', '--head', 'HEAD'], capture(repo).io)).toBe(2);
  });
});
