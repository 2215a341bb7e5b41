import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile, packCompiled } from '../../compiler/pipeline.js';
import type { Tombstone } from '../../formats/index-dir/tombstones.js';
import { packBundle } from '../../compiler/pack/pack.js';
import { bundleSource, mergeIndexes, type MergeResult, type MergeSource } from '../../compiler/team/merge.js';
import { decodeBundle } from '../../formats/bundle/bundle.js';
import { isKddError } from '../../model/errors.js';
import { TARGETS, treeArbitrary, writeTree, type Tree } from '../helpers/arbitrary-tree.js';
import { removedAfter } from '../helpers/temp-tree.js';

const roots = removedAfter('all');

/** A tree compiled in memory, as `.kdd-index/` would hold it. */
async function indexOf(tree: Tree, source: string, tombstones: Tombstone[] = []): Promise<MergeSource> {
  const root = await mkdtemp(join(tmpdir(), 'kdd-merge-'));
  roots.push(root);
  await writeTree(root, tree);
  const result = await compile({ specsDir: root });
  const winners = new Set(result.graph.nodes);
  return { source, manifest: result.manifest, records: result.records.filter((record) => winners.has(record.node)), tombstones };
}

const bytesOf = (merged: Pick<MergeResult, 'graph' | 'manifest'>) => Buffer.from(packBundle({ ...merged.graph, manifest: merged.manifest }).bytes);
const asSource = (merged: MergeResult, source: string): MergeSource => ({ source, manifest: merged.manifest, records: merged.records, tombstones: merged.tombstones });

const tombstoneArbitrary = fc.uniqueArray(
  fc.record({
    node_id: fc.constantFrom(...TARGETS.map((id) => (id.startsWith('Ent') ? `Entity:${id}` : id.startsWith('BR') ? `BR:${id}` : `UC:${id}`))),
    source_file: fc.constant('gone.md'),
    source_hash: fc.constantFrom('a'.repeat(64), 'b'.repeat(64)),
    deleted_at: fc.constantFrom(null, '2024-01-01T00:00:00.000Z', '2024-06-01T00:00:00.000Z'),
  }),
  { maxLength: 2, selector: (t) => t.node_id },
);

const ENTITY = (name: string, text = 'Un objeto.') => `---\nkind: entity\n---\n# ${name}\n\n## Descripción\n\n${text}\n`;
const RULE = '---\nid: BR-DOCUMENT-001\nkind: business-rule\n---\n# BR-DOCUMENT-001 — Regla\n\n## Declaración\n\nTodo [[Pedido]] tiene dueño.\n';
const CMD = '---\nid: CMD-001\nkind: command\n---\n# CMD-001 — Crear\n\n## Purpose\n\nCrea un [[Usuario]].\n';

function withTime(source: MergeSource, id: string, indexedAt: string): MergeSource {
  return { ...source, records: source.records.map((record) => (record.node.id === id ? { ...record, node: { ...record.node, indexed_at: indexedAt } } : record)) };
}

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return isKddError(error) ? error.code : String(error);
  }
  return undefined;
}

describe('mergeIndexes laws (bundle bytes)', () => {
  const input = (label: string) => fc.tuple(treeArbitrary({ maxDocs: 6 }), tombstoneArbitrary).map(([tree, tombstones]) => ({ label, tree, tombstones }));

  it('is commutative', async () => {
    await fc.assert(
      fc.asyncProperty(input('a'), input('b'), async (a, b) => {
        const [A, B] = [await indexOf(a.tree, 'a', a.tombstones), await indexOf(b.tree, 'b', b.tombstones)];
        expect(bytesOf(mergeIndexes([A, B])).equals(bytesOf(mergeIndexes([B, A])))).toBe(true);
      }),
      { numRuns: 10 },
    );
  });

  it('is associative', async () => {
    await fc.assert(
      fc.asyncProperty(input('a'), input('b'), input('c'), async (a, b, c) => {
        const [A, B, C] = [await indexOf(a.tree, 'a', a.tombstones), await indexOf(b.tree, 'b', b.tombstones), await indexOf(c.tree, 'c', c.tombstones)];
        const left = mergeIndexes([asSource(mergeIndexes([A, B]), 'ab'), C]);
        const right = mergeIndexes([A, asSource(mergeIndexes([B, C]), 'bc')]);
        expect(bytesOf(left).equals(bytesOf(right))).toBe(true);
        expect(bytesOf(mergeIndexes([A, B, C])).equals(bytesOf(left))).toBe(true);
        expect(left.tombstones).toEqual(right.tombstones);
      }),
      { numRuns: 8 },
    );
  });

  it('is idempotent: merging an index with itself gives its own bundle', async () => {
    await fc.assert(
      fc.asyncProperty(treeArbitrary({ maxDocs: 6 }), async (tree) => {
        const A = await indexOf(tree, 'a');
        const reference = Buffer.from(packBundle({ ...(await compile({ specsDir: roots.at(-1)! })).graph, manifest: A.manifest }).bytes);
        expect(bytesOf(mergeIndexes([A, A])).equals(reference)).toBe(true);
      }),
      { numRuns: 8 },
    );
  });

  it('merging the indexes, or the bundles, of disjoint parts of a tree equals the index of the whole tree', async () => {
    await fc.assert(
      fc.asyncProperty(treeArbitrary({ minDocs: 2, maxDocs: 9 }), fc.array(fc.nat(2), { minLength: 12, maxLength: 12 }), async (tree, parts) => {
        const paths = Object.keys(tree).sort();
        const split = [0, 1, 2].map((part) => Object.fromEntries(paths.filter((_, i) => parts[i]! === part).map((path) => [path, tree[path]!])));
        const inputs = await Promise.all(split.map((partTree, i) => indexOf(partTree, `part${i}`)));
        const bundles: MergeSource[] = [];
        for (const [i, partTree] of split.entries()) bundles.push(bundleSource(decodeBundle(packCompiled(await compile({ specsDir: (await indexOf(partTree, 'x'), roots.at(-1)!) })).bytes), `part${i}.msgpack`));
        const root = await mkdtemp(join(tmpdir(), 'kdd-merge-'));
        roots.push(root);
        await writeTree(root, tree);
        const whole = Buffer.from(packCompiled(await compile({ specsDir: root })).bytes);
        expect(bytesOf(mergeIndexes(inputs)).equals(whole)).toBe(true);
        expect(bytesOf(mergeIndexes(bundles)).equals(whole)).toBe(true);
      }),
      { numRuns: 10 },
    );
  });
});

