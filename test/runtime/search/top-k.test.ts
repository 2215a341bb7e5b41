/**
 * Top-k pruning (runtime/search/top-k.ts) never changes an answer: on random corpora and weighted
 * queries, the pruned ranking equals exhaustive scoring (same nodes, bit-equal scores, same order),
 * and so do `context` and `search` answers under every filter.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GraphEdge, Kind, Layer } from '../../../model/graph.js';
import type { KddIndex } from '../../../runtime/kdd-index.js';
import { context } from '../../../runtime/queries/context.js';
import { search } from '../../../runtime/queries/search.js';
import { FIELDS } from '../../../runtime/search/fields.js';
import { idfOf, rankTerms, termStats, type PostingLists, type WeightedTerm } from '../../../runtime/search/top-k.js';
import { term } from '../../../runtime/search/tokenizer.js';
import type { TermAlternative, TextIndex } from '../../../runtime/search/types.js';
import { indexFrom, makeTextNode } from './_random-index.js';

// Zipf-like: the first words are in most nodes, the last ones in few (long and short posting lists).
const VOCABULARY = ['pedido', 'regla', 'precio', 'cliente', 'indice', 'capa', 'evento', 'comando', 'grafo', 'merge', 'conflicto', 'borrar', 'factura', 'envio', 'stock', 'cupon'];
const KINDS: readonly [Kind, Layer][] = [
  ['entity', '01-domain'],
  ['business-rule', '01-domain'],
  ['command', '02-behavior'],
  ['use-case', '02-behavior'],
  ['requirement', '04-verification'],
];

const word = fc.integer({ min: 0, max: VOCABULARY.length * VOCABULARY.length - 1 }).map((r) => VOCABULARY[Math.floor(Math.sqrt(r))]!);
const text = (max: number) => fc.array(word, { minLength: 1, maxLength: max }).map((w) => w.join(' '));
const nodeText = fc.record({ title: text(3), primary: text(12), body: text(40), kind: fc.integer({ min: 0, max: KINDS.length - 1 }), marked: fc.boolean() });
/** A word only the copies of one original have (when `marked`): a rare, strong term. */
const mark = (i: number) => `solo${'abcdefghijkl'[i]}`;

/**
 * Up to ~450 nodes, many of them copies of a few originals (exact score ties, as in a corpus
 * replicated with renamed ids), so that posting lists span several 64-node blocks.
 */
const corpus = fc
  .record({ originals: fc.array(nodeText, { minLength: 1, maxLength: 12 }), copies: fc.array(fc.integer({ min: 0, max: 60 }), { minLength: 12, maxLength: 12 }), edges: fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 60 }) })
  .map(({ originals, copies, edges }) => {
    const nodes = originals.flatMap((o, i) =>
      Array.from({ length: 1 + copies[i]! }, (_, c) => {
        const [kind, layer] = KINDS[o.kind]!;
        return makeTextNode(`Entity:N${i}x${c}`, kind, layer, o.marked ? `${o.title} ${mark(i)}` : o.title, [['description', o.primary], [null, o.body]]);
      }),
    );
    const graphEdges: GraphEdge[] = edges.map(([a, b]) => ({
      from_node: nodes[a % nodes.length]!.id,
      to_node: nodes[b % nodes.length]!.id,
      edge_type: 'WIKI_LINK',
      source_file: 'x.md',
      extraction_method: 'wiki_link',
      metadata: {},
      layer_violation: a % 7 === 0,
      bidirectional: false,
    }));
    return indexFrom(nodes, graphEdges.filter((e) => e.from_node !== e.to_node));
  });

// Index terms are stems (`pedido` → its stem): query the stems the corpus was indexed with.
const alternative = fc.record({ term: fc.constantFrom(...VOCABULARY.map((w) => term(w)!), ...Array.from({ length: 12 }, (_, i) => term(mark(i))!), 'missing'), weight: fc.oneof(fc.constant(1), fc.double({ min: 0, max: 2, noNaN: true }), fc.double({ min: 0, max: 0.1, noNaN: true })) });
// Small weights put many matches under 5 % of the best score, where the tail cut applies.
const groups = fc.array(fc.array(alternative, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 5 });

