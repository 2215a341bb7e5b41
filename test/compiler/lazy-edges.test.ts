import { appendFile, cp, mkdtemp, readdir, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readRecordCache, restoreGraph, writeRecordCache, type CachedGraph } from '../../compiler/cache/record-cache.js';
import { packedEdges, rememberPackedEdges } from '../../compiler/cache/packed-node.js';
import { readIndexDir } from '../../compiler/emit/read-index-dir.js';
import { edgeCount, edgeTypeCounts, graphPackedEdges, outDegrees, withGraph } from '../../compiler/graph/edge-facts.js';
import { linkRecords, type Graph } from '../../compiler/graph/link.js';
import { build, buildIndex } from '../../compiler/pipeline.js';
import { countBy } from '../../compiler/report.js';
import { canonical } from '../../formats/canonical.js';
import { treeArbitrary, writeTree } from '../helpers/arbitrary-tree.js';
import { KDD_ENGINE_SPECS, removedAfter } from '../helpers/temp-tree.js';

const roots = removedAfter('all');

async function tempRoot(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'kdd-lazy-edges-'));
  roots.push(root);
  return root;
}

function dirsOf(root: string, name = '') {
  return { specsDir: join(root, 'specs'), outDir: join(root, `dist${name}`), indexDir: join(root, `.kdd-index${name}`) };
}

/** The restored graph of the index just built in `dirs`, and the graph its node files link to. */
async function restoredAndLinked(indexDir: string): Promise<{ restored: Graph; linked: Graph; cached: CachedGraph; records: Awaited<ReturnType<typeof readIndexDir>>['records'] }> {
  const cache = await readRecordCache(join(indexDir, '.cache', 'records'), await readFile(join(indexDir, 'manifest.json'), 'utf8'));
  const { records } = await readIndexDir(indexDir);
  return { restored: restoreGraph(cache!.records, cache!.graph!), linked: linkRecords(records), cached: cache!.graph!, records: cache!.records };
}

/** Every other id of the linked graph's nodes and edge sources (sources no node has included): the ids whose out-degree is asked. */
function someIds(linked: Graph): Set<string> {
  return new Set([...new Set([...linked.nodes.map((node) => node.id), ...linked.edges.map((edge) => edge.from_node)])].filter((_, i) => i % 2 === 0));
}

/** What a build asks of a graph's edges, through the helpers. */
function facts(graph: Graph, ids: ReadonlySet<string>) {
  const types = edgeTypeCounts(graph);
  return { count: edgeCount(graph), types, order: Object.keys(types), degrees: [...outDegrees(graph, ids)].sort(([a], [b]) => (a < b ? -1 : 1)), packed: graphPackedEdges(graph, graph.nodes) };
}

/** The same facts read from plain edges. */
function plainFacts(graph: Graph, ids: ReadonlySet<string>) {
  const types = countBy(graph.edges.map((edge) => edge.edge_type));
  const degrees = new Map<string, number>();
  for (const edge of graph.edges) if (ids.has(edge.from_node)) degrees.set(edge.from_node, (degrees.get(edge.from_node) ?? 0) + 1);
  return { count: graph.edges.length, types, order: Object.keys(types), degrees: [...degrees].sort(([a], [b]) => (a < b ? -1 : 1)), packed: packedEdges(graph.edges, graph.nodes) };
}

