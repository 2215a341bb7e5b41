import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isKddError } from '../../model/errors.js';
import { graph } from '../../runtime/queries/graph.js';
import { arbitraryGraph } from '../helpers/arbitrary-graph.js';
import { indexOf, makeBundle, makeIndex } from '../helpers/make-index.js';

const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return isKddError(error) ? error.code : String(error);
  }
  return 'no error';
};

/** Entity:KDDDocument with a rule, two events, a command and a use case two hops away. */
function documentIndex() {
  return makeIndex(
    ['Entity:KDDDocument', 'BR:BR-DOCUMENT-001', 'EVT:EVT-KDDDocument-Detected', 'EVT:EVT-KDDDocument-Indexed', 'CMD:CMD-001', 'UC:UC-001'],
    [
      { from: 'BR:BR-DOCUMENT-001', to: 'Entity:KDDDocument', type: 'ENTITY_RULE' },
      { from: 'BR:BR-DOCUMENT-001', to: 'Entity:KDDDocument', type: 'WIKI_LINK' },
      { from: 'Entity:KDDDocument', to: 'EVT:EVT-KDDDocument-Detected', type: 'EMITS' },
      { from: 'Entity:KDDDocument', to: 'EVT:EVT-KDDDocument-Indexed', type: 'EMITS' },
      { from: 'CMD:CMD-001', to: 'Entity:KDDDocument', type: 'WIKI_LINK' },
      { from: 'UC:UC-001', to: 'CMD:CMD-001', type: 'UC_EXECUTES_CMD' },
    ],
  );
}

describe('graph (QRY-001)', () => {
  it('returns the center, the nodes within depth with their distance, and the edges between them', () => {
    const result = graph(documentIndex(), { root_node: 'Entity:KDDDocument', depth: 1 });
    expect(result.center_node).toMatchObject({ id: 'Entity:KDDDocument', kind: 'entity', layer: '01-domain' });
    expect(result.related_nodes.map((n) => [n.id, n.distance])).toEqual([
      ['BR:BR-DOCUMENT-001', 1],
      ['CMD:CMD-001', 1],
      ['EVT:EVT-KDDDocument-Detected', 1],
      ['EVT:EVT-KDDDocument-Indexed', 1],
    ]);
    expect(result.total_nodes).toBe(5);
    expect(result.edges).toHaveLength(5);
    expect(result.total_edges).toBe(5);
  });

  it('reaches a node through the most specific of the edges joining the pair', () => {
    const result = graph(documentIndex(), { root_node: 'Entity:KDDDocument', depth: 1 });
    expect(result.related_nodes[0]!.reached_via).toEqual({ from_node: 'BR:BR-DOCUMENT-001', to_node: 'Entity:KDDDocument', edge_type: 'ENTITY_RULE' });
  });

  it('defaults to depth 2', () => {
    const result = graph(documentIndex(), { root_node: 'Entity:KDDDocument' });
    expect(result.related_nodes.find((n) => n.id === 'UC:UC-001')?.distance).toBe(2);
  });

  it('follows only the edge types asked for, in any case', () => {
    const result = graph(documentIndex(), { root_node: 'Entity:KDDDocument', edge_types: ['emits'] });
    expect(result.related_nodes.map((n) => n.id)).toEqual(['EVT:EVT-KDDDocument-Detected', 'EVT:EVT-KDDDocument-Indexed']);
    expect(result.edges.every((e) => e.edge_type === 'EMITS')).toBe(true);
  });

  it('filters returned kinds but still walks through the others', () => {
    const result = graph(documentIndex(), { root_node: 'Entity:KDDDocument', include_kinds: ['use-case'] });
    expect(result.related_nodes.map((n) => n.id)).toEqual(['UC:UC-001']);
  });

  it('walks stored directions with direction out/in, WIKI_LINKs both ways', () => {
    const out = graph(documentIndex(), { root_node: 'Entity:KDDDocument', depth: 1, direction: 'out' });
    // EMITS outward, plus the CMD and BR WIKI_LINKs (bidirectional); the ENTITY_RULE alone would not qualify.
    expect(out.related_nodes.map((n) => n.id)).toEqual(['BR:BR-DOCUMENT-001', 'CMD:CMD-001', 'EVT:EVT-KDDDocument-Detected', 'EVT:EVT-KDDDocument-Indexed']);
    expect(out.related_nodes[0]!.reached_via.edge_type).toBe('WIKI_LINK');
    const inward = graph(documentIndex(), { root_node: 'Entity:KDDDocument', depth: 1, direction: 'in', edge_types: ['ENTITY_RULE', 'EMITS'] });
    expect(inward.related_nodes.map((n) => n.id)).toEqual(['BR:BR-DOCUMENT-001']);
  });

  it('skips layer-violating edges unless respect_layers is false', () => {
    const index = makeIndex(['Entity:A', 'UC:UC-001'], [{ from: 'Entity:A', to: 'UC:UC-001', type: 'WIKI_LINK' }]);
    expect(graph(index, { root_node: 'Entity:A' }).related_nodes).toEqual([]);
    expect(graph(index, { root_node: 'Entity:A', respect_layers: false }).related_nodes.map((n) => n.id)).toEqual(['UC:UC-001']);
  });

  it('raises the spec errors', () => {
    const index = documentIndex();
    expect(codeOf(() => graph(index, { root_node: 'Entity:Nope' }))).toBe('NODE_NOT_FOUND');
    expect(codeOf(() => graph(index, { root_node: 'Entity:KDDDocument', depth: 6 }))).toBe('INVALID_DEPTH');
    expect(codeOf(() => graph(index, { root_node: 'Entity:KDDDocument', edge_types: ['TELEPORTS'] }))).toBe('INVALID_EDGE_TYPE');
    expect(codeOf(() => graph(index, { root_node: 'Entity:KDDDocument', include_kinds: ['spaceship'] }))).toBe('INVALID_PARAMS');
    expect(codeOf(() => graph(index, { root_node: 'Entity:KDDDocument', direction: 'sideways' as never }))).toBe('INVALID_PARAMS');
  });
});

describe('graph laws', () => {
  it('is pure, never exceeds depth, and only returns edges between returned nodes', () => {
    fc.assert(
      fc.property(arbitraryGraph(), fc.nat(), fc.integer({ min: 1, max: 5 }), fc.constantFrom('both', 'out', 'in') , fc.boolean(), (g, pick, depth, direction, respect) => {
        const bundle = makeBundle(g.nodes, g.edges);
        const before = structuredClone(bundle);
        const index = indexOf(bundle);
        const root = bundle.nodes[pick % bundle.nodes.length]!.id;
        const params = { root_node: root, depth, direction: direction as 'both', respect_layers: respect };
        const a = graph(index, params);
        expect(graph(index, params)).toEqual(a);
        expect(bundle).toEqual(before);
        const ids = new Set([root, ...a.related_nodes.map((n) => n.id)]);
        expect(ids.size).toBe(a.total_nodes);
        for (const n of a.related_nodes) {
          expect(n.distance).toBeGreaterThanOrEqual(1);
          expect(n.distance).toBeLessThanOrEqual(depth);
        }
        for (const e of a.edges) expect(ids.has(e.from_node) && ids.has(e.to_node)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });
});