/** The same index whose text search scores every posting (the pruning switched off). */
function exhaustive(index: KddIndex): KddIndex {
  const text: TextIndex = Object.create(index.text);
  text.searchTerms = (g, options) => index.text.searchTerms(g, { ...options, exhaustive: true });
  return { ...index, text };
}

/** The rule `searchTerms` documents, applied to the full ranking: best `limit`, tail cut when > 4 × limit match. */
function expectedTop(all: { node: number; score: number }[], limit: number) {
  const floor = all.length > 4 * limit ? all[0]!.score * 0.05 : 0;
  return all.filter((hit) => hit.score >= floor).slice(0, limit);
}

describe('top-k pruning', () => {
  it('ranks exactly as exhaustive scoring: same nodes, bit-equal scores, same order', () => {
    fc.assert(
      fc.property(corpus, groups, fc.oneof(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 40 })), (index, query: TermAlternative[][], limit) => {
        const pruned = index.text.searchTerms(query, { limit });
        expect(pruned).toEqual(index.text.searchTerms(query, { limit, exhaustive: true }));
        expect(pruned).toEqual(expectedTop(index.text.searchTerms(query), limit));
      }),
      { numRuns: 150 },
    );
  });

  it('equals BM25F computed node by node, for windows of any width', () => {
    const weightedGroups = fc.array(fc.array(fc.record({ term: fc.nat(), weight: alternative.map((a) => a.weight) }), { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 5 });
    fc.assert(
      fc.property(corpus, weightedGroups, fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 64 }), (index, raw, limit, window) => {
        const lists = index.text as unknown as PostingLists;
        const terms = lists.offsets.length - 1;
        const query = raw.map((group) => group.map(({ term, weight }) => ({ term: term % terms, weight })));
        const stats = (t: number) => termStats(lists, t);
        const all = scoreNodeByNode(lists, query);
        expect(rankTerms(lists, query, stats)).toEqual(all);
        expect(rankTerms(lists, query, stats, { limit, prune: false })).toEqual(expectedTop(all, limit));
        expect(rankTerms(lists, query, stats, { limit, window })).toEqual(expectedTop(all, limit));
      }),
      { numRuns: 150 },
    );
  });

  it('leaves context and search answers unchanged under every filter', () => {
    const filters = fc.record(
      {
        include_kinds: fc.subarray(KINDS.map(([kind]) => kind)),
        include_layers: fc.subarray(['01-domain', '02-behavior', '04-verification']),
        min_score: fc.double({ min: 0, max: 1, noNaN: true }),
        limit: fc.integer({ min: 1, max: 30 }),
        depth: fc.integer({ min: 1, max: 3 }),
        expand_graph: fc.boolean(),
        respect_layers: fc.boolean(),
        explain: fc.boolean(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(corpus, text(5), filters, (index, query, params) => {
        const slow = exhaustive(index);
        expect(context(index, { query_text: `${query} x`, ...params })).toEqual(context(slow, { query_text: `${query} x`, ...params }));
        const { depth: _d, expand_graph: _e, respect_layers: _r, ...searchParams } = params;
        expect(search(index, { query_text: `${query} x`, ...searchParams })).toEqual(search(slow, { query_text: `${query} x`, ...searchParams }));
      }),
      { numRuns: 60 },
    );
  });

  it('skips what the tail cut drops, and only that: hits just above 5 % of the best stay', () => {
    // 3 strong nodes (a rare word), 120 with a common word once to 6 times (graded scores).
    const nodes = [
      ...Array.from({ length: 3 }, (_, i) => makeTextNode(`Entity:A${i}`, 'entity', '01-domain', 'unicornio', [[null, 'unicornio pedido']])),
      ...Array.from({ length: 120 }, (_, i) => makeTextNode(`Entity:B${String(i).padStart(3, '0')}`, 'entity', '01-domain', 'otro', [[null, Array(1 + (i % 6)).fill('pedido').join(' ')]])),
    ];
    const index = indexFrom(nodes, []);
    const rare = term('unicornio')!;
    const common = term('pedido')!;
    const ratio = (w: number) => {
      const all = index.text.searchTerms([[{ term: rare, weight: 1 }], [{ term: common, weight: w }]]);
      return all.at(-1)!.score / all[0]!.score;
    };
    // Scale the common word so that the weakest common-only nodes sit just under 5 % of the best.
    const weight = 0.045 / ratio(1);
    const query = [[{ term: rare, weight: 1 }], [{ term: common, weight }]];
    const all = index.text.searchTerms(query);
    const pruned = index.text.searchTerms(query, { limit: 20 });
    expect(pruned).toEqual(expectedTop(all, 20));
    expect(pruned).toEqual(index.text.searchTerms(query, { limit: 20, exhaustive: true }));
    const floor = all[0]!.score * 0.05;
    expect(pruned.some((hit) => hit.score < floor * 1.2)).toBe(true);
    expect(all.some((hit) => hit.score < floor)).toBe(true);
  });

  it('reads every window holding a node 0.5 % above the k-th best', () => {
    // 40 copies of A first, then 40 of B (another word) scoring 0.5 % more: A's copies fill the top 10 before any B is read.
    const nodes = [
      ...Array.from({ length: 40 }, (_, i) => makeTextNode(`Entity:A${String(i).padStart(2, '0')}`, 'entity', '01-domain', 'otro', [[null, 'pedido pedido']])),
      ...Array.from({ length: 40 }, (_, i) => makeTextNode(`Entity:B${String(i).padStart(2, '0')}`, 'entity', '01-domain', 'otro', [[null, 'cliente']])),
    ];
    const index = indexFrom(nodes, []);
    const [pedido, cliente] = [term('pedido')!, term('cliente')!];
    const single = (t: string) => index.text.searchTerms([[{ term: t, weight: 1 }]])[0]!.score;
    const query = [[{ term: pedido, weight: 1 }], [{ term: cliente, weight: (1.005 * single(pedido)) / single(cliente) }]];
    const top = index.text.searchTerms(query).slice(0, 10);
    expect(top.map((hit) => nodes[hit.node]!.id.slice(7, 8)).join('')).toBe('BBBBBBBBBB');
    for (const window of [1, 4, 16, 64, 256]) expect(rankTerms(index.text as unknown as PostingLists, resolve(index, query), (t) => termStats(index.text as unknown as PostingLists, t), { limit: 10, window })).toEqual(top);
  });

  it('keeps nodes that beat the k-th best by 0.5 %, whatever window they fall in and whichever words they hold', () => {
    // 40 copies of A (both words) first, then 40 of B (only the first word, 0.5 % above A), then 3
    // of C (the second word, far above): A's copies fill the top 10 before any B is read, and the
    // first word's group bound is the smaller one — B's copies must be read all the same.
    const nodes = [
      ...Array.from({ length: 40 }, (_, i) => makeTextNode(`Entity:A${String(i).padStart(2, '0')}`, 'entity', '01-domain', 'otro', [[null, 'pedido cliente stock stock stock stock stock stock stock stock']])),
      ...Array.from({ length: 40 }, (_, i) => makeTextNode(`Entity:B${String(i).padStart(2, '0')}`, 'entity', '01-domain', 'pedido', [[null, 'pedido pedido pedido']])),
      ...Array.from({ length: 3 }, (_, i) => makeTextNode(`Entity:C${i}`, 'entity', '01-domain', 'cliente', [[null, 'cliente cliente cliente cliente']])),
    ];
    const index = indexFrom(nodes, []);
    const lists = index.text as unknown as PostingLists;
    const [pedido, cliente] = [term('pedido')!, term('cliente')!];
    const scoreOf = (t: string, node: number) => index.text.searchTerms([[{ term: t, weight: 1 }]]).find((hit) => hit.node === node)!.score;
    const weight = (scoreOf(pedido, 40) / 1.005 - scoreOf(pedido, 0)) / scoreOf(cliente, 0);
    const query = [[{ term: pedido, weight: 1 }], [{ term: cliente, weight }]];
    const all = index.text.searchTerms(query);
    const top = all.slice(0, 10);
    expect(top.map((hit) => nodes[hit.node]!.id.slice(7, 8)).join('')).toBe('CCCBBBBBBB');
    expect(top[3]!.score / all.find((hit) => hit.node === 0)!.score).toBeCloseTo(1.005, 6);
    for (const window of [1, 4, 16, 64, 256]) expect(rankTerms(lists, resolve(index, query), (t) => termStats(lists, t), { limit: 10, window })).toEqual(top);
  });

  it('prunes: a top-10 over copies of one best node reads fewer postings than the whole list', () => {
    // Long enough that the first window (read whole before any bound can skip) is a small part of the list.
    const nodes = Array.from({ length: 5000 }, (_, i) =>
      makeTextNode(`Entity:N${String(i).padStart(4, '0')}`, 'entity', '01-domain', i < 100 ? 'pedido pedido' : 'pedido cliente', [[null, 'pedido']]),
    );
    const index = indexFrom(nodes, []);
    const counting = countReads(index);
    const query = [[{ term: term('pedido')!, weight: 1 }]];
    counting.text.docFrequency(term('pedido')!); // the term's bounds, computed once per index
    const before = counting.reads();
    const pruned = counting.text.searchTerms(query, { limit: 10 });
    const prunedReads = counting.reads() - before;
    expect(pruned).toEqual(counting.text.searchTerms(query, { limit: 10, exhaustive: true }));
    const exhaustiveReads = counting.reads() - before - prunedReads;
    expect(prunedReads * 10).toBeLessThan(exhaustiveReads);
  });
});