describe('edges restored from the record cache, made when first read', () => {
  it('answer count, per-type counts, out-degrees and bundle columns from the columns as from the linked edges, before and after they are made', async () => {
    await fc.assert(
      fc.asyncProperty(treeArbitrary({ minDocs: 2, maxDocs: 8 }), async (tree) => {
        const root = await tempRoot();
        await writeTree(join(root, 'specs'), tree);
        await buildIndex(dirsOf(root));
        const { restored, linked } = await restoredAndLinked(dirsOf(root).indexDir);
        const ids = someIds(linked);
        const expected = plainFacts(linked, ids);
        // A copy made for the pack shares the deferral: it answers the same without the edges.
        const copy = withGraph(restored, { manifest: null });
        expect(Object.keys(copy)).toEqual([...Object.keys(restored), 'manifest']);
        expect(facts(copy, ids)).toEqual(expected);
        expect(facts(restored, ids)).toEqual(expected);
        // Made on first read: equal to the linked edges, the same array through the copy.
        expect(canonical(restored.edges)).toEqual(canonical(linked.edges));
        expect(copy.edges).toBe(restored.edges);
        expect(facts(restored, ids)).toEqual(expected);
        expect(graphPackedEdges(restored, restored.nodes)).toBe(packedEdges(restored.edges, restored.nodes));
      }),
      { seed: 17, numRuns: 12 },
    );
  }, 60_000);

  it('a corrupt edge column throws when the graph is restored (the build then links anew), not when a later stage reads the edges', async () => {
    const root = await tempRoot();
    await writeTree(join(root, 'specs'), {
      '01-domain/entities/Ent1.md': '---\nid: Ent1\nkind: entity\n---\n# Ent1\n\n## Descripción\n\nVer [[Ent2]].\n',
      '01-domain/entities/Ent2.md': '---\nid: Ent2\nkind: entity\n---\n# Ent2\n\n## Descripción\n\nVer [[Ent1]] y [[Missing]].\n',
    });
    await buildIndex(dirsOf(root));
    const { cached, records } = await restoredAndLinked(dirsOf(root).indexDir);
    expect(cached.edges.count).toBeGreaterThan(0);
    // A `from` beyond every node and string; a width byte that does not fit the count; a metadata index past the list.
    const outOfRange = { ...cached.edges, from: Uint8Array.of(1, ...new Array<number>(cached.edges.count).fill(250)) };
    const wrongSize = { ...cached.edges, to: Uint8Array.of(1) };
    const badMeta = { ...cached.edges, metadata: [] };
    for (const edges of [outOfRange, wrongSize, badMeta]) expect(() => restoreGraph(records, { ...cached, edges })).toThrow(/bundle is corrupt/);
  });

  it('a record cache whose edge columns pass its checksum but not their checks: the build links anew and equals a full one', async () => {
    const root = await tempRoot();
    await writeTree(join(root, 'specs'), {
      '01-domain/entities/Ent1.md': '---\nid: Ent1\nkind: entity\n---\n# Ent1\n\n## Descripción\n\nVer [[Ent2]].\n',
      '01-domain/entities/Ent2.md': '---\nid: Ent2\nkind: entity\n---\n# Ent2\n\n## Descripción\n\nVer [[Ent1]] y [[Missing]].\n',
      '01-domain/entities/Ent3.md': '---\nid: Ent3\nkind: entity\n---\n# Ent3\n\n## Descripción\n\nVer [[Ent1]].\n',
    });
    const dirs = dirsOf(root);
    await buildIndex(dirs);
    const file = join(dirs.indexDir, '.cache', 'records');
    const manifest = await readFile(join(dirs.indexDir, 'manifest.json'), 'utf8');
    const cache = (await readRecordCache(file, manifest))!;
    const restored = restoreGraph(cache.records, cache.graph!);
    // Written by the cache's own writer, so its checksum holds: every edge now starts past the last node and string.
    const edges = [...restored.edges];
    rememberPackedEdges(edges, { ...cache.graph!.edges, from: Uint8Array.of(1, ...new Array<number>(cache.graph!.edges.count).fill(250)) });
    await writeRecordCache(file, manifest, cache.records, cache.stamps, cache.artifacts, { ...restored, edges });
    expect((await readRecordCache(file, manifest))!.graph).not.toBeNull();
    await appendFile(join(dirs.specsDir, '01-domain/entities/Ent3.md'), '\nOtra línea.\n');
    const edited = await buildIndex(dirs);
    const full = await build(dirsOf(root, '-full'));
    expect(edited.mode).toBe('incremental');
    expect(edited.bundle.bundle).toBe(full.bundle.bundle);
    expect(edited.edges_by_type).toEqual(full.edges_by_type);
  });

  it.skipIf(!existsSync(KDD_ENGINE_SPECS))('a one-edit build over the kdd-engine specs reports and packs what a full build does', async () => {
    const root = await tempRoot();
    await cp(KDD_ENGINE_SPECS, join(root, 'specs'), { recursive: true });
    await buildIndex(dirsOf(root));
    const { restored, linked } = await restoredAndLinked(dirsOf(root).indexDir);
    expect(facts(restored, someIds(linked))).toEqual(plainFacts(linked, someIds(linked)));

    const spec = join(root, 'specs', '01-domain', 'entities');
    const file = join(spec, (await readdir(spec)).find((name) => name.endsWith('.md'))!);
    await appendFile(file, '\nUna línea más, sin enlaces.\n');
    const edited = await buildIndex(dirsOf(root));
    const full = await build(dirsOf(root, '-full'));
    expect(edited.mode).toBe('incremental');
    expect(edited.bundle.bundle).toBe(full.bundle.bundle);
    expect(edited.edges).toBe(full.edges);
    expect(edited.edges_by_type).toEqual(full.edges_by_type);
    expect(Object.keys(edited.edges_by_type)).toEqual(Object.keys(full.edges_by_type));
    const indexed = (report: typeof edited) => report.events.find((event) => event.event === 'EVT-KDDDocument-Indexed')!.payload as { node_id: string; edge_count: number };
    const fullIndexed = full.events.filter((event) => event.event === 'EVT-KDDDocument-Indexed').map((event) => event.payload as { node_id: string; edge_count: number });
    expect(indexed(edited).edge_count).toBe(fullIndexed.find((payload) => payload.node_id === indexed(edited).node_id)!.edge_count);
    expect(indexed(edited).edge_count).toBeGreaterThan(0);
    const manifest = async (dir: string) => JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as { stats: unknown };
    expect((await manifest(dirsOf(root).indexDir)).stats).toEqual((await manifest(dirsOf(root, '-full').indexDir)).stats);
  }, 60_000);
});
