/** `kdd site [DIR] [--specs DIR]` (#18): the rendered specs next to the site, or a clear note without them. */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../cli/main.js';
import { capture } from '../helpers/cli-io.js';
import { tempTree, removedAfter } from '../helpers/temp-tree.js';

const roots = removedAfter('each');

const ENTITY = '---\nkind: entity\n---\n# Pedido\n\n## Descripción\n\n- Un pedido de un [[Usuario]].\n';

describe('kdd site', () => {
  it('renders the specs of specs/ by default, and says what it wrote', async () => {
    const root = await tempTree({ 'specs/01-domain/entities/Pedido.md': ENTITY });
    roots.push(root);
    expect(await runCli(['build'], capture(root).io)).toBe(0);
    const { io, out } = capture(root);
    expect(await runCli(['site'], io)).toBe(0);
    expect(out.join('')).toContain('documents: 1 rendered, 0 source files missing, 0 changed since the build');
    const pointer = JSON.parse(await readFile(join(root, 'dist/kdd-docs.json'), 'utf8'));
    expect(pointer).toMatchObject({ format: 'kdd-docs/1', documents: 1 });
    expect(existsSync(join(root, 'dist', pointer.buckets[0]))).toBe(true);
  });

  it('without a specs tree, writes the site and says node pages show extracted fields', async () => {
    const root = await tempTree({ 'docs/01-domain/entities/Pedido.md': ENTITY });
    roots.push(root);
    expect(await runCli(['build', 'docs'], capture(root).io)).toBe(0);
    const { io, out } = capture(root);
    expect(await runCli(['site'], io)).toBe(0);
    expect(out.join('')).toMatch(/documents: no specs tree at .*specs: node pages show extracted fields/);
    expect(existsSync(join(root, 'dist/kdd-docs.json'))).toBe(false);
    const named = capture(root);
    expect(await runCli(['site', '--specs', 'nowhere'], named.io)).not.toBe(0);
    expect(named.err.join('')).toContain('--specs nowhere: no such folder');
    expect(await runCli(['site', '--specs', 'docs'], capture(root).io)).toBe(0);
    expect(existsSync(join(root, 'dist/kdd-docs.json'))).toBe(true);
  });
});
