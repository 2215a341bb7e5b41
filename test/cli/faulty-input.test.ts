/**
 * Inputs that used to end in a raw stack or a crash (issue: "never silently wrong"): each now ends
 * in a typed error naming the file, or a quiet exit.
 */
import { spawn } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { table } from '../../cli/format.js';
import { runCli } from '../../cli/main.js';
import { capture } from '../helpers/cli-io.js';
import { tempTree, removedAfter } from '../helpers/temp-tree.js';

const roots = removedAfter('each');

const ENTITY = (name: string, text: string) => `---\nkind: entity\n---\n# ${name}\n\n## Descripción\n\n${text}\n`;

async function cli(root: string, argv: string[]) {
  const { io, out, err } = capture(root);
  const code = await runCli(argv, io);
  return { code, out: out.join(''), err: err.join('') };
}

async function twoIndexes(): Promise<string> {
  const root = await tempTree({
    'a/specs/Pedido.md': ENTITY('Pedido', 'Un pedido de un [[Usuario]].'),
    'b/specs/Usuario.md': ENTITY('Usuario', 'Quien compra.'),
  });
  roots.push(root);
  for (const dev of ['a', 'b']) expect((await cli(root, ['build', `${dev}/specs`, '--index-dir', `${dev}/.kdd-index`, '--out', `${dev}/dist`])).code).toBe(0);
  return root;
}

describe('kdd merge of a damaged index', () => {
  it.each([
    ['"version": 99', '{"version": 99, "sources": {}}', 'INDEX_CORRUPT'],
    ['garbage JSON', '<<<<<<< HEAD\n{"version": "1.0.0"', 'INDEX_CORRUPT'],
    ['a newer major format', '{"version": "99.0.0", "sources": {}, "structure": "single-domain", "index_level": "L1"}', 'INCOMPATIBLE_VERSION'],
  ])('a manifest with %s is a typed error naming the file, no stack', async (_, text, code) => {
    const root = await twoIndexes();
    await writeFile(join(root, 'b/.kdd-index/manifest.json'), text);
    const result = await cli(root, ['merge', 'a/.kdd-index', 'b/.kdd-index', '-o', 'merged']);
    expect(result.code).toBe(1);
    expect(result.err).toContain(code);
    if (code === 'INDEX_CORRUPT') expect(result.err).toContain(join('b', '.kdd-index', 'manifest.json'));
    expect(result.err).not.toMatch(/\n\s+at /);
  });

  it('a garbage node file is a typed error naming it', async () => {
    const root = await twoIndexes();
    await writeFile(join(root, 'b/.kdd-index/nodes/entity/Usuario.json'), '{ not json');
    await rm(join(root, 'b/.kdd-index/.cache'), { recursive: true }); // the record cache would stand in for the node files
    const result = await cli(root, ['merge', 'a/.kdd-index', 'b/.kdd-index', '-o', 'merged']);
    expect(result.code).toBe(1);
    expect(result.err).toContain('INDEX_CORRUPT');
    expect(result.err).toContain('Usuario.json');
  });
});

describe('kdd sync push of an empty index', () => {
  it('is refused (PUSH_REJECTED) unless --allow-empty', async () => {
    const root = await tempTree({ 'specs/README.md': '# nothing to index\n' });
    roots.push(root);
    await mkdir(join(root, 'shared'));
    expect((await cli(root, ['build', 'specs'])).code).toBe(0);
    const refused = await cli(root, ['sync', 'push', '--to', 'shared', '--as', 'ana']);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('PUSH_REJECTED');
    expect(refused.err).toContain('holds no documents');
    expect((await cli(root, ['sync', 'push', '--to', 'shared', '--as', 'ana', '--allow-empty'])).code).toBe(0);
  });
});

describe('printing', () => {
  it('a table of 300,000 rows (health of a large tree) prints without exhausting the stack', () => {
    const rows = Array.from({ length: 300_000 }, (_, i) => [`Entity:N${i}`, 'x']);
    expect(table(['NODE', 'KIND'], rows).split('\n')).toHaveLength(300_002);
  });

  it('kdd health --json | head: the closed pipe ends the process quietly (exit 0, nothing on stderr)', async () => {
    const root = await tempTree({ 'specs/Pedido.md': ENTITY('Pedido', Array.from({ length: 4000 }, (_, i) => `[[Missing-${i}]]`).join(' ')) });
    roots.push(root);
    expect((await cli(root, ['build', 'specs'])).code).toBe(0);
    const cliPath = new URL('../../build/cli/main.js', import.meta.url).pathname;
    const child = spawn(process.execPath, [cliPath, 'health', '--json'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.stdout.once('data', () => child.stdout.destroy()); // what `head` does after its first lines
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
