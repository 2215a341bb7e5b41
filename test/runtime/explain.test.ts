/**
 * `explain: true` on context and search: each result says which query terms it holds and where, which
 * translation stood in for a typed word, the exact key it answered, and the chain of edges from a
 * top match that carried graph score to it.
 */
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile, packCompiled } from '../../compiler/pipeline.js';
import type { KddIndex } from '../../runtime/kdd-index.js';
import { loadIndex } from '../../runtime/load.js';
import { context } from '../../runtime/queries/context.js';
import { search } from '../../runtime/queries/search.js';
import { FIELDS } from '../../runtime/search/fields.js';
import { tokenize } from '../../runtime/search/tokenizer.js';

const SHOP = fileURLToPath(new URL('../fixtures/shop', import.meta.url));
const FIELD_NAMES = FIELDS.map((f) => f.name);
const stem = (word: string) => tokenize(word)[0]!;

describe('explain', () => {
  let shop: KddIndex;
  beforeAll(async () => {
    shop = await loadIndex(packCompiled(await compile({ specsDir: SHOP })).bytes);
  });

  it('is absent unless asked for, and rejects a non-boolean', () => {
    expect(context(shop, { query_text: 'pedido' }).results.every((r) => r.why === undefined)).toBe(true);
    expect(search(shop, { query_text: 'pedido' }).results.every((r) => r.why === undefined)).toBe(true);
    expect(() => context(shop, { query_text: 'pedido', explain: 'yes' })).toThrow();
  });

  it('names the matched terms, their fields, and the typed word a translation stands for', () => {
    const hit = context(shop, { query_text: 'order rule', explain: true }).results.find((r) => r.node_id === 'BR:BR-PEDIDO-001')!;
    expect(hit.why!.matched).toContainEqual({ term: stem('rule'), fields: ['kind'] });
    expect(hit.why!.matched).toContainEqual(expect.objectContaining({ term: stem('pedido'), expanded_from: stem('order') }));
    expect(hit.why!.kind_asked).toBe(true);
  });

  it('names the exact id the query equals', () => {
    const top = context(shop, { query_text: 'CMD-001', explain: true }).results[0]!;
    expect(top.node_id).toBe('CMD:CMD-001');
    expect(top.why!.exact).toBe('CMD-001');
    expect(top.why!.matched[0]!.fields).toContain('id');
  });

  it('gives a graph-found result a chain of real edges of the bundle that ends at it', () => {
    const result = context(shop, { query_text: 'Checkout', min_score: 0, explain: true });
    const graphOnly = result.results.filter((r) => r.match_source === 'graph');
    expect(graphOnly.length).toBeGreaterThan(0);
    for (const hit of graphOnly) {
      const path = hit.why!.graph_path!;
      expect(path.length).toBeGreaterThan(0);
      const last = path.at(-1)!;
      expect([last.from_node, last.to_node]).toContain(hit.node_id);
      for (const step of path) expect(shop.bundle.edges).toContainEqual(expect.objectContaining(step));
    }
  });

  it('counts the explanation in the token budget and only lists terms the node really has (property)', () => {
    const words = ['pedido', 'order', 'customer', 'email', 'rule', 'regla', 'crear', 'checkout', 'evento', 'cliente'];
    fc.assert(
      fc.property(fc.subarray(words, { minLength: 1, maxLength: 4 }), fc.integer({ min: 200, max: 4000 }), (picked, maxTokens) => {
        const query = picked.join(' ');
        const result = context(shop, { query_text: query, explain: true, max_tokens: maxTokens, min_score: 0 });
        let sum = 0;
        for (const hit of result.results) {
          sum += hit.tokens;
          for (const m of hit.why!.matched) {
            expect(m.fields.length).toBeGreaterThan(0);
            for (const f of m.fields) expect(FIELD_NAMES).toContain(f);
          }
        }
        expect(sum).toBeLessThanOrEqual(maxTokens);
        expect(result.total_tokens).toBe(sum);
      }),
      { seed: 20, numRuns: 60 },
    );
  });

  it('explains search results too', () => {
    const hits = search(shop, { query_text: 'customer email', explain: true }).results;
    expect(hits.length).toBeGreaterThan(0);
    expect(hits[0]!.why!.matched.map((m) => m.term)).toEqual(expect.arrayContaining([stem('customer'), stem('email')]));
  });
});