describe('mergeIndexes: BR-MERGE-001 examples', () => {
  it('no conflict: nodes of both indexes are copied, 0 conflicts, MergeRequested and MergeCompleted emitted', async () => {
    const A = await indexOf({ '01-domain/entities/Pedido.md': ENTITY('Pedido'), '01-domain/rules/BR-DOCUMENT-001.md': RULE }, 'dev-a');
    const B = await indexOf({ '01-domain/entities/Usuario.md': ENTITY('Usuario'), '02-behavior/commands/CMD-001.md': CMD }, 'dev-b');
    const merged = mergeIndexes([A, B]);
    expect(merged.graph.nodes.map((node) => node.id)).toEqual(['BR:BR-DOCUMENT-001', 'CMD:CMD-001', 'Entity:Pedido', 'Entity:Usuario']);
    expect(merged.report.conflicts).toEqual([]);
    expect(merged.report.events.map((event) => event.event)).toEqual(['EVT-Index-MergeRequested', 'EVT-Index-MergeCompleted']);
    expect(merged.report.events[1]!.payload).toMatchObject({ source_count: 2, total_nodes: 4, total_edges: merged.graph.edges.length, conflicts_resolved: 0, total_embeddings: 0 });
    // Edges are re-linked from the winners' raw links: the rule → Pedido edge of A survives.
    expect(merged.graph.edges.some((edge) => edge.from_node === 'BR:BR-DOCUMENT-001' && edge.to_node === 'Entity:Pedido')).toBe(true);
  });

  it('conflict: last-write-wins on indexed_at, reported with its winner', async () => {
    const A = withTime(await indexOf({ '01-domain/entities/Pedido.md': ENTITY('Pedido', 'Versión A.') }, 'dev-a'), 'Entity:Pedido', '2024-05-01T10:00:00.000Z');
    const B = withTime(await indexOf({ '01-domain/entities/Pedido.md': ENTITY('Pedido', 'Versión B.') }, 'dev-b'), 'Entity:Pedido', '2024-05-01T10:15:00.000Z');
    for (const merged of [mergeIndexes([A, B]), mergeIndexes([B, A])]) {
      const hashB = B.records[0]!.node.source_hash;
      expect(merged.graph.nodes[0]!.source_hash).toBe(hashB);
      expect(merged.report.conflicts).toEqual([
        { node_id: 'Entity:Pedido', winner: expect.objectContaining({ source: 'dev-b', source_hash: hashB }), others: [expect.objectContaining({ source: 'dev-a' })], reason: 'later indexed_at' },
      ]);
      expect(merged.report).toMatchObject({ conflicts_resolved: 1, tombstones_applied: 0 });
      expect(merged.report.events[1]!.payload).toMatchObject({ conflicts_resolved: 1 });
    }
  });

  it('equal indexed_at: the higher source_hash wins, whatever the input order', async () => {
    const A = await indexOf({ '01-domain/entities/Pedido.md': ENTITY('Pedido', 'Versión A.') }, 'dev-a');
    const B = await indexOf({ '01-domain/entities/Pedido.md': ENTITY('Pedido', 'Versión B.') }, 'dev-b');
    const higher = [A, B].map((source) => source.records[0]!.node.source_hash).sort()[1];
    expect(mergeIndexes([A, B]).graph.nodes[0]!.source_hash).toBe(higher);
    expect(mergeIndexes([B, A]).graph.nodes[0]!.source_hash).toBe(higher);
    expect(mergeIndexes([A, B]).report.conflicts[0]!.reason).toBe('tie: greater source_hash');
  });

  it('delete-wins: a tombstone removes the node and cascades its edges; a later modification only warns', async () => {
    const tombstone: Tombstone = { node_id: 'Entity:Pedido', source_file: '01-domain/entities/Pedido.md', source_hash: 'a'.repeat(64), deleted_at: '2024-05-01T10:00:00.000Z' };
    const A = await indexOf({ '01-domain/entities/Usuario.md': ENTITY('Usuario') }, 'dev-a', [tombstone]);
    const B = await indexOf({ '01-domain/entities/Pedido.md': ENTITY('Pedido'), '01-domain/rules/BR-DOCUMENT-001.md': RULE }, 'dev-b');
    const merged = mergeIndexes([A, B]);
    expect(merged.graph.nodes.map((node) => node.id)).toEqual(['BR:BR-DOCUMENT-001', 'Entity:Usuario']);
    expect(merged.graph.edges.filter((edge) => edge.to_node === 'Entity:Pedido' || edge.from_node === 'Entity:Pedido')).toEqual([]);
    expect(merged.graph.dangling).toEqual([expect.objectContaining({ from_node: 'BR:BR-DOCUMENT-001', target: 'Pedido' })]);
    expect(merged.report.deleted).toEqual([{ node_id: 'Entity:Pedido', source: 'dev-a', deleted_at: tombstone.deleted_at, modified_after_delete: false }]);
    expect(merged.report.tombstones_applied).toBe(1);
    expect(merged.tombstones).toEqual([tombstone]);
    expect(merged.report.warnings.filter((w) => w.startsWith('DELETE_WINS'))).toEqual([]);

    const later = mergeIndexes([A, withTime(B, 'Entity:Pedido', '2024-06-01T00:00:00.000Z')]);
    expect(later.graph.nodes.map((node) => node.id)).not.toContain('Entity:Pedido');
    expect(later.report.deleted[0]!.modified_after_delete).toBe(true);
    expect(later.report.warnings.some((w) => w.startsWith('DELETE_WINS: Entity:Pedido'))).toBe(true);
  });

  it('a dangling link of one index resolves to a node of the other', async () => {
    const A = await indexOf({ '01-domain/rules/BR-DOCUMENT-001.md': RULE }, 'dev-a');
    const B = await indexOf({ '01-domain/entities/Pedido.md': ENTITY('Pedido') }, 'dev-b');
    expect((await compile({ specsDir: roots.at(-2)! })).graph.dangling).toHaveLength(1);
    const merged = mergeIndexes([A, B]);
    expect(merged.graph.dangling).toEqual([]);
    expect(merged.graph.edges.map((edge) => edge.edge_type)).toContain('ENTITY_RULE');
  });

  it('refuses incompatible manifests with the spec codes', async () => {
    const A = await indexOf({ '01-domain/entities/Pedido.md': ENTITY('Pedido') }, 'dev-a');
    const B = await indexOf({ '01-domain/entities/Usuario.md': ENTITY('Usuario') }, 'dev-b');
    const l2 = (source: MergeSource, model: string): MergeSource => ({ ...source, manifest: { ...source.manifest, index_level: 'L2', embedding_model: model, embedding_dimensions: 768 } });
    expect(codeOf(() => mergeIndexes([l2(A, 'nomic-embed-text-v1.5'), l2(B, 'bge-small-en-v1.5')]))).toBe('INCOMPATIBLE_EMBEDDING_MODEL');
    expect(codeOf(() => mergeIndexes([l2(A, 'nomic-embed-text-v1.5'), l2(B, 'nomic-embed-text-v1.5')]))).toBeUndefined();
    // A major this code does not read is refused; readable ones (the current 2.x, the older 1.x) merge.
    expect(codeOf(() => mergeIndexes([A, { ...B, manifest: { ...B.manifest, version: '3.0.0' } }]))).toBe('INCOMPATIBLE_VERSION');
    expect(codeOf(() => mergeIndexes([A, { ...B, manifest: { ...B.manifest, version: '0.9.0' } }]))).toBe('INCOMPATIBLE_VERSION');
    expect(codeOf(() => mergeIndexes([A, { ...B, manifest: { ...B.manifest, version: '2.4.0' } }]))).toBeUndefined();
    expect(codeOf(() => mergeIndexes([A, { ...B, manifest: { ...B.manifest, version: '1.0.0' } }]))).toBeUndefined();
    expect(codeOf(() => mergeIndexes([A, { ...B, manifest: { ...B.manifest, structure: 'multi-domain' } }]))).toBe('INCOMPATIBLE_STRUCTURE');
    expect(codeOf(() => mergeIndexes([A]))).toBe('INSUFFICIENT_SOURCES');
  });

  it('fail_on_conflict aborts with CONFLICT_REJECTED and the conflict count', async () => {
    const A = await indexOf({ '01-domain/entities/Pedido.md': ENTITY('Pedido', 'A.') }, 'dev-a');
    const B = await indexOf({ '01-domain/entities/Pedido.md': ENTITY('Pedido', 'B.') }, 'dev-b');
    expect(() => mergeIndexes([A, B], { strategy: 'fail_on_conflict' })).toThrow('Merge aborted: 1 conflicts detected');
    expect(mergeIndexes([A, A], { strategy: 'fail_on_conflict' }).report.conflicts).toEqual([]);
  });
});

