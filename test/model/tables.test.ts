import { describe, expect, it } from 'vitest';
import { compareBySpecificity, edgeRank, edgeTypeSpec, edgeWeight, EDGE_TYPE_TABLE } from '../../model/edges.js';
import { KINDS, STRUCTURAL_EDGE_TYPES, type GraphEdge } from '../../model/graph.js';
import { KIND_TABLE, kindLabel, kindSpec } from '../../model/kinds.js';
import { tokenize } from '../../runtime/search/tokenizer.js';

const edge = (edge_type: string, extraction_method: GraphEdge['extraction_method'] = 'wiki_link'): GraphEdge => ({
  from_node: 'A:a',
  to_node: 'B:b',
  edge_type,
  source_file: 'a.md',
  extraction_method,
  metadata: {},
  layer_violation: false,
  bidirectional: false,
});

describe('the kind table', () => {
  it('has one row per kind', () => {
    expect(KIND_TABLE.map((row) => row.kind).sort()).toEqual([...KINDS].sort());
  });

  it('every query word of a kind survives tokenizing, so it can ask for the kind', () => {
    for (const { kind, intent } of KIND_TABLE) {
      for (const word of intent?.words ?? []) expect(tokenize(word), `${kind}: ${word}`).not.toHaveLength(0);
      for (const pair of intent?.pairs ?? []) for (const word of pair) expect(tokenize(word), `${kind}: ${word}`).not.toHaveLength(0);
    }
  });

  it('names kinds for sentences', () => {
    expect(kindLabel('ui-view')).toBe('UI view');
    expect(kindLabel('use-case')).toBe('Use case');
    expect(kindLabel('business-rule')).toBe('Business rule');
    expect(kindSpec('no-such-kind')).toBeUndefined();
  });
});

describe('the edge-type table', () => {
  it('has a row for every structural edge type and nothing else', () => {
    expect(Object.keys(EDGE_TYPE_TABLE).sort()).toEqual([...STRUCTURAL_EDGE_TYPES].sort());
  });

  it('business relations and agent edges get their own weight and rank, whatever their name', () => {
    // Names that are keys of every plain object must not read the object's prototype.
    for (const name of ['pertenece_a', 'constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect(edgeTypeSpec(name)).toBeUndefined();
      expect(edgeWeight(edge(name))).toBe(0.65);
      expect(edgeRank(name)).toBe(1);
    }
    expect(edgeWeight(edge('IMPLICIT_DEPENDS_ON', 'implicit'))).toBe(0.45);
    expect(edgeRank('IMPLICIT_DEPENDS_ON')).toBe(4);
    expect(edgeWeight(edge('LAYER_DEPENDENCY', 'implicit'))).toBe(0.5);
  });

  it('orders authored edges before agent edges: typed, business relation, wiki-link, layer dependency, agent guess', () => {
    const types = ['IMPLICIT_DEPENDS_ON', 'LAYER_DEPENDENCY', 'WIKI_LINK', 'pertenece_a', 'VALIDATES', 'ENTITY_RULE'];
    expect(types.map((type) => edge(type)).sort(compareBySpecificity).map((e) => e.edge_type)).toEqual([
      'ENTITY_RULE',
      'VALIDATES',
      'pertenece_a',
      'WIKI_LINK',
      'LAYER_DEPENDENCY',
      'IMPLICIT_DEPENDS_ON',
    ]);
  });
});
