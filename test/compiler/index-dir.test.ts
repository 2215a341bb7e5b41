import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonical } from '../../formats/canonical.js';
import { edgesJsonl } from '../../formats/index-dir/edges.js';
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
  it('is one canonical JSON line per edge, whatever the key order of the edge objects', () => {
    fc.assert(
      fc.property(fc.array(edge, { maxLength: 6 }), (edges) => {
        const expected = edges.map((e) => `${JSON.stringify(canonical(e))}\n`).join('');
        expect(edgesJsonl(edges)).toBe(expected);
      }),
    );
  });

  it('writes an edge with extra or missing keys canonically too', () => {
    const odd = { from_node: 'A', to_node: 'B', edge_type: 'X', metadata: { b: '1', a: '2' }, extra: 1 } as unknown as GraphEdge;
    expect(edgesJsonl([odd])).toBe(`${JSON.stringify(canonical(odd))}\n`);
  });
});
