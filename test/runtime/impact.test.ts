import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isKddError } from '../../model/errors.js';
import { impact } from '../../runtime/queries/impact.js';
import { impactFeatureIndex, indexOf, makeBundle, makeIndex } from '../helpers/make-index.js';
import { arbitraryGraph } from '../helpers/arbitrary-graph.js';

const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return isKddError(error) ? error.code : String(error);
  }
  return 'no error';
};

describe('impact (retrieve-impact.feature)', () => {
  it('SCN-RetrieveImpact-001: lists direct dependents with their edge type and transitive ones with their path', () => {
    const result = impact(impactFeatureIndex(), { node_id: 'Entity:KDDDocument', depth: 3 });
    expect(result.directly_affected.map((n) => [n.id, n.edge_type])).toEqual([
      ['BR:BR-DOCUMENT-001', 'ENTITY_RULE'],
      ['CMD:CMD-001', 'WIKI_LINK'],
    ]);
    expect(result.transitively_affected.map((n) => [n.id, n.path.join(' → ')])).toEqual([
      ['UC:UC-001', 'Entity:KDDDocument → BR:BR-DOCUMENT-001 → UC:UC-001'],
    ]);
    expect(result.transitively_affected[0]!.edge_types).toEqual(['ENTITY_RULE', 'UC_APPLIES_RULE']);
    expect(result.total_directly_affected).toBe(2);
    expect(result.total_transitively_affected).toBe(1);
    expect(result.truncated).toBe(false);
  });

  it('SCN-RetrieveImpact-002: a leaf node has no dependents', () => {
    const result = impact(impactFeatureIndex(), { node_id: 'UC:UC-001', depth: 3 });
    expect(result.directly_affected).toEqual([]);
    expect(result.transitively_affected).toEqual([]);
  });

  it('SCN-RetrieveImpact-003: an unknown node is NODE_NOT_FOUND', () => {
    expect(codeOf(() => impact(impactFeatureIndex(), { node_id: 'Entity:NoExiste', depth: 2 }))).toBe('NODE_NOT_FOUND');
  });

  it('answers well within the 500 ms of the scenario', () => {
    const started = performance.now();
    impact(impactFeatureIndex(), { node_id: 'Entity:KDDDocument', depth: 3 });
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('impact', () => {
  it('reports the typed edge, not the WIKI_LINK, when a pair is joined by both', () => {
    const index = makeIndex(
      ['Entity:Pedido', 'BR:BR-PEDIDO-001'],
      [
        { from: 'BR:BR-PEDIDO-001', to: 'Entity:Pedido', type: 'WIKI_LINK' },
        { from: 'BR:BR-PEDIDO-001', to: 'Entity:Pedido', type: 'ENTITY_RULE' },
      ],
    );
    const [direct] = impact(index, { node_id: 'Entity:Pedido' }).directly_affected;
    expect(direct!.edge_type).toBe('ENTITY_RULE');
    expect(direct!.impact).toBe('Business rule BR-PEDIDO-001 constrains Pedido: review it against the modified attributes');
  });

  it('does not walk WIKI_LINKs backwards: what the analysed node links to is not affected', () => {
    const index = makeIndex(['Entity:Pedido', 'Entity:Usuario'], [{ from: 'Entity:Pedido', to: 'Entity:Usuario', type: 'WIKI_LINK' }]);
    expect(impact(index, { node_id: 'Entity:Pedido' }).total_directly_affected).toBe(0);
    expect(impact(index, { node_id: 'Entity:Usuario' }).directly_affected.map((n) => n.id)).toEqual(['Entity:Pedido']);
  });

  it('stops at depth and says the answer was truncated', () => {
    const chain = ['Entity:A', 'BR:BR-A-001', 'UC:UC-001', 'REQ:REQ-001'];
    const index = makeIndex(chain, [
      { from: 'BR:BR-A-001', to: 'Entity:A', type: 'ENTITY_RULE' },
      { from: 'UC:UC-001', to: 'BR:BR-A-001', type: 'UC_APPLIES_RULE' },
      { from: 'REQ:REQ-001', to: 'UC:UC-001', type: 'REQ_TRACES_TO' },
    ]);
    const shallow = impact(index, { node_id: 'Entity:A', depth: 2 });
    expect(shallow.transitively_affected.map((n) => n.id)).toEqual(['UC:UC-001']);
    expect(shallow.truncated).toBe(true);
    const deep = impact(index, { node_id: 'Entity:A', depth: 3 });
    expect(deep.transitively_affected.map((n) => n.id)).toEqual(['UC:UC-001', 'REQ:REQ-001']);
    expect(deep.transitively_affected[1]!.impact).toBe('Requirement REQ-001 traces to UC-001, which applies BR-A-001, which constrains A');
    expect(deep.truncated).toBe(false);
  });

  it('lists the scenarios whose links hit an affected node, else the whole feature', () => {
    const index = makeIndex(
      [
        'Entity:KDDDocument',
        'BR:BR-DOCUMENT-001',
        'UC:UC-001',
        {
          id: 'FEAT:index-entity',
          source_file: '04-verification/examples/index-entity.feature',
          indexed_fields: {
            scenarios: [
              { id: 'SCN-IndexEntity-001', name: 'Indexar entidad', tags: [], links: ['UC-001-IndexDocument'] },
              { id: 'SCN-IndexEntity-002', name: 'Otra cosa', tags: [], links: ['Nada'] },
            ],
          },
        },
        { id: 'FEAT:rules', title: 'Rules', indexed_fields: { scenarios: [{ id: 'SCN-Rules-001', name: 'x', tags: [], links: [] }] } },
        { id: 'FEAT:unrelated', indexed_fields: { scenarios: [] } },
      ],
      [
        { from: 'BR:BR-DOCUMENT-001', to: 'Entity:KDDDocument', type: 'ENTITY_RULE' },
        { from: 'UC:UC-001', to: 'BR:BR-DOCUMENT-001', type: 'UC_APPLIES_RULE' },
        { from: 'FEAT:index-entity', to: 'UC:UC-001', type: 'VALIDATES' },
        { from: 'FEAT:rules', to: 'BR:BR-DOCUMENT-001', type: 'WIKI_LINK' },
      ],
    );
    const result = impact(index, { node_id: 'Entity:KDDDocument' });
    expect(result.scenarios_to_rerun.map((s) => [s.feature_node, s.scenario, s.validates])).toEqual([
      ['FEAT:index-entity', 'SCN-IndexEntity-001', ['UC:UC-001']],
      ['FEAT:rules', null, ['BR:BR-DOCUMENT-001']],
    ]);
    expect(result.scenarios_to_rerun[0]!.feature).toBe('04-verification/examples/index-entity.feature');
    expect(result.total_scenarios).toBe(2);
    // Features are re-run, not "affected".
    expect([...result.directly_affected, ...result.transitively_affected].map((n) => n.kind)).not.toContain('feature');
  });

  it('does not propagate through layer violations by default, and reports them', () => {
    const index = makeIndex(['Entity:A', 'UC:UC-001'], [{ from: 'Entity:A', to: 'UC:UC-001', type: 'WIKI_LINK' }]);
    const violation = expect.objectContaining({ from_node: 'Entity:A', to_node: 'UC:UC-001', from_layer: '01-domain', to_layer: '02-behavior' });
    const respected = impact(index, { node_id: 'UC:UC-001' });
    expect(respected.directly_affected).toEqual([]);
    expect(respected.layer_violations).toEqual([violation]);
    const followed = impact(index, { node_id: 'UC:UC-001', respect_layers: false });
    expect(followed.directly_affected.map((n) => n.id)).toEqual(['Entity:A']);
    expect(followed.layer_violations).toEqual([violation]);
  });

  it('validates change_type and depth with the spec codes', () => {
    const index = impactFeatureIndex();
    expect(codeOf(() => impact(index, { node_id: 'Entity:KDDDocument', change_type: 'explode' as never }))).toBe('INVALID_CHANGE_TYPE');
    expect(codeOf(() => impact(index, { node_id: 'Entity:KDDDocument', depth: 6 }))).toBe('INVALID_DEPTH');
    expect(codeOf(() => impact(index, { node_id: 'Entity:KDDDocument', depth: 0 }))).toBe('INVALID_DEPTH');
    expect(codeOf(() => impact(index, {} as never))).toBe('INVALID_PARAMS');
    expect(codeOf(() => impact(undefined as never, { node_id: 'x' }))).toBe('INDEX_UNAVAILABLE');
    expect(impact(index, { node_id: 'Entity:KDDDocument', change_type: 'remove' }).directly_affected[0]!.impact).toMatch(/would dangle/);
  });
});

describe('impact laws', () => {
  it('is pure, leaves the bundle untouched, never lists the analysed node, and respects depth', () => {
    fc.assert(
      fc.property(arbitraryGraph(), fc.nat(), fc.integer({ min: 1, max: 5 }), fc.boolean(), (graph, pick, depth, respect) => {
        const bundle = makeBundle(graph.nodes, graph.edges);
        const before = structuredClone(bundle);
        const index = indexOf(bundle);
        const nodeId = bundle.nodes[pick % bundle.nodes.length]!.id;
        const a = impact(index, { node_id: nodeId, depth, respect_layers: respect });
        const b = impact(index, { node_id: nodeId, depth, respect_layers: respect });
        expect(b).toEqual(a);
        expect(bundle).toEqual(before);
        const listed = [...a.directly_affected, ...a.transitively_affected];
        expect(listed.map((n) => n.id)).not.toContain(nodeId);
        expect(new Set(listed.map((n) => n.id)).size).toBe(listed.length);
        for (const n of a.transitively_affected) {
          expect(n.distance).toBeLessThanOrEqual(depth);
          expect(n.path).toHaveLength(n.distance + 1);
          expect(n.path[0]).toBe(nodeId);
          expect(n.path.at(-1)).toBe(n.id);
        }
      }),
      { numRuns: 150 },
    );
  });
});
