import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile, packCompiled } from '../../compiler/pipeline.js';
import type { KddIndex } from '../../runtime/kdd-index.js';
import { loadIndex } from '../../runtime/load.js';
import { compareBySpecificity } from '../../model/edges.js';
import { context, MAX_PASSAGES, PASSAGE_CHARS } from '../../runtime/queries/context.js';
import { analyzeQuery } from '../../runtime/search/rank.js';
import { tokenize } from '../../runtime/search/tokenizer.js';
import { search } from '../../runtime/queries/search.js';
import { estimateJsonTokens } from '../../runtime/tokens.js';

import { makeIndex } from '../helpers/make-index.js';
import { KDD_ENGINE_SPECS } from '../helpers/temp-tree.js';
import { arbitraryIndex, arbitraryQuery } from './search/_random-index.js';

const SHOP = fileURLToPath(new URL('../fixtures/shop', import.meta.url));
const KDD_ENGINE = KDD_ENGINE_SPECS;

async function indexOf(specsDir: string): Promise<KddIndex> {
  return loadIndex(packCompiled(await compile({ specsDir })).bytes);
}
const ids = (r: { results: { node_id: string }[] }) => r.results.map((x) => x.node_id);

describe('context (QRY-003)', () => {
  let shop: KddIndex;
  beforeAll(async () => {
    shop = await indexOf(SHOP);
  });

  it('rejects a query shorter than 3 characters with QUERY_TOO_SHORT', () => {
    expect(() => context(shop, { query_text: 'ab' })).toThrow(expect.objectContaining({ code: 'QUERY_TOO_SHORT' }));
    expect(() => context(shop, { query_text: 'pedido', depth: 9 })).toThrow(expect.objectContaining({ code: 'INVALID_DEPTH' }));
    expect(() => context(shop, { query_text: 'pedido', min_score: 2 })).toThrow(expect.objectContaining({ code: 'INVALID_SCORE_RANGE' }));
  });

  it('puts the node named by an id first', () => {
    expect(ids(context(shop, { query_text: 'CMD-001' }))[0]).toBe('CMD:CMD-001');
    expect(ids(context(shop, { query_text: 'Entity:Pedido' }))[0]).toBe('Entity:Pedido');
    expect(ids(context(shop, { query_text: 'BR-CUSTOMER-001' }))[0]).toBe('BR:BR-CUSTOMER-001');
  });

  it('favours the kind the query names, in either language', () => {
    expect(ids(context(shop, { query_text: 'regla del pedido' }))[0]).toBe('BR:BR-PEDIDO-001');
    expect(ids(context(shop, { query_text: 'which rule covers the customer email' }))[0]).toBe('BR:BR-CUSTOMER-001');
    expect(ids(context(shop, { query_text: 'command that creates a pedido' }))[0]).toBe('CMD:CMD-001');
  });

  it('brings in graph neighbours of the top match and lists the edges between results', () => {
    const result = context(shop, { query_text: 'Checkout', min_score: 0 });
    expect(ids(result)[0]).toBe('UC:UC-001');
    const graphOnly = result.results.filter((r) => r.match_source !== 'lexical').map((r) => r.node_id);
    expect(graphOnly).toContain('CMD:CMD-001');
    expect(result.graph_expansion).toContainEqual({ from_node: 'UC:UC-001', to_node: 'CMD:CMD-001', edge_type: 'UC_EXECUTES_CMD' });
  });

  it('never walks a layer-violating edge when respect_layers is true, and reports it', () => {
    // Entity:Pedido → UC:UC-001 is a violation (01-domain links up to 02-behavior).
    const result = context(shop, { query_text: 'Entity:Pedido', min_score: 0, depth: 1 });
    const uc = result.results.find((r) => r.node_id === 'UC:UC-001');
    expect(uc === undefined || uc.match_source === 'lexical').toBe(true);
    expect(result.graph_expansion.some((e) => e.from_node === 'Entity:Pedido' && e.to_node === 'UC:UC-001')).toBe(false);
    expect(result.layer_violations).toContainEqual(expect.objectContaining({ from_node: 'Entity:Pedido', to_node: 'UC:UC-001' }));
  });

  it('filters by kind and layer', () => {
    const result = context(shop, { query_text: 'pedido precio', include_kinds: ['business-rule'], min_score: 0 });
    expect(result.results.length).toBeGreaterThan(0);
    expect(result.results.every((r) => r.kind === 'business-rule')).toBe(true);
    const layer = context(shop, { query_text: 'pedido precio', include_layers: ['02-behavior'], min_score: 0 });
    expect(layer.results.every((r) => r.layer === '02-behavior')).toBe(true);
  });

  it('cuts results at max_tokens and warns', () => {
    const result = context(shop, { query_text: 'pedido', max_tokens: 300, min_score: 0 });
    expect(result.total_tokens).toBeLessThanOrEqual(300);
    expect(result.warnings.map((w) => w.code)).toContain('TOKEN_LIMIT_EXCEEDED');
  });

  it('fills the budget with every result snippet entry first, then the passages that answer, best result first', () => {
    const query = 'pedido cliente regla';
    const all = context(shop, { query_text: query, min_score: 0, max_tokens: 1e6 });
    // The words typed and their translations.
    const queryTerms = new Set(analyzeQuery(query).groups.flat().map((alt) => alt.term));
    expect(all.results.some((r) => (r.passages ?? []).length > 0)).toBe(true);
    all.results.forEach((hit, rank) => {
      expect(hit.truncated).toBeUndefined();
      // Fewer passages for lower-ranked results: 3, 3, 3, 2, 2, 2, 1, 1, 1, then none.
      expect((hit.passages ?? []).length).toBeLessThanOrEqual(Math.max(0, MAX_PASSAGES - Math.floor(rank / 3)));
      const node = shop.bundle.nodes[shop.nodeIndex.get(hit.node_id)!]!;
      for (const p of hit.passages ?? []) {
        const section = node.sections.find((s) => s.heading === p.section)!;
        expect(p.text.length).toBeLessThanOrEqual(PASSAGE_CHARS + 2);
        // Only sections that hold a query word, never the snippet again.
        expect(tokenize(`${section.heading} ${section.text}`).some((t) => queryTerms.has(t))).toBe(true);
        expect(p.text).not.toBe(hit.snippet);
      }
      expect(hit.tokens).toBe(estimateJsonTokens({ ...hit, tokens: 0 }));
    });
    const passages = new Map(all.results.map((r) => [r.node_id, (r.passages ?? []).length]));
    const snippetOnly = all.results.map(({ passages: p, tokens: __, ...head }) => estimateJsonTokens({ ...head, ...(p && { truncated: true }), tokens: 0 }));
    fc.assert(
      fc.property(fc.integer({ min: 50, max: all.total_tokens }), (maxTokens) => {
        const r = context(shop, { query_text: query, min_score: 0, max_tokens: maxTokens });
        expect(r.results.map((h) => h.node_id)).toEqual(all.results.slice(0, r.results.length).map((h) => h.node_id));
        expect(r.total_tokens).toBeLessThanOrEqual(maxTokens);
        expect(r.results.reduce((sum, h) => sum + h.tokens, 0)).toBe(r.total_tokens);
        for (const h of r.results) {
          expect(h.tokens).toBe(estimateJsonTokens({ ...h, tokens: 0 }));
          // `truncated` marks exactly the entries that lack some of their passages.
          expect(h.truncated === true).toBe((h.passages ?? []).length < passages.get(h.node_id)!);
        }
        // The answer is truncated (and says so with the warning) whenever an entry lacks a passage or a result was left out.
        expect(r.truncated).toBe(r.warnings.some((w) => w.code === 'TOKEN_LIMIT_EXCEEDED'));
        if (r.results.some((h) => h.truncated) || r.results.length < all.results.length) expect(r.truncated).toBe(true);
        // A result is left out only when not even its snippet entry fits.
        const cut = r.results.length;
        if (cut < all.results.length) expect(snippetOnly.slice(0, cut + 1).reduce((a, b) => a + b, 0)).toBeGreaterThan(maxTokens);
      }),
      { seed: 20, numRuns: 80 },
    );
  });

  it('reports the L1 fallback', () => {
    const result = context(shop, { query_text: 'pedido' });
    expect(result.retrieval_strategy).toBe('lexical+graph');
    expect(result.warnings.map((w) => w.code)).toContain('NO_EMBEDDINGS');
  });

  it('takes the snippet from the section that matches the query', () => {
    const hit = context(shop, { query_text: 'invariantes negativo pedido' }).results.find((r) => r.node_id === 'Entity:Pedido');
    expect(hit?.section).toBe('Invariantes');
    expect(hit?.snippet).toMatch(/negativo/);
  });

  describe('laws over random indexes and queries', () => {
    it('sorted by score, every score ≥ min_score, at most limit results, tokens ≤ max_tokens', () => {
      fc.assert(
        fc.property(arbitraryIndex(), arbitraryQuery, fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 1, max: 15 }), fc.integer({ min: 50, max: 3000 }), (index, q, minScore, limit, maxTokens) => {
          const r = context(index, { query_text: q, min_score: minScore, limit, max_tokens: maxTokens });
          for (let i = 1; i < r.results.length; i++) expect(r.results[i - 1]!.score).toBeGreaterThanOrEqual(r.results[i]!.score);
          for (const hit of r.results) expect(hit.score).toBeGreaterThanOrEqual(minScore);
          for (const hit of r.results) expect(hit.score).toBeLessThanOrEqual(1);
          expect(r.total_results).toBeLessThanOrEqual(limit);
          expect(r.total_tokens).toBeLessThanOrEqual(maxTokens);
        }),
        { numRuns: 150 },
      );
    });

    it('with respect_layers, no result is reached over a violating edge and no violating edge is shown', () => {
      fc.assert(
        fc.property(arbitraryIndex(), arbitraryQuery, fc.integer({ min: 1, max: 5 }), (index, q, depth) => {
          const r = context(index, { query_text: q, depth, min_score: 0, limit: 100, max_tokens: 1e9 });
          const lexical = context(index, { query_text: q, expand_graph: false, min_score: 0, limit: 100, max_tokens: 1e9 });
          const direct = new Set(lexical.results.map((x) => x.node_id));
          // Every graph-only result is reachable from a direct match over clean edges within depth.
          const clean = index.bundle.edges.filter((e) => !e.layer_violation);
          const reach = new Set(direct);
          for (let d = 0; d < depth; d++) for (const e of clean) {
            if (reach.has(e.from_node)) reach.add(e.to_node);
            else if (reach.has(e.to_node)) reach.add(e.from_node);
          }
          for (const hit of r.results) expect(reach.has(hit.node_id)).toBe(true);
          for (const e of r.graph_expansion) {
            expect(index.bundle.edges.some((x) => x.from_node === e.from_node && x.to_node === e.to_node && x.edge_type === e.edge_type && !x.layer_violation)).toBe(true);
          }
        }),
        { numRuns: 150 },
      );
    });

    it('is deterministic and never mutates the bundle', () => {
      fc.assert(
        fc.property(arbitraryIndex(), arbitraryQuery, (index, q) => {
          const before = structuredClone(index.bundle);
          const a = context(index, { query_text: q, min_score: 0 });
          const b = context(index, { query_text: q, min_score: 0 });
          expect(b).toEqual(a);
          expect(index.bundle).toEqual(before);
          search(index, { query_text: q, min_score: 0 });
          expect(index.bundle).toEqual(before);
        }),
        { numRuns: 100 },
      );
    });
  });
});