describe('mergeIndexes: bundle inputs', () => {
  it('bundles merge commutatively and idempotently, and their dangling links re-resolve from their section', async () => {
    const a = await compile({ specsDir: (await indexOf({ '01-domain/rules/BR-DOCUMENT-001.md': RULE }, 'x'), roots.at(-1)!) });
    const b = await compile({ specsDir: (await indexOf({ '01-domain/entities/Pedido.md': ENTITY('Pedido') }, 'y'), roots.at(-1)!) });
    const A = bundleSource(decodeBundle(packCompiled(a).bytes), 'a.msgpack');
    const B = bundleSource(decodeBundle(packCompiled(b).bytes), 'b.msgpack');
    const merged = mergeIndexes([A, B]);
    expect(bytesOf(merged).equals(bytesOf(mergeIndexes([B, A])))).toBe(true);
    expect(bytesOf(mergeIndexes([A, A])).equals(Buffer.from(packCompiled(a).bytes))).toBe(true);
    expect(merged.graph.dangling).toEqual([]);
    expect(merged.graph.edges.map((edge) => `${edge.from_node} ${edge.edge_type} ${edge.to_node}`)).toEqual(mergeIndexes([a, b].map((compiled, i) => ({ source: `${i}`, manifest: compiled.manifest, records: compiled.records, tombstones: [] }))).graph.edges.map((edge) => `${edge.from_node} ${edge.edge_type} ${edge.to_node}`));
    expect(merged.graph.edges).toContainEqual(expect.objectContaining({ from_node: 'BR:BR-DOCUMENT-001', to_node: 'Entity:Pedido', edge_type: 'WIKI_LINK' }));
  });
});

