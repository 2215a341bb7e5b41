import fc from 'fast-check';
import { Packr } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { decodeBundle, encodeBundle, encodeBundleParts } from '../../formats/bundle/bundle.js';
import { BUNDLE_FORMAT_VERSION, type Bundle, type BundleChunk } from '../../formats/bundle/types.js';
import { isKddError } from '../../model/errors.js';
import { bundleHash, loadIndex } from '../../runtime/load.js';
import type { DanglingLink, GraphEdge, GraphNode, LayerViolation } from '../../model/graph.js';
import { buildTextIndex } from '../../runtime/search/index.js';

const WORDS = ['pedido', 'order', 'regla', 'rule', 'precio', 'índice', 'Entity:Pedido', 'UC-001', 'merge', 'fusión', 'capa', '', '\n', 'ñandú'];
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const text = fc.array(fc.constantFrom(...WORDS), { maxLength: 30 }).map((w) => w.join(' '));
const small = fc.constantFrom('a', 'b', 'section', 'Descripción', 'x/y.md');

/** A JSON-like `indexed_fields` value; `pool` strings make verbatim copies of section text likely. */
function fieldValue(pool: fc.Arbitrary<string>): fc.Arbitrary<unknown> {
  const leaf = fc.oneof(pool, text, fc.integer(), fc.boolean(), fc.constant(null), fc.string());
  return fc.oneof(
    { weight: 3, arbitrary: leaf },
    { weight: 1, arbitrary: fc.array(leaf, { maxLength: 4 }) },
    { weight: 1, arbitrary: fc.dictionary(small, leaf, { maxKeys: 3 }) },
    { weight: 1, arbitrary: fc.array(fc.dictionary(small, leaf, { maxKeys: 3 }), { maxLength: 3 }) },
  );
}

const section = fc.record({ depth: fc.integer({ min: 2, max: 4 }), field: fc.option(small), heading: text, text });

const nodeArb = (id: string) =>
  fc.array(section, { maxLength: 4 }).chain((sections) => {
    const texts = sections.map((s) => s.text);
    // Verbatim substrings of the section text, as the extractors produce (lists, table cells, joins).
    const pool = texts.length === 0 ? text : fc.tuple(fc.constantFrom(...texts, texts.join('\n\n')), fc.nat(), fc.nat()).map(([t, a, b]) => t.slice(Math.min(a, b) % (t.length + 1), Math.max(a, b) % (t.length + 1) || undefined));
    return fc.record({
      aliases: fc.array(text, { maxLength: 2 }),
      doc_id: fc.constant(id.slice(id.indexOf(':') + 1)),
      domain: fc.option(small),
      id: fc.constant(id),
      indexed_at: fc.option(fc.constant('2024-01-01T00:00:00Z')),
      indexed_fields: fc.dictionary(small, fieldValue(pool), { maxKeys: 4 }),
      kind: fc.constantFrom('entity', 'use-case', 'business-rule'),
      layer: fc.constantFrom('01-domain', '02-behavior'),
      sections: fc.constant(sections),
      source_file: fc.constantFrom(`specs/${id}.md`, 'shared.md'),
      source_hash: fc.constant('0'.repeat(64)),
      status: fc.constantFrom('draft', 'approved'),
      tags: fc.array(small, { maxLength: 2 }),
      title: text,
    }) as unknown as fc.Arbitrary<GraphNode>;
  });