describe('context: impact questions', () => {
  // Two requirements repeat the subject's words; the rule and the command only link to it.
  const index = makeIndex(
    [
      { id: 'Entity:LateFee', title: 'LateFee', indexed_fields: { description: 'The late fee charged when a book is returned after its due date.' } },
      { id: 'BR:BR-001', title: 'Fee cap', indexed_fields: { declaration: 'A charge never exceeds the price of the book.' } },
      { id: 'CMD:CMD-001', title: 'ReturnBook', indexed_fields: { purpose: 'Records a returned book and applies charges.' } },
      { id: 'REQ:REQ-001', title: 'Late fee reporting', indexed_fields: { description: 'The late fee totals appear in the monthly report of late fee income.' } },
      { id: 'REQ:REQ-002', title: 'Late fee signage', indexed_fields: { description: 'The late fee amount is shown on a sign at the desk; late fee questions go to staff.' } },
    ],
    [
      { from: 'BR:BR-001', to: 'Entity:LateFee', type: 'ENTITY_RULE' },
      { from: 'CMD:CMD-001', to: 'Entity:LateFee', type: 'WIKI_LINK' },
    ],
  );

  it('answers with the subject and what depends on it before other matches, in ranking order', () => {
    const ranking = ids(context(index, { query_text: 'if the late fee changes, which documents change?', limit: 10 }));
    expect(ranking.indexOf('REQ:REQ-001')).toBeLessThan(ranking.indexOf('CMD:CMD-001'));
    const answer = context(index, { query_text: 'if the late fee changes, which documents change?', limit: 3, explain: true });
    expect(ids(answer)).toEqual(['Entity:LateFee', 'BR:BR-001', 'CMD:CMD-001']);
    expect(answer.results.map((h) => h.why!.depends_on)).toEqual([
      undefined,
      { from_node: 'BR:BR-001', edge_type: 'ENTITY_RULE', to_node: 'Entity:LateFee' },
      { from_node: 'CMD:CMD-001', edge_type: 'WIKI_LINK', to_node: 'Entity:LateFee' },
    ]);
  });

  it('takes a kind named in the question for the subject\'s kind, not for the kind of the answer', () => {
    // Without the kind intent's factor, entities that only mention the subject stay below what depends on it.
    const withEntities = makeIndex(
      [
        { id: 'Entity:LateFee', title: 'LateFee', indexed_fields: { description: 'The late fee charged when a book is returned after its due date.' } },
        { id: 'Entity:Member', title: 'Member', indexed_fields: { description: 'A reader; pays any late fee at the desk.' } },
        { id: 'Entity:Shelf', title: 'Shelf', indexed_fields: { description: 'Where books wait; a late fee notice hangs on each.' } },
        { id: 'BR:BR-001', title: 'Fee cap', indexed_fields: { declaration: 'A late charge never exceeds the price of the book.' } },
        { id: 'CMD:CMD-001', title: 'ReturnBook', indexed_fields: { purpose: 'Records a returned book and applies the late fee.' } },
      ],
      [
        { from: 'BR:BR-001', to: 'Entity:LateFee', type: 'ENTITY_RULE' },
        { from: 'CMD:CMD-001', to: 'Entity:LateFee', type: 'UC_EXECUTES_CMD' },
      ],
    );
    for (const q of ['if the LateFee entity changes, what depends on it?', 'si cambia la entidad LateFee, ¿qué depende de ella?']) {
      const answer = context(withEntities, { query_text: q, limit: 3, explain: true });
      expect(ids(answer), q).toEqual(['Entity:LateFee', 'BR:BR-001', 'CMD:CMD-001']);
      expect(answer.results.some((h) => h.why!.kind_asked), q).toBe(false);
    }
    // Asked without an impact, the kind word still asks for entities.
    const plain = context(withEntities, { query_text: 'the late fee entity', limit: 5, explain: true }).results;
    expect(plain.filter((h) => h.why!.kind_asked).map((h) => h.node_id).sort()).toEqual(['Entity:LateFee', 'Entity:Member', 'Entity:Shelf']);
  });

  it('leaves a question that asks for no impact to the ranking', () => {
    const answer = context(index, { query_text: 'late fee', limit: 3, explain: true });
    expect(ids(answer)).toEqual(ids(context(index, { query_text: 'late fee', limit: 10 })).slice(0, 3));
    expect(answer.results.every((h) => h.why!.depends_on === undefined)).toBe(true);
  });
});