describe('mergeIndexes: bundles and .kdd-index/ folders of the same content', () => {
  const UC = '---\nid: UC-001\nkind: use-case\n---\n# UC-001 — Registrar\n\n## Descripción\n\nRegistra un [[Pedido|pedido]].\n\n## Reglas Aplicadas\n\n- [[BR-DOCUMENT-001]]\n- [[BR-DOCUMENT-001#Declaración]]\n';
  const FEATURE = 'Feature: Registrar\n\n  @UC-001 @BR-DOCUMENT-001\n  Scenario: SCN-001 — Registra\n    Given un pedido\n    Then cumple BR-DOCUMENT-001\n';
  it('give the same merged bundle when one input links, from typed sections or bare ids, nodes only the other defines', async () => {
    const A = await indexOf({ '02-behavior/use-cases/UC-001.md': UC, '04-verification/features/registrar.feature': FEATURE }, 'dev-a');
    const a = await compile({ specsDir: roots.at(-1)! });
    const B = await indexOf({ '01-domain/rules/BR-DOCUMENT-001.md': RULE, '01-domain/entities/Pedido.md': ENTITY('Pedido') }, 'dev-b');
    const b = await compile({ specsDir: roots.at(-1)! });
    const fromIndexes = mergeIndexes([A, B]);
    const fromBundles = mergeIndexes([bundleSource(decodeBundle(packCompiled(a).bytes), 'a.msgpack'), bundleSource(decodeBundle(packCompiled(b).bytes), 'b.msgpack')]);
    expect(fromIndexes.graph.edges.some((edge) => edge.from_node === 'UC:UC-001' && edge.edge_type !== 'WIKI_LINK' && edge.to_node === 'BR:BR-DOCUMENT-001')).toBe(true);
    expect(fromIndexes.graph.edges.some((edge) => edge.from_node.startsWith('FEAT:') && edge.to_node === 'BR:BR-DOCUMENT-001')).toBe(true);
    expect(fromBundles.graph.edges).toEqual(fromIndexes.graph.edges);
    expect(bytesOf(fromBundles).equals(bytesOf(fromIndexes))).toBe(true);
  });
});
