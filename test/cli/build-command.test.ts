import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../cli/main.js';
import { tempTree, removedAfter } from '../helpers/temp-tree.js';
import { capture } from '../helpers/cli-io.js';


const roots = removedAfter('each');

const ENTITY = '---\nkind: entity\n---\n# Pedido\n\n## Descripción\n\nUn pedido de un [[Usuario]].\n';

describe('kdd build', () => {
  it('indexes specs/ by default and prints a summary', async () => {
    const root = await tempTree({ 'specs/01-domain/entities/Pedido.md': ENTITY });
    roots.push(root);
    const { io, out } = capture(root);
    expect(await runCli(['build'], io)).toBe(0);
    const text = out.join('');
    expect(text).toMatch(/1 files → 1 nodes, 0 edges/);
    expect(text).toMatch(/dangling links: 1/);
    const pointer = JSON.parse(await readFile(join(root, 'dist/kdd.json'), 'utf8'));
    expect(pointer.bundle).toMatch(/^kdd-[0-9a-f]{12}\.msgpack$/);
    expect(existsSync(join(root, 'dist', pointer.bundle))).toBe(true);
    expect(existsSync(join(root, '.kdd-index/nodes/entity/Pedido.json'))).toBe(true);
    expect(existsSync(join(root, '.kdd-index/edges/edges.jsonl'))).toBe(true);
  });

  it('--json prints the machine report with events, and --out/--index-dir move the outputs', async () => {
    const root = await tempTree({ 'docs/specs/01-domain/entities/Pedido.md': ENTITY });
    roots.push(root);
    const { io, out } = capture(root);
    expect(await runCli(['build', 'docs/specs', '--out', 'site-dist', '--index-dir', 'idx', '--json'], io)).toBe(0);
    const report = JSON.parse(out.join(''));
    expect(report).toMatchObject({ nodes: 1, nodes_by_kind: { entity: 1 }, index_level: 'L1', dangling_links: 1 });
    expect(report.events.map((e: { event: string }) => e.event)).toEqual(['EVT-KDDDocument-Detected', 'EVT-KDDDocument-Parsed', 'EVT-KDDDocument-Indexed']);
    expect(existsSync(join(root, 'site-dist/kdd.json'))).toBe(true);
    expect(existsSync(join(root, 'idx/manifest.json'))).toBe(true);
  });

  it('--strict exits non-zero when there are warnings', async () => {
    const root = await tempTree({ 'specs/a.md': '---\nkind: nonsense\n---\n' });
    roots.push(root);
    const { io, out } = capture(root);
    expect(await runCli(['build', '--strict'], io)).toBe(1);
    expect(out.join('')).toContain("UNKNOWN_KIND  Unknown kind 'nonsense' in a.md");
  });

  it('--fail-on-violations exits 1 when a layer violation exists, 0 otherwise', async () => {
    const root = await tempTree({
      'specs/01-domain/entities/Pedido.md': '---\nkind: entity\n---\n# Pedido\n\n## Descripción\n\nVer [[UC-001]].\n',
      'specs/02-behavior/use-cases/UC-001-Crear.md': '---\nid: UC-001\nkind: use-case\n---\n# UC-001: Crear\n\n## Descripción\n\nCrea un [[Pedido]].\n',
    });
    roots.push(root);
    const { io, out } = capture(root);
    expect(await runCli(['build'], io)).toBe(0);
    expect(out.join('')).toContain('layer violations: 1');
    expect(await runCli(['build', '--fail-on-violations'], io)).toBe(1);
    const clean = await tempTree({ 'specs/01-domain/entities/Pedido.md': ENTITY });
    roots.push(clean);
    expect(await runCli(['build', '--fail-on-violations'], capture(clean).io)).toBe(0);
  });

  it('rejects unknown flags with a usage message and exit code 2', async () => {
    const { io, err } = capture(process.cwd());
    expect(await runCli(['build', '--bogus'], io)).toBe(2);
    expect(err.join('')).toMatch(/bogus/);
    expect(await runCli(['frobnicate'], io)).toBe(2);
  });
});
