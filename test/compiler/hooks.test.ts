import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, writeFile, mkdir } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addBlock, BLOCK_END, BLOCK_START, hookBlock, installHook, removeBlock, uninstallHook } from '../../compiler/team/hooks.js';
import { runCli } from '../../cli/main.js';
import { capture } from '../helpers/cli-io.js';
import { removedAfter } from '../helpers/temp-tree.js';

const roots = removedAfter('all');

/**
 * The compiled CLI (`build/`, which `npm ci` and `npm run build:ts` write, as for the other CLI
 * process tests): what KDD_BIN lets a test (or a monorepo) point the hook at. Not the source through
 * tsx: that costs about a second of transpiling per hook run, and these commits run the CLI 8 times.
 * The last test checks the hook's index against an in-process build from source, so a stale build/
 * shows up there as a changed file.
 */
const KDD_BIN = `${process.execPath} ${new URL('../../build/cli/main.js', import.meta.url).pathname}`;

async function repo(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'kdd-hook-'));
  roots.push(root);
  git(root, 'init', '-q');
  git(root, 'config', 'user.email', 'dev@example.com');
  git(root, 'config', 'user.name', 'Dev');
  git(root, 'config', 'commit.gpgsign', 'false');
  return root;
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' });
}

const spec = (name: string, text: string) => `---\nkind: entity\n---\n# ${name}\n\n## Descripción\n\n${text}\n`;

describe('hook blocks', () => {
  it('appends a marked block to an existing hook and removes only that block', () => {
    const existing = '#!/bin/sh\nnpm run lint\n';
    const installed = addBlock(existing, hookBlock({}));
    expect(installed.startsWith(existing)).toBe(true);
    expect(installed).toContain(BLOCK_START);
    expect(installed).toContain(BLOCK_END);
    expect(addBlock(installed, hookBlock({}))).toBe(installed);
    expect(removeBlock(installed)).toBe(existing);
  });

  it('never blocks the commit unless strict', () => {
    expect(hookBlock({})).not.toMatch(/exit 1/);
    expect(hookBlock({ strict: true })).toMatch(/exit 1/);
    expect(hookBlock({ kind: 'post-commit' })).not.toMatch(/git add/);
    expect(hookBlock({})).toMatch(/command -v kdd/);
  });
});

