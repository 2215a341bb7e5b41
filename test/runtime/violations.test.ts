import { describe, expect, it } from 'vitest';
import { isKddError } from '../../model/errors.js';
import { health } from '../../runtime/queries/health.js';
import { violations } from '../../runtime/queries/violations.js';
import { makeIndex } from '../helpers/make-index.js';

function layeredIndex() {
  return makeIndex(
    ['Entity:KDDDocument', 'Entity:MiEntidad', 'UC:UC-001', 'PRD:PRD-KDDEngine', 'CMD:CMD-001', 'Entity:Lonely'],
    [
      { from: 'UC:UC-001', to: 'Entity:KDDDocument', type: 'WIKI_LINK' },
      { from: 'Entity:MiEntidad', to: 'UC:UC-001', type: 'WIKI_LINK', metadata: { section: 'Descripción' } },
      { from: 'PRD:PRD-KDDEngine', to: 'UC:UC-001', type: 'WIKI_LINK' },
      { from: 'Entity:KDDDocument', to: 'Entity:MiEntidad', type: 'WIKI_LINK' },
      { from: 'Entity:KDDDocument', to: 'CMD:CMD-001', type: 'WIKI_LINK' },
    ],
    [{ from_node: 'UC:UC-001', target: 'Nowhere', source_file: '02-behavior/use-case/UC-001.md', section: null }],
  );
}

describe('violations (QRY-006, layer-validation.feature)', () => {
  it('SCN-LayerValidation-005: reports every marked edge with nodes, layers and edge type', () => {
    const result = violations(layeredIndex());
    expect(result.violations.map((v) => [v.from_node, v.from_layer, v.to_node, v.to_layer, v.edge_type])).toEqual([
      ['Entity:KDDDocument', '01-domain', 'CMD:CMD-001', '02-behavior', 'WIKI_LINK'],
      ['Entity:MiEntidad', '01-domain', 'UC:UC-001', '02-behavior', 'WIKI_LINK'],
    ]);
    expect(result.violations[1]).toMatchObject({ section: 'Descripción', explanation: '01-domain should not reference 02-behavior' });
    expect(result).toMatchObject({ total_violations: 2, total_edges_analyzed: 5, violation_rate: 40 });
  });

  it('filters by source kind and layer', () => {
    expect(violations(layeredIndex(), { include_layers: ['02-behavior'] }).total_violations).toBe(0);
    expect(violations(layeredIndex(), { include_kinds: ['entity'], include_layers: ['01-domain'] }).total_violations).toBe(2);
    try {
      violations(layeredIndex(), { include_layers: ['07-nowhere'] });
      expect.unreachable();
    } catch (error) {
      expect(isKddError(error) && error.message).toContain("'include_layers'");
    }
  });
});

describe('health', () => {
  it('lists dangling links and nodes without any edge', () => {
    const result = health(layeredIndex());
    expect(result.dangling.map((d) => d.target)).toEqual(['Nowhere']);
    expect(result.orphans.map((n) => n.id)).toEqual(['Entity:Lonely']);
    expect(result).toMatchObject({ total_dangling: 1, total_orphans: 1, total_nodes: 6, total_edges: 5 });
  });
});
