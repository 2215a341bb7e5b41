import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../cli/main.js';
import { readIndexDir } from '../../compiler/emit/read-index-dir.js';
import { tempTree, removedAfter } from '../helpers/temp-tree.js';
import { capture } from '../helpers/cli-io.js';


const roots = removedAfter('each');

const ENTITY = (name: string, text: string) => `---\nkind: entity\n---\n# ${name}\n\n## Descripción\n\n${text}\n`;

async function twoIndexes() {
  const root = await tempTree({
    'a/specs/01-domain/entities/Pedido.md': ENTITY('Pedido', 'Un pedido de un [[Usuario]].'),
    'b/specs/01-domain/entities/Usuario.md': ENTITY('Usuario', 'Quien compra.'),
  });
  roots.push(root);
  for (const dev of ['a', 'b']) {
    expect(await runCli(['build', `${dev}/specs`, '--index-dir', `${dev}/.kdd-index`, '--out', `${dev}/dist`], capture(root).io)).toBe(0);
  }
  return root;
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' });
}

describe('kdd merge', () => {
  it('merges two .kdd-index/ folders into a bundle and a merged .kdd-index/', async () => {
    const root = await twoIndexes();
    const { io, out } = capture(root);
    expect(await runCli(['merge', 'a/.kdd-index', 'b/.kdd-index', '-o', 'merged', '--index-dir', 'merged-index', '--json'], io)).toBe(0);
    const report = JSON.parse(out.join(''));
    expect(report).toMatchObject({ nodes: 2, dangling_links: 0, conflicts: [], index_dir: { removed: 0 } });
    expect(report.edges).toBeGreaterThan(0);
    expect(report.events.map((event: { event: string }) => event.event)).toEqual(['EVT-Index-MergeRequested', 'EVT-Index-MergeCompleted']);
    expect(existsSync(join(root, 'merged', report.bundle.bundle))).toBe(true);
    expect((await readIndexDir(join(root, 'merged-index'))).records.map((record) => record.node.id)).toEqual(['Entity:Pedido', 'Entity:Usuario']);
  });

  it('keeps its pack memo in OUT/.cache by default, in DIR with --cache DIR, nowhere with --no-cache', async () => {
    const root = await twoIndexes();
    const merge = async (...flags: string[]) => {
      const { io, out, err } = capture(root);
      const code = await runCli(['merge', 'a/.kdd-index', 'b/.kdd-index', ...flags], io);
      return { code, out: out.join(''), err: err.join('') };
    };
    const first = await merge('-o', 'merged', '--json');
    expect(first.code).toBe(0);
    expect(JSON.parse(first.out).cache).toMatchObject({ dir: join(root, 'merged/.cache'), memo_hits: 0, memo_misses: 2 });
    expect(existsSync(join(root, 'merged/.cache/merge-pack'))).toBe(true);
    expect(await readFile(join(root, 'merged/.cache/.gitignore'), 'utf8')).toBe('*\n');
    const second = await merge('-o', 'merged');
    expect(second.out).toMatch(/cache: .*merged\/\.cache \(nodes packed from the memo: 2, computed: 0; inputs read from their record cache: 2 of 2\)/);

    const own = await merge('-o', 'elsewhere', '--cache', 'server-cache', '--json');
    expect(own.code).toBe(0);
    expect(JSON.parse(own.out).cache).toMatchObject({ dir: join(root, 'server-cache'), memo_misses: 2 });
    expect(existsSync(join(root, 'server-cache/merge-pack'))).toBe(true);
    expect(existsSync(join(root, 'elsewhere/.cache'))).toBe(false);

    const none = await merge('-o', 'plain', '--no-cache', '--json');
    expect(JSON.parse(none.out).cache).toMatchObject({ dir: null, memo_hits: 0, memo_misses: 0 });
    expect(existsSync(join(root, 'plain/.cache'))).toBe(false);
    expect(JSON.parse(none.out).bundle.bundle).toBe(JSON.parse(first.out).bundle.bundle);

    const both = await merge('-o', 'x', '--cache', 'c', '--no-cache');
    expect(both.code).toBe(2);
    expect(both.err).toContain('--cache DIR and --no-cache exclude each other');
  });

  it('merges bundles (dist folders) and prints a summary', async () => {
    const root = await twoIndexes();
    const { io, out } = capture(root);
    expect(await runCli(['merge', 'a/dist', 'b/dist', '-o', 'merged'], io)).toBe(0);
    expect(out.join('')).toMatch(/2 indexes → 2 nodes/);
    expect(out.join('')).toMatch(/dangling links: 0/);
  });

  it('refuses --index-dir with bundle inputs, a single input and a missing manifest, with the spec codes', async () => {
    const root = await twoIndexes();
    const bundles = capture(root);
    expect(await runCli(['merge', 'a/dist', 'b/dist', '-o', 'merged', '--index-dir', 'x'], bundles.io)).toBe(2);
    const single = capture(root);
    expect(await runCli(['merge', 'a/.kdd-index', '-o', 'merged'], single.io)).toBe(2);
    expect(single.err.join('')).toContain('INSUFFICIENT_SOURCES: Merge requires at least 2 source indices');
    const missing = capture(root);
    expect(await runCli(['merge', 'a/.kdd-index', 'nowhere', '-o', 'merged'], missing.io)).toBe(3);
    expect(missing.err.join('')).toContain('MANIFEST_NOT_FOUND');
    expect(await runCli(['merge', 'a/.kdd-index', 'b/.kdd-index'], capture(root).io)).toBe(2);
  });

  it('--from-git merges the .kdd-index/ committed on several branches without checking them out', async () => {
    const root = await tempTree({ 'specs/01-domain/entities/Pedido.md': ENTITY('Pedido', 'Un pedido de un [[Usuario]].') });
    roots.push(root);
    git(root, 'init', '-q', '-b', 'main');
    git(root, 'config', 'user.email', 'dev@example.com');
    git(root, 'config', 'user.name', 'Dev');
    expect(await runCli(['build'], capture(root).io)).toBe(0);
    git(root, 'add', 'specs', '.kdd-index');
    git(root, 'commit', '-qm', 'main');
    git(root, 'checkout', '-qb', 'dev-b');
    await mkdir(join(root, 'specs/01-domain/entities'), { recursive: true });
    await writeFile(join(root, 'specs/01-domain/entities/Usuario.md'), ENTITY('Usuario', 'Quien compra.'));
    expect(await runCli(['build'], capture(root).io)).toBe(0);
    git(root, 'add', 'specs', '.kdd-index');
    git(root, 'commit', '-qm', 'dev-b');
    git(root, 'checkout', '-q', 'main');
    const { io, out } = capture(root);
    expect(await runCli(['merge', '--from-git', 'main', 'dev-b', '-o', 'server-dist', '--json'], io)).toBe(0);
    const report = JSON.parse(out.join(''));
    expect(report.sources.map((source: { source: string }) => source.source)).toEqual(['git:main:.kdd-index', 'git:dev-b:.kdd-index']);
    expect(report).toMatchObject({ nodes: 2, dangling_links: 0 });
    const pointer = JSON.parse(await readFile(join(root, 'server-dist/kdd.json'), 'utf8'));
    expect(pointer.bundle).toBe(report.bundle.bundle);
    const bad = capture(root);
    expect(await runCli(['merge', '--from-git', 'main', 'no-such-branch', '-o', 'x'], bad.io)).toBe(3);
  });
});
