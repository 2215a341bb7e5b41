import { beforeAll, describe, expect, it } from 'vitest';
import { compile, type CompileResult } from '../../compiler/pipeline.js';
import { STRUCTURAL_EDGE_TYPES } from '../../model/graph.js';
import { FIXTURES } from '../helpers/temp-tree.js';

let kinds: CompileResult;
let multi: CompileResult;
const edge = (result: CompileResult, from: string, type: string, to: string) =>
  result.graph.edges.find((e) => e.from_node === from && e.edge_type === type && e.to_node === to);

beforeAll(async () => {
  [kinds, multi] = await Promise.all([compile({ specsDir: `${FIXTURES}kinds` }), compile({ specsDir: `${FIXTURES}multi-domain` })]);
});

describe('edges', () => {
  it('produces all 17 structural edge types across the fixtures', () => {
    const types = new Set([...kinds.graph.edges, ...multi.graph.edges].map((e) => e.edge_type));
    for (const type of STRUCTURAL_EDGE_TYPES) expect(types, type).toContain(type);
  });

  it.each([
    ['Entity:Pedido', 'WIKI_LINK', 'Entity:Usuario'],
    ['Entity:Pedido', 'DOMAIN_RELATION', 'Entity:Usuario'],
    ['Entity:Pedido', 'pertenece_a', 'Entity:Usuario'],
    ['Entity:Pedido', 'EMITS', 'EVT:EVT-Pedido-Creado'],
    ['BR:BR-PEDIDO-001', 'ENTITY_RULE', 'Entity:Pedido'],
    ['BR:BR-ORDER-002', 'ENTITY_RULE', 'Entity:PaymentGateway'],
    ['BP:BP-DESCUENTO-001', 'ENTITY_POLICY', 'Entity:Pedido'],
    ['CMD:CMD-001', 'EMITS', 'EVT:EVT-Pedido-Creado'],
    ['PROC:PROC-001', 'CONSUMES', 'EVT:EVT-Pedido-Creado'],
    ['UC:UC-001', 'UC_APPLIES_RULE', 'BR:BR-PEDIDO-001'],
    ['UC:UC-001', 'UC_APPLIES_RULE', 'BP:BP-DESCUENTO-001'],
    ['UC:UC-002', 'UC_APPLIES_RULE', 'XP:XP-AUDIT-001'],
    ['UC:UC-001', 'UC_EXECUTES_CMD', 'CMD:CMD-001'],
    ['UC:UC-001', 'UC_STORY', 'OBJ:OBJ-001'],
    ['UI:UI-OrderList', 'VIEW_TRIGGERS_UC', 'UC:UC-001'],
    ['UI:UI-OrderList', 'VIEW_USES_COMPONENT', 'UI:UI-OrderCard'],
    ['UI:UI-OrderCard', 'COMPONENT_USES_ENTITY', 'Entity:Pedido'],
    ['REQ:REQ-001', 'REQ_TRACES_TO', 'UC:UC-001'],
    ['FEAT:crear-pedido', 'VALIDATES', 'UC:UC-001'],
    ['FEAT:crear-pedido', 'VALIDATES', 'BR:BR-PEDIDO-001'],
    ['ADR:ADR-0001', 'DECIDES_FOR', 'Entity:Pedido'],
    ['UC:UC-001', 'LAYER_DEPENDENCY', 'Entity:Pedido'],
    ['PRD:PRD-Tienda', 'WIKI_LINK', 'OBJ:OBJ-001'],
  ])('%s -[%s]-> %s', (from, type, to) => {
    expect(edge(kinds, from, type, to)).toBeDefined();
  });

  it('records cardinality on relation edges and the source section on every link edge', () => {
    expect(edge(kinds, 'Entity:Pedido', 'DOMAIN_RELATION', 'Entity:Usuario')!.metadata).toMatchObject({ cardinality: 'N:1' });
    expect(edge(kinds, 'UC:UC-001', 'UC_EXECUTES_CMD', 'CMD:CMD-001')!.metadata.section).toBe('Comandos Ejecutados');
    expect(edge(kinds, 'Entity:Pedido', 'WIKI_LINK', 'Entity:PaymentGateway')!.metadata.display_alias).toBe('pasarela de pago');
  });

  it('never duplicates (from, to, type) and keeps edges sorted', () => {
    const keys = kinds.graph.edges.map((e) => `${e.from_node}|${e.to_node}|${e.edge_type}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect([...keys].sort()).toEqual(keys);
  });

  it('flags a domain entity linking up to a use case as a layer violation, and only that', () => {
    expect(kinds.graph.layer_violations).toEqual([
      { from_node: 'Entity:Usuario', to_node: 'UC:UC-001', from_layer: '01-domain', to_layer: '02-behavior', edge_type: 'WIKI_LINK', source_file: '01-domain/entities/Usuario.md' },
    ]);
    expect(edge(kinds, 'PRD:PRD-Tienda', 'WIKI_LINK', 'UC:UC-001')!.layer_violation).toBe(false);
  });

  it('keeps unresolved links as dangling references', () => {
    expect(kinds.graph.dangling).toEqual([{ from_node: 'Entity:Usuario', target: 'Carrito', source_file: '01-domain/entities/Usuario.md', section: 'Descripción', links: [{ anchor: null, alias: null, field: 'description', section: 'Descripción' }] }]);
  });
});

describe('multi-domain trees', () => {
  it('prefixes node ids with the domain and lists the domains', () => {
    expect(multi.graph.nodes.map((n) => n.id)).toContain('auth:Entity:Token');
    expect(multi.manifest).toMatchObject({ structure: 'multi-domain', domains: ['auth', 'core', 'sessions'] });
  });

  it('turns [[domain::X]] into CROSS_DOMAIN_REF', () => {
    expect(edge(multi, 'auth:Entity:Token', 'CROSS_DOMAIN_REF', 'core:Entity:Usuario')!.metadata.domain).toBe('core');
    expect(edge(multi, 'auth:UC:UC-001', 'UC_APPLIES_RULE', '_shared:XP:XP-AUDIT-001')).toBeDefined();
  });

  it('resolves a plain link in the own domain first, then in core', () => {
    expect(edge(multi, 'auth:Entity:Token', 'WIKI_LINK', 'auth:Entity:Session')).toBeDefined();
    expect(edge(multi, 'auth:Entity:Token', 'WIKI_LINK', 'core:Entity:Session')).toBeUndefined();
    expect(edge(multi, 'auth:UC:UC-001', 'WIKI_LINK', 'core:Entity:Usuario')).toBeDefined();
  });
});
