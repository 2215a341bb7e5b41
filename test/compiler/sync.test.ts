/**
 * `kdd sync push|pull` (UC-007 / CMD-005): folder transport with two developers' trees, git
 * transport against a bare remote in /tmp. What travels is asserted from the `--json` reports and
 * from the files that arrived.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../cli/main.js';
import { isIndexArtifact } from '../../compiler/team/sync.js';
import { removeTree, tempTree, removedAfter } from '../helpers/temp-tree.js';

function capture(cwd: string) {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (s: string) => void out.push(s), stderr: (s: string) => void err.push(s), isTTY: false, cwd }, out, err };
}

async function kdd(cwd: string, ...argv: string[]): Promise<{ code: number; stdout: string; stderr: string; json: () => any }> {
  const { io, out, err } = capture(cwd);
  const code = await runCli(argv, io);
  return { code, stdout: out.join(''), stderr: err.join(''), json: () => JSON.parse(out.join('')) };
}

const roots = removedAfter('each');

const ENTITY = (name: string, text: string) => `---\nkind: entity\nstatus: approved\n---\n# ${name}\n\n## Descripción\n\n${text}\n`;

const SPECS = {
  'alice/specs/01-domain/entities/Pedido.md': ENTITY('Pedido', 'Un pedido secreto de un [[Usuario]] con la clave PEDIDO-7781.'),
  'alice/specs/01-domain/entities/Factura.md': ENTITY('Factura', 'La factura de un [[Pedido]].'),
  'bob/specs/01-domain/entities/Usuario.md': ENTITY('Usuario', 'Quien compra; su apodo interno es USUARIO-4412.'),
};

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

async function twoDevelopers() {
  const root = await tempTree({ ...SPECS, 'shared/.keep': '' });
  roots.push(root);
  for (const dev of ['alice', 'bob']) {
    expect((await kdd(root, 'build', `${dev}/specs`, '--index-dir', `${dev}/.kdd-index`, '--out', `${dev}/dist`, '--level', 'L1')).code).toBe(0);
  }
  return root;
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function gitRepo(dir: string): void {
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.name', 'Test');
  git(dir, 'config', 'user.email', 'test@example.com');
  git(dir, 'config', 'commit.gpgsign', 'false');
}

describe('kdd sync, folder transport', () => {
  it('pushes only index artifacts into DIR/indexes/<developer>/ and never a spec file', async () => {
    const root = await twoDevelopers();
    // Things that must not travel: a spec copied into the index folder, a dot-file.
    await writeFile(join(root, 'alice/.kdd-index/Pedido.md'), SPECS['alice/specs/01-domain/entities/Pedido.md']);
    await writeFile(join(root, 'alice/.kdd-index/.notes'), 'local');

    const push = await kdd(root, 'sync', 'push', '--to', 'shared', '--index-dir', 'alice/.kdd-index', '--as', 'alice', '--json');
    expect(push.code, push.stderr).toBe(0);
    const report = push.json();
    expect(report).toMatchObject({ direction: 'push', transport: 'folder', developer: 'alice', destination: join(root, 'shared/indexes/alice') });
    const sent = report.files.map((file: { path: string }) => file.path);
    expect(sent).toContain('manifest.json');
    expect(sent).toContain('edges/edges.jsonl');
    expect(sent).toContain('nodes/entity/Pedido.json');
    expect(sent.every(isIndexArtifact)).toBe(true);
    expect(sent.some((path: string) => path.endsWith('.md') || path.includes('.cache'))).toBe(false);
    expect(report.skipped).toEqual(expect.arrayContaining(['.cache/', '.notes', 'Pedido.md']));
    expect(report.bytes).toBe(report.files.reduce((sum: number, file: { bytes: number }) => sum + file.bytes, 0));

    // What arrived is exactly what the report lists, byte for byte, and no dot-folder is left over.
    expect(await filesUnder(join(root, 'shared'))).toEqual(['.keep', ...sent.map((path: string) => `indexes/alice/${path}`)].sort());
    for (const path of sent) {
      expect(await readFile(join(root, 'shared/indexes/alice', path))).toEqual(await readFile(join(root, 'alice/.kdd-index', path)));
    }
    // No artifact holds a spec file's Markdown source verbatim (docs/acceptance.md, contradiction 2).
    for (const path of await filesUnder(join(root, 'shared/indexes'))) {
      const text = await readFile(join(root, 'shared/indexes', path), 'utf8');
      for (const spec of Object.values(SPECS)) expect(text.includes(spec.split('\n---\n')[1]!)).toBe(false);
    }
  });

  it('pull merges every developer and gives the bundle `kdd merge` gives for the same indexes', async () => {
    const root = await twoDevelopers();
    for (const dev of ['alice', 'bob']) expect((await kdd(root, 'sync', 'push', '--to', 'shared', '--index-dir', `${dev}/.kdd-index`, '--as', dev)).code).toBe(0);

    const pull = await kdd(root, 'sync', 'pull', '--from', 'shared', '-o', 'pulled/dist', '--index-dir', 'pulled/.kdd-index', '--json');
    expect(pull.code, pull.stderr).toBe(0);
    const report = pull.json();
    expect(report).toMatchObject({ direction: 'pull', transport: 'folder', developers: ['alice', 'bob'] });
    expect(report.merge).toMatchObject({ nodes: 3, dangling_links: 0, conflicts: [] });

    const merge = await kdd(root, 'merge', 'alice/.kdd-index', 'bob/.kdd-index', '-o', 'merged/dist', '--index-dir', 'merged/.kdd-index', '--json');
    expect(merge.code, merge.stderr).toBe(0);
    const merged = merge.json();
    expect(report.merge.bundle.bundle).toBe(merged.bundle.bundle);
    expect(await readFile(join(root, 'pulled/dist', report.merge.bundle.bundle))).toEqual(await readFile(join(root, 'merged/dist', merged.bundle.bundle)));
    expect(await filesUnder(join(root, 'pulled/.kdd-index'))).toEqual(await filesUnder(join(root, 'merged/.kdd-index')));
    expect(await readFile(join(root, 'pulled/.kdd-index/manifest.json'), 'utf8')).toBe(await readFile(join(root, 'merged/.kdd-index/manifest.json'), 'utf8'));

    // The pulled bundle answers queries about both developers' nodes.
    const graph = await kdd(root, 'graph', 'Entity:Pedido', '--bundle', 'pulled/dist', '--json');
    expect(graph.code, graph.stderr).toBe(0);
    expect(graph.stdout).toMatch(/Entity:Usuario/);
  });

  it('a second push replaces the developer folder whole (a deleted node file disappears remotely)', async () => {
    const root = await twoDevelopers();
    expect((await kdd(root, 'sync', 'push', '--to', 'shared', '--index-dir', 'alice/.kdd-index', '--as', 'alice')).code).toBe(0);
    expect(existsSync(join(root, 'shared/indexes/alice/nodes/entity/Factura.json'))).toBe(true);
    await removeTree(join(root, 'alice/specs/01-domain/entities/Factura.md'));
    expect((await kdd(root, 'build', 'alice/specs', '--index-dir', 'alice/.kdd-index', '--out', 'alice/dist', '--level', 'L1')).code).toBe(0);
    const push = await kdd(root, 'sync', 'push', '--to', 'shared', '--index-dir', 'alice/.kdd-index', '--as', 'alice', '--json');
    expect(push.code, push.stderr).toBe(0);
    expect(existsSync(join(root, 'shared/indexes/alice/nodes/entity/Factura.json'))).toBe(false);
    expect(existsSync(join(root, 'shared/indexes/alice/tombstones.jsonl'))).toBe(true);
    expect((await readdir(join(root, 'shared/indexes'))).sort()).toEqual(['alice']);
  });

  it('names the developer folder from indexed_by, sanitised, and pulls a single developer', async () => {
    const root = await twoDevelopers();
    expect((await kdd(root, 'build', 'bob/specs', '--index-dir', 'bob/.kdd-index', '--out', 'bob/dist', '--level', 'L1', '--indexed-by', 'Bob Smith/../x')).code).toBe(0);
    const push = await kdd(root, 'sync', 'push', '--to', 'shared', '--index-dir', 'bob/.kdd-index', '--json');
    expect(push.code, push.stderr).toBe(0);
    expect(push.json().developer).toBe('Bob_Smith_.._x');
    const pull = await kdd(root, 'sync', 'pull', '--from', 'shared', '-o', 'pulled', '--json');
    expect(pull.code, pull.stderr).toBe(0);
    expect(pull.json().merge).toMatchObject({ nodes: 1, sources: [{ source: join(root, 'shared/indexes/Bob_Smith_.._x') }] });
  });

  it('refuses with the CMD-005 codes', async () => {
    const root = await twoDevelopers();
    const noIndex = await kdd(root, 'sync', 'push', '--to', 'shared', '--index-dir', 'nobody/.kdd-index', '--as', 'x');
    expect(noIndex.code).toBe(4);
    expect(noIndex.stderr).toMatch(/NO_LOCAL_INDEX: No local index found at/);

    const unreachable = await kdd(root, 'sync', 'push', '--to', 'not-mounted', '--index-dir', 'alice/.kdd-index', '--as', 'alice');
    expect(unreachable.code).toBe(4);
    expect(unreachable.stderr).toMatch(/REMOTE_UNREACHABLE: Cannot reach remote:/);
    expect(existsSync(join(root, 'not-mounted'))).toBe(false);

    const empty = await kdd(root, 'sync', 'pull', '--from', 'shared', '-o', 'pulled');
    expect(empty.code).toBe(4);
    expect(empty.stderr).toMatch(/NO_REMOTE_INDEX: No merged index available on remote/);

    // Another developer's index in a different major format version: this push could never be merged.
    await mkdir(join(root, 'shared/indexes/carol'), { recursive: true });
    const manifest = JSON.parse(await readFile(join(root, 'bob/.kdd-index/manifest.json'), 'utf8'));
    await writeFile(join(root, 'shared/indexes/carol/manifest.json'), JSON.stringify({ ...manifest, version: '9.0.0' }));
    const rejected = await kdd(root, 'sync', 'push', '--to', 'shared', '--index-dir', 'alice/.kdd-index', '--as', 'alice');
    expect(rejected.code).toBe(1);
    expect(rejected.stderr).toMatch(/PUSH_REJECTED: Push rejected: .*carol.*INCOMPATIBLE_VERSION/);
    expect(existsSync(join(root, 'shared/indexes/alice'))).toBe(false);

    expect((await kdd(root, 'sync', 'push', '--index-dir', 'alice/.kdd-index')).code).toBe(2);
    expect((await kdd(root, 'sync', 'push', '--to', 'shared', '--git')).code).toBe(2);
    expect((await kdd(root, 'sync', 'upload')).code).toBe(2);
    const api = await kdd(root, 'sync', 'push', '--transport', 'api');
    expect(api.code).toBe(2);
    expect(api.stderr).toMatch(/API transport .* not built/);
  });
});

describe('kdd sync, git transport', () => {
  async function gitSetup() {
    const root = await tempTree({
      'work/specs/01-domain/entities/Pedido.md': SPECS['alice/specs/01-domain/entities/Pedido.md'],
      'work/specs/01-domain/entities/Factura.md': SPECS['alice/specs/01-domain/entities/Factura.md'],
      'work/README.md': 'notes\n',
    });
    roots.push(root);
    git(root, 'init', '-q', '--bare', '-b', 'main', 'remote.git');
    const work = join(root, 'work');
    gitRepo(work);
    git(work, 'remote', 'add', 'origin', join(root, 'remote.git'));
    git(work, 'add', '-A');
    git(work, 'commit', '-q', '-m', 'specs');
    git(work, 'push', '-q', 'origin', 'main');
    expect((await kdd(work, 'build', 'specs', '--level', 'L1')).code).toBe(0);
    return { root, work, remote: join(root, 'remote.git') };
  }

  it('push commits and pushes only .kdd-index/, leaving other staged changes alone', async () => {
    const { work, remote } = await gitSetup();
    // A staged spec edit and an unstaged one: neither may end up in the index commit.
    await writeFile(join(work, 'specs/01-domain/entities/Factura.md'), ENTITY('Factura', 'Cambio en curso, no listo.'));
    git(work, 'add', 'specs/01-domain/entities/Factura.md');
    await writeFile(join(work, 'README.md'), 'edited\n');

    const push = await kdd(work, 'sync', 'push', '--git', '--json');
    expect(push.code, push.stderr).toBe(0);
    const report = push.json();
    expect(report).toMatchObject({ direction: 'push', transport: 'git', remote: 'origin', index_path: '.kdd-index', warnings: [] });
    expect(report.git).toMatchObject({ branch: 'main', pushed_commits: 1, other_files: [] });
    expect(report.git.commit).toMatch(/^[0-9a-f]{40}$/);
    const sent = report.files.map((file: { path: string }) => file.path);
    expect(sent).toContain('.kdd-index/manifest.json');
    expect(sent.every((path: string) => path.startsWith('.kdd-index/') && !path.includes('.cache'))).toBe(true);

    // The remote has the commit, and the commit touches .kdd-index/ only.
    expect(git(remote, 'rev-parse', 'main').trim()).toBe(report.git.commit);
    expect(git(remote, 'log', '-1', '--format=%s', 'main').trim()).toBe('kdd: update index');
    const committed = git(remote, 'show', '--name-only', '--format=', 'main').split('\n').filter(Boolean).sort();
    expect(committed).toEqual([...sent].sort());
    expect(git(work, 'diff', '--cached', '--name-only').trim()).toBe('specs/01-domain/entities/Factura.md');
    expect(git(work, 'diff', '--name-only').trim()).toBe('README.md');

    // Nothing changed since: no new commit, nothing more to send.
    const again = await kdd(work, 'sync', 'push', '--git', '--json');
    expect(again.code, again.stderr).toBe(0);
    expect(again.json()).toMatchObject({ files: [], bytes: 0, git: { commit: null, pushed_commits: 0 } });
  });

  it('pull fetches and merges the .kdd-index/ of every remote branch, like kdd merge --from-git', async () => {
    const { root, work, remote } = await gitSetup();
    expect((await kdd(work, 'sync', 'push', '--git')).code).toBe(0);
    // Bob works on his own branch in his own clone.
    git(root, 'clone', '-q', remote, 'bob');
    const bob = join(root, 'bob');
    git(bob, 'config', 'user.name', 'Bob');
    git(bob, 'config', 'user.email', 'bob@example.com');
    git(bob, 'config', 'commit.gpgsign', 'false');
    git(bob, 'checkout', '-q', '-b', 'bob');
    await writeFile(join(bob, 'specs/01-domain/entities/Usuario.md'), SPECS['bob/specs/01-domain/entities/Usuario.md']);
    git(bob, 'add', 'specs');
    git(bob, 'commit', '-q', '-m', 'usuario');
    expect((await kdd(bob, 'build', 'specs', '--level', 'L1')).code).toBe(0);
    const bobPush = await kdd(bob, 'sync', 'push', '--git', '--json');
    expect(bobPush.code, bobPush.stderr).toBe(0);
    // Bob's spec commit travels with the index commit (git pushes whole commits): reported.
    expect(bobPush.json().git.other_files).toEqual(['specs/01-domain/entities/Usuario.md']);
    expect(bobPush.json().warnings[0]).toMatch(/outside \.kdd-index/);

    const pull = await kdd(work, 'sync', 'pull', '--git', '-o', 'pulled', '--json');
    expect(pull.code, pull.stderr).toBe(0);
    const report = pull.json();
    expect(report.developers).toEqual(['origin/bob', 'origin/main']);
    expect(report.merge.nodes).toBe(3);
    const merge = await kdd(work, 'merge', '--from-git', 'origin/bob', 'origin/main', '-o', 'merged', '--json');
    expect(merge.code, merge.stderr).toBe(0);
    expect(report.merge.bundle.bundle).toBe(merge.json().bundle.bundle);

    const one = await kdd(work, 'sync', 'pull', '--git', 'origin/main', '-o', 'only-main', '--json');
    expect(one.code, one.stderr).toBe(0);
    expect(one.json().merge.nodes).toBe(2);
  });

  it('maps git failures to the CMD-005 codes', async () => {
    const { root, work } = await gitSetup();
    const noRemote = await kdd(work, 'sync', 'push', '--git', '--remote', 'upstream');
    expect(noRemote.code).toBe(4);
    expect(noRemote.stderr).toMatch(/REMOTE_UNREACHABLE/);
    git(work, 'remote', 'add', 'gone', join(root, 'missing.git'));
    const gone = await kdd(work, 'sync', 'push', '--git', '--remote', 'gone');
    expect(gone.code).toBe(4);
    expect(gone.stderr).toMatch(/REMOTE_UNREACHABLE: Cannot reach remote: gone/);
    // Someone else pushed first: non-fast-forward.
    git(root, 'clone', '-q', join(root, 'remote.git'), 'other');
    const other = join(root, 'other');
    git(other, 'config', 'user.name', 'O');
    git(other, 'config', 'user.email', 'o@example.com');
    git(other, 'config', 'commit.gpgsign', 'false');
    await writeFile(join(other, 'x.txt'), 'x\n');
    git(other, 'add', 'x.txt');
    git(other, 'commit', '-q', '-m', 'x');
    git(other, 'push', '-q', 'origin', 'main');
    const rejected = await kdd(work, 'sync', 'push', '--git');
    expect(rejected.code).toBe(1);
    expect(rejected.stderr).toMatch(/PUSH_REJECTED/);
    const noIndex = await kdd(work, 'sync', 'pull', '--git', '--remote', 'origin', '--index-path', 'nowhere/.kdd-index', '-o', 'p');
    expect(noIndex.code).toBe(4);
    expect(noIndex.stderr).toMatch(/NO_REMOTE_INDEX/);
  });
});
