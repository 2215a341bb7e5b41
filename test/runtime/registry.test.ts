/**
 * The query registry: its declared parameters are what the queries enforce (ranges, defaults,
 * typed errors with filled messages), aliases and node references are prepared the same way for
 * every door, and the JSON Schemas it publishes say what the parameters say.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isKddError } from '../../model/errors.js';
import type { ParamSpec } from '../../runtime/param-spec.js';
import { inputSchema, prepareParams, QUERIES, QUERY_LIST, runQuery, type QueryDef } from '../../runtime/queries/registry.js';
import { makeIndex } from '../helpers/make-index.js';

const index = makeIndex(
  [
    { id: 'Entity:Pedido', title: 'Pedido', aliases: ['order'], source_file: '01-domain/entities/Pedido.md' },
    { id: 'BR:BR-PEDIDO-001', title: 'Pedido mínimo', source_file: '01-domain/rules/BR-PEDIDO-001.md' },
    { id: 'UC:UC-001', title: 'Crear pedido', source_file: '02-behavior/use-cases/UC-001-CrearPedido.md' },
  ],
  [
    { from: 'BR:BR-PEDIDO-001', type: 'ENTITY_RULE', to: 'Entity:Pedido' },
    { from: 'UC:UC-001', type: 'UC_APPLIES_RULE', to: 'BR:BR-PEDIDO-001' },
  ],
);

/** Parameters that make each query valid, so one field at a time can be made wrong. */
const VALID: Record<string, Record<string, unknown>> = {
  context: { query_text: 'pedido' },
  search: { query_text: 'pedido' },
  chunks: { query_text: 'pedido' },
  hints: { hints: ['Pedido'] },
  graph: { root_node: 'Entity:Pedido' },
  impact: { node_id: 'Entity:Pedido' },
  coverage: { node_id: 'Entity:Pedido' },
  violations: {},
  health: {},
  find: { query: 'Pedido' },
  list: {},
  read_section: { node_id: 'Entity:Pedido' },
  stats: {},
};

async function outcome(def: QueryDef, params: Record<string, unknown>): Promise<{ ok: true } | { ok: false; code: string; message: string }> {
  try {
    await runQuery(def.name as keyof typeof QUERIES, index, params);
    return { ok: true };
  } catch (error) {
    if (!isKddError(error)) throw error;
    return { ok: false, code: error.code, message: error.message };
  }
}

const numeric = (spec: ParamSpec): spec is Extract<ParamSpec, { type: 'integer' | 'number' }> => spec.type === 'integer' || spec.type === 'number';

describe('the query registry', () => {
  it('covers every query with a valid call', async () => {
    expect(Object.keys(VALID).sort()).toEqual(Object.keys(QUERIES).sort());
    for (const def of QUERY_LIST) expect(await outcome(def, VALID[def.name]!), def.name).toEqual({ ok: true });
  });

  it('declares the ranges the queries enforce: the bounds pass, one step outside fails with the declared code', async () => {
    for (const def of QUERY_LIST) {
      for (const [name, spec] of Object.entries(def.params)) {
        if (!numeric(spec)) continue;
        const step = spec.type === 'integer' ? 1 : 0.001;
        const code = spec.code ?? 'INVALID_PARAMS';
        for (const bound of [spec.min, spec.max]) if (bound !== undefined) expect(await outcome(def, { ...VALID[def.name], [name]: bound }), `${def.name}.${name}=${bound}`).toEqual({ ok: true });
        if (spec.min !== undefined) expect(await outcome(def, { ...VALID[def.name], [name]: spec.min - step }), `${def.name}.${name} below`).toMatchObject({ ok: false, code });
        if (spec.max !== undefined) expect(await outcome(def, { ...VALID[def.name], [name]: spec.max + step }), `${def.name}.${name} above`).toMatchObject({ ok: false, code });
      }
    }
  });

  it('answers a wrongly typed value of any parameter with a typed error whose message is filled in (fixed seed)', async () => {
    const wrong = fc.oneof(fc.integer(), fc.boolean(), fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }), fc.array(fc.integer(), { minLength: 1, maxLength: 3 }));
    const fields = QUERY_LIST.flatMap((def) => Object.entries(def.params).map(([name, spec]) => ({ def, name, spec })));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...fields), wrong, async ({ def, name, spec }, value) => {
        // A number is right for a numeric field, a boolean for a boolean one.
        if ((numeric(spec) && typeof value === 'number') || (spec.type === 'boolean' && typeof value === 'boolean')) return;
        const result = await outcome(def, { ...VALID[def.name], [name]: value });
        if (result.ok) throw new Error(`${def.name}.${name} accepted ${JSON.stringify(value)}`);
        expect(result.message, `${def.name}.${name}=${JSON.stringify(value)}`).not.toMatch(/\{\w+\}/);
        expect(['INVALID_PARAMS', spec.code ?? 'INVALID_PARAMS', 'NODE_NOT_FOUND']).toContain(result.code);
      }),
      { numRuns: 300 },
    );
  });

  it('renames aliases, refuses a name given twice, and resolves node references', () => {
    const graph = QUERIES.graph as unknown as QueryDef;
    expect(prepareParams(graph, index, { node: 'Pedido', kinds: 'entity' })).toEqual({ root_node: 'Entity:Pedido', include_kinds: 'entity' });
    expect(prepareParams(graph, index, { node_id: 'UC-001' })).toEqual({ root_node: 'UC:UC-001' });
    expect(prepareParams(graph, index, { root_node: 'Ghost' })).toEqual({ root_node: 'Ghost' });
    expect(() => prepareParams(graph, index, { node: 'a', root_node: 'b' })).toThrow(expect.objectContaining({ code: 'INVALID_PARAMS' }));
    expect(() => prepareParams(graph, index, 'Pedido')).toThrow(expect.objectContaining({ code: 'INVALID_PARAMS' }));
  });

  it('publishes JSON Schemas that say what the parameters say', () => {
    for (const def of QUERY_LIST) {
      const schema = inputSchema(def) as { properties: Record<string, Record<string, unknown>>; required?: string[] };
      expect(Object.keys(schema.properties)).toEqual(Object.keys(def.params));
      for (const [name, spec] of Object.entries(def.params)) {
        const property = schema.properties[name]!;
        expect(property.description, `${def.name}.${name}`).toBe(spec.description);
        if (numeric(spec)) expect(property).toMatchObject({ type: spec.type, default: spec.default, ...(spec.min !== undefined ? { minimum: spec.min } : {}), ...(spec.max !== undefined ? { maximum: spec.max } : {}) });
      }
      expect(def.result.type, def.name).toBe('object');
      expect(def.summary.length, def.name).toBeGreaterThan(30);
    }
    expect((inputSchema(QUERIES.context as unknown as QueryDef) as { required: string[] }).required).toEqual(['query_text']);
  });
});