const bundleArb: fc.Arbitrary<Bundle> = fc
  .uniqueArray(fc.stringMatching(/^[A-Z]{1,3}:[A-Za-z0-9-]{1,6}$/), { maxLength: 8 })
  .map((ids) => [...ids].sort(cmp))
  .chain((ids) => fc.tuple(fc.constant(ids), fc.tuple(...ids.map(nodeArb))))
  .chain(([ids, nodes]) => {
    // Edges may name ids that are no node (kept as strings by the encoder).
    const ref = fc.oneof({ weight: 4, arbitrary: ids.length ? fc.constantFrom(...ids) : fc.constant('X:none') }, { weight: 1, arbitrary: fc.constant('Ghost:1') });
    const edge = fc.record({
      bidirectional: fc.boolean(),
      edge_type: fc.constantFrom('WIKI_LINK', 'EMITS', 'pertenece_a'),
      extraction_method: fc.constantFrom('wiki_link', 'section_content', 'implicit'),
      from_node: ref,
      layer_violation: fc.boolean(),
      metadata: fc.dictionary(fc.constantFrom('section', 'cardinality', 'anchor'), text, { maxKeys: 2 }),
      source_file: fc.constantFrom('shared.md', 'other.md'),
      to_node: ref,
    }) as fc.Arbitrary<GraphEdge>;
    const chunk = fc.record({
      embeddable: fc.boolean(),
      end: fc.nat(70000),
      id: fc.string(),
      node: fc.nat(Math.max(0, nodes.length - 1)),
      position: fc.nat(300),
      section: fc.nat(5),
      start: fc.nat(5),
    });
    const violation = fc.record({ edge_type: text, from_layer: fc.constant('02-behavior'), from_node: text, source_file: text, to_layer: fc.constant('01-domain'), to_node: text });
    const occurrence = fc.record({ anchor: fc.option(text), alias: fc.option(text), field: fc.option(text), section: fc.option(text) });
    const dangling = fc.record({ from_node: text, section: fc.option(text), source_file: text, target: text, links: fc.array(occurrence, { minLength: 1, maxLength: 2 }) }, { requiredKeys: ['from_node', 'section', 'source_file', 'target'] });
    return fc.record({
      edges: fc.array(edge, { maxLength: 12 }),
      chunks: fc.array(chunk, { maxLength: nodes.length ? 6 : 0 }),
      chunkPrefix: fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
      layer_violations: fc.array(violation, { maxLength: 2 }),
      dangling: fc.array(dangling, { maxLength: 2 }),
      unresolved_ids: fc.array(dangling, { maxLength: 2 }),
    }).map(({ edges, chunks, chunkPrefix, layer_violations, dangling: danglingLinks, unresolved_ids }) => {
      const position = new Map(nodes.map((n, i) => [n.id, i]));
      // Sources: some edges take their from-node's file (implied in the encoding), some another.
      const sorted = edges
        .map((e, i) => (i % 2 === 0 && position.has(e.from_node) ? { ...e, source_file: nodes[position.get(e.from_node)!]!.source_file } : e))
        .sort((a, b) => cmp(a.from_node, b.from_node) || cmp(a.to_node, b.to_node) || cmp(a.edge_type, b.edge_type));
      const outgoing = nodes.map(() => [] as number[]);
      const incoming = nodes.map(() => [] as number[]);
      sorted.forEach((e, i) => {
        if (position.has(e.from_node)) outgoing[position.get(e.from_node)!]!.push(i);
        if (position.has(e.to_node)) incoming[position.get(e.to_node)!]!.push(i);
      });
      const bundleChunks: BundleChunk[] = chunks.map((c, i) => ({ ...c, id: chunkPrefix[i] ? `${nodes[c.node]!.id}#${c.id}` : c.id }));
      return {
        format: BUNDLE_FORMAT_VERSION,
        manifest: { version: '1.0.0', sources: Object.fromEntries(nodes.map((n) => [n.source_file, n.source_hash])) },
        nodes,
        edges: sorted,
        outgoing,
        incoming,
        layer_violations: layer_violations as LayerViolation[],
        dangling: danglingLinks as DanglingLink[],
        unresolved_ids: unresolved_ids as DanglingLink[],
        search: buildTextIndex(nodes),
        chunks: bundleChunks,
        vectors: null,
      } as unknown as Bundle;
    });
  });

const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

function code(run: () => unknown): string | null {
  try {
    run();
    return null;
  } catch (error) {
    if (isKddError(error)) return error.code;
    throw error;
  }
}

/** msgpackr's own encoding of what `bytes` decode to (with the bundle's settings). */
function repacked(bytes: Uint8Array): Uint8Array {
  const packr = new Packr({ useRecords: false, variableMapSize: true });
  return packr.pack(packr.unpack(bytes));
}

