import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonical } from '../../formats/canonical.js';
import { edgeEnds, edgesJsonl, patchEdgesJsonl } from '../../formats/index-dir/edges.js';
import type { GraphEdge } from '../../model/graph.js';

const text = fc.string({ unit: fc.constantFrom('a', 'Z', 'ñ', '"', '\\', '\n', ':', '\u2028', '😀') });
const edge: fc.Arbitrary<GraphEdge> = fc.record({
  to_node: text,
  from_node: text,
  edge_type: text,
  source_file: text,
  extraction_method: fc.constantFrom('wiki_link', 'section_content', 'implicit'),
  metadata: fc.dictionary(text, text, { maxKeys: 4 }),
  layer_violation: fc.boolean(),
  bidirectional: fc.boolean(),
});

describe('edges.jsonl', () => {
  it('is one canonical {from, metadata, to, type} line per edge, whatever the key order of the edge objects', () => {
    fc.assert(
      fc.property(fc.array(edge, { maxLength: 6 }), (edges) => {
        const expected = edges.map((e) => `${JSON.stringify(canonical({ from: e.from_node, metadata: e.metadata, to: e.to_node, type: e.edge_type }))}\n`).join('');
        expect(edgesJsonl(edges)).toBe(expected);
        expect(edgeEnds(expected)).toEqual(edges.map((e) => ({ from: e.from_node, to: e.to_node })));
      }),
    );
  });

  it('the ends of the edges are read from a format-1 file (whole GraphEdge per line) too', () => {
    const old = { bidirectional: true, edge_type: 'WIKI_LINK', extraction_method: 'wiki_link', from_node: 'A', layer_violation: false, metadata: {}, source_file: 'a.md', to_node: 'B' };
    expect(edgeEnds(`${JSON.stringify(old)}\n`)).toEqual([{ from: 'A', to: 'B' }]);
  });

  it('patching the lines of the changed nodes into the previous file gives the file written whole', () => {
    const sorted = (edges: GraphEdge[]) => [...edges].sort((a, b) => (a.from_node < b.from_node ? -1 : a.from_node > b.from_node ? 1 : 0));
    const node = fc.constantFrom('A', 'B', 'C', 'D');
    const some = fc.array(edge.chain((e) => node.map((from_node) => ({ ...e, from_node }))), { maxLength: 8 }).map(sorted);
    fc.assert(
      fc.property(some, some, (previous, next) => {
        const changed = new Set([...previous, ...next].map((e) => e.from_node));
        const old = new TextEncoder().encode(edgesJsonl(previous));
        expect(new TextDecoder().decode(patchEdgesJsonl(old, previous, next, changed)!)).toBe(edgesJsonl(next));
        // Nothing changed: the previous file comes back as it is.
        expect(new TextDecoder().decode(patchEdgesJsonl(old, previous, previous, new Set())!)).toBe(edgesJsonl(previous));
      }),
    );
  });
});