describe('search (QRY-002 at L1)', () => {
  it('answers lexically with a NO_EMBEDDINGS warning', async () => {
    const shop = await indexOf(SHOP);
    const r = search(shop, { query_text: 'precio final del pedido' });
    expect(r.retrieval_strategy).toBe('lexical');
    expect(r.embedding_model).toBeNull();
    expect(r.warnings.map((w) => w.code)).toEqual(['NO_EMBEDDINGS']);
    expect(r.results[0]).toMatchObject({ node_id: 'BR:BR-PEDIDO-001', document_id: 'BR-PEDIDO-001', document_kind: 'business-rule', section_path: 'declaration' });
  });
});

describe.skipIf(!existsSync(KDD_ENGINE))('context on the kdd-engine corpus', () => {
  let index: KddIndex;
  beforeAll(async () => {
    index = await indexOf(KDD_ENGINE);
  });

  it.each([
    ['CMD-004', 'CMD:CMD-004'],
    ['Entity:GraphEdge', 'Entity:GraphEdge'],
    ['SCN-IndexEntity-001', 'FEAT:index-entity'],
    ['EVT-KDDDocument-Indexed', 'EVT:EVT-KDDDocument-Indexed'],
    ['merge conflict resolution rule', 'BR:BR-MERGE-001'],
  ])('"%s" ranks %s first', (query, expected) => {
    expect(ids(context(index, { query_text: query }))[0]).toBe(expected);
  });

  it('SCN-HybridSearch-001: indexing flow brings the use case, its rule and its command', () => {
    const found = ids(context(index, { query_text: 'flujo de indexación de documentos', min_score: 0, limit: 20, max_tokens: 100000 }));
    for (const id of ['UC:UC-001', 'BR:BR-DOCUMENT-001', 'CMD:CMD-001']) expect(found).toContain(id);
  });

  it('SCN-HybridSearch-002: include_kinds keeps business rules only', () => {
    const r = context(index, { query_text: 'reglas de negocio para documentos', include_kinds: ['business-rule'] });
    expect(r.results.every((x) => x.kind === 'business-rule')).toBe(true);
    expect(ids(r)).toContain('BR:BR-DOCUMENT-001');
  });

  it('lists, for each pair of results, the most specific edge between them (as graph, impact and hints do)', () => {
    const result = context(index, { query_text: 'flujo de indexación de documentos', min_score: 0, limit: 20, max_tokens: 100000 });
    expect(result.graph_expansion.length).toBeGreaterThan(0);
    for (const listed of result.graph_expansion) {
      const between = index.bundle.edges.filter((e) => e.from_node === listed.from_node && e.to_node === listed.to_node && !e.layer_violation);
      const best = [...between].sort(compareBySpecificity)[0]!;
      expect(listed.edge_type).toBe(best.edge_type);
    }
    // The use case applies its rule: the typed edge, not the layer dependency stored beside it.
    expect(result.graph_expansion).toContainEqual({ from_node: 'UC:UC-001', to_node: 'BR:BR-DOCUMENT-001', edge_type: 'UC_APPLIES_RULE' });
  });

  it('answers an English question about Spanish specs', () => {
    expect(ids(context(index, { query_text: 'which business rules apply to document indexing' })).slice(0, 3)).toContain('BR:BR-DOCUMENT-001');
  });
});
