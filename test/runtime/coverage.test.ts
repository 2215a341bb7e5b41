import { describe, expect, it } from 'vitest';
import { isKddError } from '../../model/errors.js';
import { coverage } from '../../runtime/queries/coverage.js';
import { makeIndex } from '../helpers/make-index.js';

describe('coverage (QRY-005)', () => {
  it('reports which expected artefacts an entity has, as in the spec example', () => {
    const index = makeIndex(
      ['Entity:KDDDocument', 'EVT:EVT-KDDDocument-Detected', 'EVT:EVT-KDDDocument-Indexed', 'BR:BR-DOCUMENT-001', 'UC:UC-001'],
      [
        { from: 'Entity:KDDDocument', to: 'EVT:EVT-KDDDocument-Detected', type: 'EMITS' },
        { from: 'Entity:KDDDocument', to: 'EVT:EVT-KDDDocument-Indexed', type: 'EMITS' },
        { from: 'BR:BR-DOCUMENT-001', to: 'Entity:KDDDocument', type: 'ENTITY_RULE' },
        { from: 'UC:UC-001', to: 'Entity:KDDDocument', type: 'WIKI_LINK' },
      ],
    );
    const result = coverage(index, { node_id: 'Entity:KDDDocument' });
    expect(result.required.map((r) => [r.category, r.edge_type, r.status, r.found])).toEqual([
      ['events', 'EMITS', 'covered', ['EVT:EVT-KDDDocument-Detected', 'EVT:EVT-KDDDocument-Indexed']],
      ['business_rules', 'ENTITY_RULE', 'covered', ['BR:BR-DOCUMENT-001']],
      ['use_cases', 'WIKI_LINK', 'covered', ['UC:UC-001']],
      ['requirements', 'REQ_TRACES_TO', 'missing', []],
    ]);
    expect(result).toMatchObject({ present: 3, missing: 1, coverage_percent: 75 });
  });

  it('marks an expectation partial when only a generic link points the right way', () => {
    const index = makeIndex(
      ['UC:UC-001', 'CMD:CMD-001', 'BR:BR-A-001', 'REQ:REQ-001', 'FEAT:uc'],
      [
        { from: 'UC:UC-001', to: 'CMD:CMD-001', type: 'UC_EXECUTES_CMD' },
        { from: 'UC:UC-001', to: 'BR:BR-A-001', type: 'WIKI_LINK' },
        { from: 'FEAT:uc', to: 'UC:UC-001', type: 'VALIDATES' },
      ],
    );
    const result = coverage(index, { node_id: 'UC:UC-001' });
    expect(Object.fromEntries(result.required.map((r) => [r.category, r.status]))).toEqual({
      commands: 'covered',
      business_rules: 'partial',
      requirements: 'missing',
      features: 'covered',
    });
    expect(result.coverage_percent).toBe(75);
  });

  it('raises NODE_NOT_FOUND and UNKNOWN_KIND', () => {
    const index = makeIndex(['PRD:PRD-X']);
    const code = (id: string) => {
      try {
        coverage(index, { node_id: id });
      } catch (error) {
        return isKddError(error) ? [error.code, error.message] : error;
      }
    };
    expect(code('Entity:Nope')).toEqual(['NODE_NOT_FOUND', 'Node not found: Entity:Nope']);
    expect(code('PRD:PRD-X')).toEqual(['UNKNOWN_KIND', "Unknown kind 'prd': no coverage rules are defined for it"]);
  });
});
