import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile, packCompiled } from '../../compiler/pipeline.js';
import type { KddIndex } from '../../runtime/kdd-index.js';
import { loadIndex } from '../../runtime/load.js';
import { hints } from '../../runtime/queries/hints.js';

const SHOP = fileURLToPath(new URL('../fixtures/shop', import.meta.url));

describe('hints (QRY-007)', () => {
  let shop: KddIndex;
  beforeAll(async () => {
    shop = await loadIndex(packCompiled(await compile({ specsDir: SHOP })).bytes);
  });

  it('requires at least one hint', () => {
    expect(() => hints(shop, { hints: [] })).toThrow(expect.objectContaining({ code: 'EMPTY_HINTS' }));
    expect(() => hints(shop, {})).toThrow(expect.objectContaining({ code: 'EMPTY_HINTS' }));
  });

  it('resolves a file path by its basename and puts rules before behaviour', () => {
    const r = hints(shop, { hints: ['src/domain/pedido.ts'] });
    expect(r.resolved_entities).toEqual([{ node_id: 'Entity:Pedido', matched_from: 'src/domain/pedido.ts', match_method: 'basename' }]);
    const constraints = r.constraints.map((c) => c.node_id);
    expect(constraints[0]).toBe('BR:BR-PEDIDO-001');
    expect(constraints).toContain('Entity:Pedido');
    expect(r.constraints.find((c) => c.node_id === 'BR:BR-PEDIDO-001')?.reached_via).toBe('Entity:Pedido -> ENTITY_RULE -> BR:BR-PEDIDO-001');
    expect(r.behavior.map((b) => b.node_id)).toContain('CMD:CMD-001');
  });

  it('resolves ids, names and keywords, and warns about hints that match nothing', () => {
    const r = hints(shop, { hints: ['CMD-001', 'Customer', 'checkout', 'zzqx-nothing'] });
    expect(r.resolved_entities).toEqual(
      expect.arrayContaining([
        { node_id: 'CMD:CMD-001', matched_from: 'CMD-001', match_method: 'id' },
        { node_id: 'Entity:Customer', matched_from: 'Customer', match_method: 'name' },
        { node_id: 'UC:UC-001', matched_from: 'checkout', match_method: 'name' },
      ]),
    );
    expect(r.warnings.map((w) => w.message)).toContain("No match found for hint: 'zzqx-nothing'");
  });

  it('extracts kind-specific content: rule declarations, entity invariants, command conditions', () => {
    const r = hints(shop, { hints: ['Pedido'] });
    expect(r.constraints.find((c) => c.node_id === 'BR:BR-PEDIDO-001')?.content).toMatch(/suma de sus líneas/);
    expect(r.constraints.find((c) => c.node_id === 'Entity:Pedido')?.content).toMatch(/nunca es negativo/);
    expect(r.behavior.find((c) => c.node_id === 'CMD:CMD-001')?.content).toMatch(/carrito/);
  });

  it('keeps within max_tokens, dropping behaviour before constraints', () => {
    const full = hints(shop, { hints: ['Pedido'], depth: 2 });
    const small = hints(shop, { hints: ['Pedido'], depth: 2, max_tokens: 250 });
    expect(small.total_tokens).toBeLessThanOrEqual(250);
    expect(small.total_items).toBeLessThan(full.total_items);
    expect(small.warnings.map((w) => w.code)).toContain('TOKEN_LIMIT_EXCEEDED');
    expect(small.constraints[0]?.node_id).toBe(full.constraints[0]?.node_id);
  });

  it('never follows a layer-violating edge', () => {
    // Entity:Pedido → UC:UC-001 violates BR-LAYER-001; with depth 1 the use case is not reached.
    const r = hints(shop, { hints: ['Entity:Pedido'], depth: 1 });
    expect(r.behavior.map((b) => b.node_id)).not.toContain('UC:UC-001');
  });
});