/** Words → the index's term ids (rankTerms takes ids; the id lookup is private to the restored index). */
function resolve(index: KddIndex, groups: readonly (readonly TermAlternative[])[]): WeightedTerm[][] {
  const termId = (t: string) => (index.text as unknown as { termId(t: string): number }).termId(t);
  return groups.map((group) => group.map((alt) => ({ term: termId(alt.term), weight: alt.weight })));
}

/**
 * The ranking by its definition, one node at a time: per group the best alternative's BM25
 * saturation (k1 = 1.2) of its field-weighted, length-normalised term frequency, group scores added
 * in group order; nodes no term holds are left out. Best first, ties by position.
 */
function scoreNodeByNode(lists: PostingLists, groups: readonly (readonly WeightedTerm[])[]): { node: number; score: number }[] {
  const out: { node: number; score: number }[] = [];
  for (let node = 0; node < lists.size; node++) {
    let total = 0;
    let held = false;
    for (const group of groups) {
      let best = 0;
      for (const { term, weight } of group) {
        if (!(weight > 0)) continue;
        const postings = Array.from({ length: lists.offsets[term + 1]! - lists.offsets[term]! }, (_, i) => lists.offsets[term]! + i);
        const mine = postings.filter((p) => lists.docs[p] === node);
        if (mine.length === 0) continue;
        let tf = 0;
        for (const p of mine) {
          const field = lists.tfs[p]! >>> 12;
          tf += (FIELDS[field]!.weight * (lists.tfs[p]! & 0xfff)) / lists.norms[node * FIELDS.length + field]!;
        }
        const idf = idfOf(lists.size, new Set(postings.map((p) => lists.docs[p])).size);
        best = Math.max(best, (weight * idf * tf) / (1.2 + tf));
        held = true;
      }
      total += best;
    }
    if (held) out.push({ node, score: total });
  }
  return out.sort((a, b) => b.score - a.score || a.node - b.node);
}

/** Counts reads of the posting arrays (the node ids) through a proxy over the restored index. */
function countReads(index: KddIndex): { text: TextIndex; reads: () => number } {
  let reads = 0;
  const target = index.text as unknown as { docs: Uint32Array };
  const docs = new Proxy(target.docs, {
    get(array, key) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
      const value = Reflect.get(array, key, array);
      return typeof value === 'function' ? value.bind(array) : value;
    },
  });
  const text = Object.create(index.text) as TextIndex & { docs: Uint32Array };
  Object.defineProperty(text, 'docs', { value: docs });
  return { text, reads: () => reads };
}