describe('installHook', () => {
  it('husky: edits .husky/pre-commit; lefthook: adds a command entry, or prints a snippet when the hook key exists', async () => {
    const husky = await repo();
    await mkdir(join(husky, '.husky'));
    await writeFile(join(husky, '.husky/pre-commit'), 'npx lint-staged\n');
    expect(await installHook({ repo: husky })).toMatchObject({ manager: 'husky', action: 'updated' });
    expect(await readFile(join(husky, '.husky/pre-commit'), 'utf8')).toMatch(/^npx lint-staged\n\n# >>> kdd-index >>>/);
    await uninstallHook({ repo: husky });
    expect(await readFile(join(husky, '.husky/pre-commit'), 'utf8')).toBe('npx lint-staged\n');

    const lefthook = await repo();
    await writeFile(join(lefthook, 'lefthook.yml'), 'post-merge:\n  commands:\n    deps:\n      run: npm ci\n');
    expect(await installHook({ repo: lefthook })).toMatchObject({ manager: 'lefthook', action: 'updated' });
    const yaml = await readFile(join(lefthook, 'lefthook.yml'), 'utf8');
    expect(yaml).toMatch(/\npre-commit:\n {2}commands:\n {4}kdd-index:\n {6}run: \|\n/);
    await uninstallHook({ repo: lefthook });
    expect(await readFile(join(lefthook, 'lefthook.yml'), 'utf8')).toBe('post-merge:\n  commands:\n    deps:\n      run: npm ci\n');
    await writeFile(join(lefthook, 'lefthook.yml'), 'pre-commit:\n  commands:\n    lint:\n      run: npm run lint\n');
    const change = await installHook({ repo: lefthook });
    expect(change.action).toBe('snippet');
    expect(change.snippet).toMatch(/^commands:\n {2}kdd-index:/);
  });

  it('a real git commit runs the pre-commit hook, which re-indexes only the changed spec and stages .kdd-index/', async () => {
    const root = await repo();
    await mkdir(join(root, 'specs/01-domain/entities'), { recursive: true });
    await writeFile(join(root, '.gitignore'), 'dist/\n');
    await writeFile(join(root, 'specs/01-domain/entities/Pedido.md'), spec('Pedido', 'Un pedido de un [[Usuario]].'));
    await writeFile(join(root, 'specs/01-domain/entities/Usuario.md'), spec('Usuario', 'Quien compra.'));
    git(root, 'add', '.');
    git(root, 'commit', '-qm', 'specs before the hook');
    await writeFile(join(root, '.git/hooks/pre-commit'), '#!/bin/sh\necho "existing hook ran" >&2\n', { mode: 0o755 });
    expect(await installHook({ repo: root })).toMatchObject({ manager: 'git', action: 'updated' });
    const commit = (message: string, text: string) => {
      return writeFile(join(root, 'specs/01-domain/entities/Usuario.md'), spec('Usuario', text)).then(() => {
        git(root, 'add', 'specs');
        const result = spawnSync('git', ['commit', '-qm', message], { cwd: root, encoding: 'utf8', env: { ...process.env, KDD_BIN } });
        expect(result.status).toBe(0);
        return result.stderr;
      });
    };
    const first = await commit('first indexed commit', 'Quien compra.\n\nCliente.');
    expect(first).toContain('existing hook ran');
    expect(first).toMatch(/full \(no previous index\)/);
    expect(git(root, 'show', '--name-only', '--format=', 'HEAD').split('\n')).toContain('.kdd-index/nodes/entity/Pedido.json');

    // pre-commit sees HEAD's commit times: Pedido's last commit is older than HEAD, so only Usuario moves.
    const second = await commit('edit Usuario', 'Quien compra y paga.');
    expect(second).toMatch(/incremental: re-indexed 1 files: 01-domain\/entities\/Usuario\.md/);
    const changed = git(root, 'show', '--name-only', '--format=', 'HEAD').trim().split('\n').sort();
    expect(changed).toEqual(['.kdd-index/manifest.json', '.kdd-index/nodes/entity/Usuario.json', 'specs/01-domain/entities/Usuario.md']);
    expect(git(root, 'status', '--porcelain')).toBe('');
  }, 30_000);

  it('--check: a commit that adds a dangling link is blocked with the file and line; a clean one goes through', async () => {
    const root = await repo();
    await mkdir(join(root, 'specs/01-domain/entities'), { recursive: true });
    await writeFile(join(root, '.gitignore'), 'dist/\n');
    await writeFile(join(root, 'specs/01-domain/entities/Usuario.md'), spec('Usuario', 'Quien compra.'));
    await installHook({ repo: root, check: true });
    const commit = async (text: string) => {
      await writeFile(join(root, 'specs/01-domain/entities/Pedido.md'), spec('Pedido', text));
      git(root, 'add', 'specs');
      return spawnSync('git', ['commit', '-qm', 'pedido'], { cwd: root, encoding: 'utf8', env: { ...process.env, KDD_BIN } });
    };
    const blocked = await commit('Un pedido de un [[Fantasma]].');
    expect(blocked.status).toBe(1);
    expect(blocked.stderr).toContain('01-domain/entities/Pedido.md:8:17');
    expect(blocked.stderr).toContain('KDD-DANGLING-LINK');
    expect(blocked.stderr).toContain('commit blocked');
    const clean = await commit('Un pedido de un [[Usuario]].');
    expect(clean.status, clean.stderr).toBe(0);
    expect(git(root, 'show', '--name-only', '--format=', 'HEAD')).toContain('.kdd-index/manifest.json');
  }, 30_000);

  it('after commits made through the hook, and in a fresh clone, the next kdd build changes no committed file', async () => {
    const root = await repo();
    await mkdir(join(root, 'specs/01-domain/entities'), { recursive: true });
    await writeFile(join(root, '.gitignore'), 'dist/\n');
    await writeFile(join(root, 'specs/01-domain/entities/Pedido.md'), spec('Pedido', 'Un pedido de un [[Usuario]].'));
    // Commits an hour apart: equal commit times (one second) would hide a time the build moves.
    let hour = 0;
    const commitAll = (message: string) => {
      hour += 1;
      const date = `2026-01-01T${String(hour).padStart(2, '0')}:00:00Z`;
      git(root, 'add', '-A');
      const result = spawnSync('git', ['commit', '-qm', message], { cwd: root, encoding: 'utf8', env: { ...process.env, KDD_BIN, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } });
      expect(result.status, result.stderr).toBe(0);
    };
    commitAll('specs before the hook');
    await installHook({ repo: root });
    await writeFile(join(root, 'specs/01-domain/entities/Usuario.md'), spec('Usuario', 'Quien compra.'));
    commitAll('add Usuario through the hook');
    await writeFile(join(root, 'specs/01-domain/entities/Usuario.md'), spec('Usuario', 'Quien compra y paga.'));
    await writeFile(join(root, 'specs/01-domain/entities/Pedido.md'), spec('Pedido', 'Un pedido de un [[Usuario]], con líneas.'));
    commitAll('edit both through the hook');
    expect(git(root, 'status', '--porcelain')).toBe('');

    // `kdd build` in-process (the CLI's own code path; the hook above ran it as a process).
    const build = async (cwd: string, ...flags: string[]) => {
      const { io, err } = capture(cwd);
      expect(await runCli(['build', ...flags], io), err.join('')).toBe(0);
    };
    await build(root);
    expect(git(root, 'status', '--porcelain')).toBe('');

    const clone = await mkdtemp(join(tmpdir(), 'kdd-hook-clone-'));
    roots.push(clone);
    git(clone, 'clone', '-q', root, '.');
    await build(clone);
    expect(git(clone, 'status', '--porcelain')).toBe('');
    // The bundle is git's answer, not the index's history: a full rebuild from nothing packs the same bytes.
    await build(clone, '--full', '--index-dir', 'dist/fresh-index', '--out', 'dist/fresh');
    const pointer = (dir: string) => JSON.parse(readFileSync(join(clone, dir, 'kdd.json'), 'utf8')).hash as string;
    expect(pointer('dist/fresh')).toBe(pointer('dist'));
  }, 60_000);

  it('a failing index build does not block the commit', async () => {
    const root = await repo();
    await writeFile(join(root, 'a.txt'), 'x\n');
    await installHook({ repo: root, specsDir: 'does-not-exist' });
    git(root, 'add', 'a.txt');
    const result = spawnSync('git', ['commit', '-qm', 'no specs'], { cwd: root, encoding: 'utf8', env: { ...process.env, KDD_BIN } });
    expect(result.status).toBe(0);
    expect(result.stderr).toContain('commit not blocked');
    await uninstallHook({ repo: root });
    expect(existsSync(join(root, '.git/hooks/pre-commit'))).toBe(false);
  }, 30_000);

  it('a CLI that cannot be found is said plainly: what happened and how to fix it', async () => {
    const root = await repo();
    await writeFile(join(root, 'a.txt'), 'x\n');
    await installHook({ repo: root });
    git(root, 'add', 'a.txt');
    const env = { ...process.env, KDD_BIN: '', PATH: dirname(execPathOf('git')) };
    const result = spawnSync('git', ['commit', '-qm', 'no cli'], { cwd: root, encoding: 'utf8', env });
    expect(result.status).toBe(0);
    expect(result.stderr).toContain('kdd CLI not found');
    expect(result.stderr).toContain('NOT rebuilt and may now be stale');
    expect(result.stderr).toContain("fix: run 'npm install'");
  }, 30_000);
});

function execPathOf(command: string): string {
  return spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).stdout.trim();
}