describe('bundle format 2', () => {
  it('round-trips: decode(encode(b)) deep-equals b, lazy equals eager, and re-encoding gives the same bytes', () => {
    fc.assert(
      fc.property(bundleArb, (bundle) => {
        const bytes = encodeBundle(bundle);
        const lazy = decodeBundle(bytes);
        const eager = decodeBundle(bytes, { lazy: false });
        expect(eager).toEqual(bundle);
        expect(lazy).toEqual(bundle);
        // Same keys in the same order as the input (JSON answers look the same as before).
        expect(JSON.stringify(decodeBundle(bytes))).toBe(JSON.stringify(bundle));
        expect(same(encodeBundle(decodeBundle(bytes)), bytes)).toBe(true);
        expect(same(encodeBundle(structuredClone(bundle)), bytes)).toBe(true);
        // The hand-written outer maps give msgpackr's own bytes for the same value.
        expect(same(repacked(bytes), bytes)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('node bodies are decoded on first access, cached, and assignable', () => {
    const bundle = fc.sample(bundleArb.filter((b) => b.nodes.length > 0), { numRuns: 1, seed: 7 })[0]!;
    const decoded = decodeBundle(encodeBundle(bundle));
    const node = decoded.nodes[0]!;
    expect(Object.getOwnPropertyDescriptor(node, 'sections')?.get).toBeTypeOf('function');
    expect(node.sections).toBe(node.sections);
    expect(node.indexed_fields).toEqual(bundle.nodes[0]!.indexed_fields);
    expect({ ...node }).toEqual(bundle.nodes[0]);
    node.sections = [];
    expect(node.sections).toEqual([]);
    // Assigning one heavy value before the body was ever decoded leaves the other to decode as stored.
    const fresh = decodeBundle(encodeBundle(bundle)).nodes[0]!;
    fresh.sections = [];
    expect(fresh.sections).toEqual([]);
    expect(fresh.indexed_fields).toEqual(bundle.nodes[0]!.indexed_fields);
  });

  it('gives every node the same accessor functions, so nodes share one hidden class (not dictionary mode)', () => {
    const bundle = fc.sample(bundleArb.filter((b) => b.nodes.length > 1), { numRuns: 1, seed: 7 })[0]!;
    const [a, b] = decodeBundle(encodeBundle(bundle)).nodes;
    for (const key of ['sections', 'indexed_fields']) {
      expect(Object.getOwnPropertyDescriptor(a, key)?.get).toBe(Object.getOwnPropertyDescriptor(b, key)?.get);
      expect(Object.getOwnPropertyDescriptor(a, key)?.set).toBe(Object.getOwnPropertyDescriptor(b, key)?.set);
    }
  });

  it('stores edges in columns and text once: much smaller than the plain msgpack of the same bundle', () => {
    const text = 'El pedido se confirma cuando el cliente paga. '.repeat(40);
    const nodes = Array.from({ length: 50 }, (_, i) => ({
      aliases: [], doc_id: `N${i}`, domain: null, id: `E:N${String(i).padStart(3, '0')}`, indexed_at: null,
      indexed_fields: { description: text, steps: [text.slice(0, 60), text.slice(100, 190)] },
      kind: 'entity', layer: '01-domain', sections: [{ depth: 2, field: 'description', heading: 'Descripción', text }],
      source_file: `01-domain/N${i}.md`, source_hash: '0'.repeat(64), status: 'draft', tags: [], title: `N${i}`,
    })) as unknown as GraphNode[];
    const edges = nodes.flatMap((n, i) => nodes.slice(i + 1, i + 6).map((m) => ({
      bidirectional: true, edge_type: 'WIKI_LINK', extraction_method: 'wiki_link', from_node: n.id, layer_violation: false,
      metadata: { section: 'Descripción' }, source_file: n.source_file, to_node: m.id,
    }))) as GraphEdge[];
    const bundle = { format: BUNDLE_FORMAT_VERSION, manifest: {}, nodes, edges, outgoing: [], incoming: [], layer_violations: [], dangling: [], search: null, chunks: [], vectors: null } as unknown as Bundle;
    const plain = new Packr({ useRecords: false, variableMapSize: true }).pack(bundle).length;
    const bytes = encodeBundle(bundle);
    expect(bytes.length).toBeLessThan(plain * 0.6);
    const decoded = decodeBundle(bytes);
    expect(decoded.edges).toEqual(edges);
    expect(decoded.nodes).toEqual(nodes);
    expect(decoded.outgoing[0]).toEqual([0, 1, 2, 3, 4]);
    expect(decoded.incoming[5]).toEqual([4, 8, 12, 16, 20]);
  });

  it('packing into a buffer the caller sized (large bundles) gives the same bytes, msgpackr\'s own', () => {
    const text = 'Un pedido del cliente con líneas, total y estado. '.repeat(800);
    const nodes = Array.from({ length: 60 }, (_, i) => ({
      aliases: [], doc_id: `N${i}`, domain: null, id: `Entity:N${i}`, indexed_at: null, indexed_fields: {}, kind: 'entity', layer: '01-domain',
      sections: [{ depth: 2, field: 'description', heading: 'Descripción', text: `${i} ${text}` }],
      source_file: `01-domain/N${i}.md`, source_hash: '0'.repeat(64), status: 'draft', tags: [], title: `N${i} ñandú`,
    })) as unknown as GraphNode[];
    // A manifest of 20 keys and a body column over 64 KiB: map 16 and bin 32 headers.
    const manifest = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${String(i).padStart(2, '0')}`, 'ñ'.repeat(150)]));
    const bundle = { format: BUNDLE_FORMAT_VERSION, manifest, nodes, edges: [], layer_violations: [], dangling: [], search: null, chunks: [], vectors: null } as unknown as Bundle;
    const plain = encodeBundle(bundle);
    expect(plain.length).toBeGreaterThan(2 << 20);
    expect(same(repacked(plain), plain)).toBe(true);
    const sized = encodeBundle(bundle, { allocate: (size) => Buffer.allocUnsafeSlow(size) });
    expect(same(sized, plain)).toBe(true);
    expect(decodeBundle(sized).nodes).toEqual(nodes);
    // Left in pieces (what the packer writes), the same bytes one after the other.
    const parts = encodeBundleParts(bundle);
    expect(parts.length).toBeGreaterThan(1);
    expect(same(Buffer.concat(parts), plain)).toBe(true);
  });

  it('refuses other format versions with INDEX_UNAVAILABLE', () => {
    const packr = new Packr({ useRecords: false, variableMapSize: true });
    expect(code(() => decodeBundle(packr.pack({ format: 1, nodes: [], edges: [] })))).toBe('INDEX_UNAVAILABLE');
    expect(code(() => decodeBundle(encodeBundle({ format: 3 } as never)))).toBe('INDEX_UNAVAILABLE');
    expect(code(() => decodeBundle(packr.pack({ format: BUNDLE_FORMAT_VERSION })))).toBe('INDEX_UNAVAILABLE');
  });

  it('truncated bytes are refused with INDEX_UNAVAILABLE', () => {
    fc.assert(
      fc.property(bundleArb, fc.double({ min: 0, max: 1, noNaN: true }), (bundle, cut) => {
        const bytes = encodeBundle(bundle);
        const at = Math.min(bytes.length - 1, Math.floor(cut * bytes.length));
        expect(code(() => decodeBundle(bytes.subarray(0, at)))).toBe('INDEX_UNAVAILABLE');
      }),
      { numRuns: 100 },
    );
  });

  it('a corrupted byte never surfaces as anything but INDEX_UNAVAILABLE, and changes the hash', async () => {
    await fc.assert(
      fc.asyncProperty(bundleArb, fc.nat(), fc.integer({ min: 1, max: 255 }), async (bundle, where, delta) => {
        const bytes = encodeBundle(bundle);
        const bad = new Uint8Array(bytes);
        const at = where % bad.length;
        bad[at] = (bad[at]! + delta) & 0xff;
        // Either refused now, or decoded — then reading every (lazy) part fails cleanly or works.
        const result = code(() => JSON.stringify(decodeBundle(bad)));
        expect(result === null || result === 'INDEX_UNAVAILABLE').toBe(true);
        expect(await bundleHash(bad)).not.toBe(await bundleHash(bytes));
      }),
      { numRuns: 150 },
    );
  });
});

describe('loadIndex verify option', () => {
  it("'hash' (default) computes the tag; 'none' skips it and takes the given one", async () => {
    const bundle = fc.sample(bundleArb, { numRuns: 1, seed: 3 })[0]!;
    const bytes = encodeBundle(bundle);
    const hash = await bundleHash(bytes);
    expect((await loadIndex(bytes)).hash).toBe(hash);
    expect((await loadIndex(bytes, { verify: 'hash' })).hash).toBe(hash);
    const unverified = await loadIndex(bytes, { verify: 'none', hash: 'abcdefabcdef' });
    expect(unverified.hash).toBe('abcdefabcdef');
    expect(unverified.bundle).toEqual(bundle);
    expect((await loadIndex(bytes, { verify: 'none' })).hash).toBe('');
  });
});
