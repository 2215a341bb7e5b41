import { beforeAll, describe, expect, it } from 'vitest';
import { compile, type CompileResult } from '../../compiler/pipeline.js';
import type { GraphNode } from '../../model/graph.js';
import { FIXTURES } from '../helpers/temp-tree.js';

let result: CompileResult;
const node = (id: string): GraphNode => {
  const found = result.graph.nodes.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no node ${id}`);
  return found;
};

beforeAll(async () => {
  result = await compile({ specsDir: `${FIXTURES}kinds` });
});

describe('extraction per kind', () => {
  it('indexes every fixture file without warnings', () => {
    expect(result.warnings).toEqual([]);
    expect(result.graph.nodes).toHaveLength(result.files);
    expect(new Set(result.graph.nodes.map((n) => n.kind))).toEqual(
      new Set(['prd', 'objective', 'adr', 'value-unit', 'release', 'nfr', 'glossary', 'entity', 'role', 'system', 'event', 'business-rule', 'business-policy', 'cross-policy', 'command', 'query', 'process', 'use-case', 'ui-view', 'ui-component', 'ui-flow', 'requirement', 'feature']),
    );
  });

  it('reads a Spanish entity: description, attribute and relation tables, state machine, aliases', () => {
    const pedido = node('Entity:Pedido');
    expect(pedido).toMatchObject({ kind: 'entity', doc_id: 'Pedido', layer: '01-domain', status: 'approved', aliases: ['Orden', 'Order'], source_file: '01-domain/entities/Pedido.md' });
    expect(pedido.source_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(pedido.indexed_fields.description).toContain('pedido de compra');
    expect(pedido.indexed_fields.attributes).toContainEqual({ name: 'creador', type: '[[Usuario]]', description: 'Quien creó el pedido' });
    expect(pedido.indexed_fields.relations).toEqual([{ relation: 'pertenece_a', cardinality: 'N:1', target: '[[Usuario]]', description: 'El usuario que creó el pedido' }]);
    expect(pedido.indexed_fields.state_machine).toMatchObject({
      states: expect.arrayContaining(['borrador', 'confirmado', 'enviado']),
      transitions: expect.arrayContaining([expect.objectContaining({ from: 'borrador', to: 'confirmado', event: 'EVT-Pedido-Creado' })]),
    });
    expect(pedido.indexed_fields.invariants).toEqual(['El total siempre es la suma de sus líneas.']);
  });

  it('gives English (v2) headings the same fields as Spanish (v1) ones', () => {
    const customer = node('Entity:Customer');
    expect(customer.kind).toBe('role');
    expect(Object.keys(customer.indexed_fields).sort()).toEqual(['attributes', 'description', 'relations']);
    expect(node('BR:BR-ORDER-002').indexed_fields).toHaveProperty('declaration');
    expect(node('BR:BR-PEDIDO-001').indexed_fields).toHaveProperty('declaration');
    for (const id of ['UC:UC-001', 'UC:UC-002']) {
      expect(Object.keys(node(id).indexed_fields)).toEqual(expect.arrayContaining(['description', 'actors', 'main_flow', 'rules', 'commands']));
    }
    expect(node('UC:UC-002').indexed_fields.main_flow).toEqual(['The operator scans the order.', 'The system runs CMD-002-ShipOrder.']);
  });

  it('takes the id from front-matter, else from the file name by the kind pattern', () => {
    expect(node('CMD:CMD-001').title).toBe('CrearPedido');
    expect(node('OBJ:OBJ-001').title).toBe('Comprar rápido');
    expect(node('FEAT:crear-pedido')).toMatchObject({ kind: 'feature', layer: '04-verification', title: 'Crear un pedido' });
  });

  it('extracts Gherkin scenarios with ids, tags and references', () => {
    const scenarios = node('FEAT:crear-pedido').indexed_fields.scenarios as { id: string; tags: string[]; links: string[] }[];
    expect(scenarios.map((s) => s.id)).toEqual(['SCN-CrearPedido-001', 'SCN-CrearPedido-002']);
    expect(scenarios[1]!.tags).toContain('BR-PEDIDO-001');
    expect(scenarios[0]!.links).toContain('CMD-001');
  });

  it('keeps the command tables keyed by canonical column names', () => {
    expect(node('CMD:CMD-001').indexed_fields.errors).toEqual([{ code: 'EMPTY_CART', condition: 'El carrito está vacío', message: '"Cart is empty"' }]);
    expect(node('CMD:CMD-002').indexed_fields.input_params).toEqual([{ name: 'order_id', type: 'uuid', required: 'Yes', validation: 'Must be confirmed' }]);
  });

  it('emits Detected, Parsed and Indexed events per document, in that order', () => {
    const forPedido = result.events.filter((event) => 'source_path' in event.payload && event.payload.source_path === '01-domain/entities/Pedido.md');
    expect(forPedido.map((event) => event.event)).toEqual(['EVT-KDDDocument-Detected', 'EVT-KDDDocument-Parsed', 'EVT-KDDDocument-Indexed']);
    expect(forPedido[2]!.payload).toMatchObject({ node_id: 'Entity:Pedido', document_id: 'Pedido', kind: 'entity', index_level: 'L1', embedding_count: 0 });
  });
});
