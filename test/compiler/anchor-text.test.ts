/**
 * Anchor text (compiler/pack/anchor-text.ts): a node is found by what other documents say where they
 * link to it, the `why` of such a hit names the `anchor` field, and anchors are a pure function of the
 * graph (link sentence and alias in, the link's own label out, bounded per target).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile, packCompiled } from '../../compiler/build.js';
import { anchorTexts } from '../../compiler/pack/anchor-text.js';
import type { GraphEdge, GraphNode } from '../../model/graph.js';
import type { KddIndex } from '../../runtime/kdd-index.js';
import { loadIndex } from '../../runtime/load.js';
import { context } from '../../runtime/queries/context.js';
import { tokenize } from '../../runtime/search/tokenizer.js';
import { makeNode } from '../helpers/make-index.js';
import { removeTree, tempTree } from '../helpers/temp-tree.js';

const RULE = `---
id: BR-001
kind: business-rule
title: Appointment overlap
status: draft
---

# BR-001 — Appointment overlap

## Statement

An appointment may not start before the previous appointment of the same vet ends.
`;

const USE_CASE = `---
id: UC-001
kind: use-case
title: Book a visit
status: draft
---

# UC-001 — Book a visit

## Description

The receptionist books a visit for a pet.

## Main Flow

1. The receptionist picks a free time.
2. Nobody is ever double-booked with the same doctor ([[BR-001]]).
3. The visit is confirmed.
`;

const stem = (word: string) => tokenize(word)[0]!;

function edge(from: string, to: string, metadata: Record<string, string> = {}): GraphEdge {
  return { from_node: from, to_node: to, edge_type: 'WIKI_LINK', source_file: `${from}.md`, extraction_method: 'wiki_link', metadata, layer_violation: false, bidirectional: true };
}

function withSections(id: string, sections: Record<string, string>): GraphNode {
  return { ...makeNode(id), sections: Object.entries(sections).map(([heading, text]) => ({ heading, depth: 2, field: null, text })) };
}

describe('anchor text', () => {
  let root: string;
  let index: KddIndex;
  beforeAll(async () => {
    root = await tempTree({ 'specs/01-domain/rules/BR-001.md': RULE, 'specs/02-behavior/use-cases/UC-001.md': USE_CASE });
    index = await loadIndex(packCompiled(await compile({ specsDir: `${root}/specs` })).bytes);
  });
  afterAll(() => removeTree(root));

  it('finds a rule by the words a linking use case uses for it, and says so', () => {
    // Neither word is in the rule's own text: only the use case's link sentence can bring it.
    const hit = context(index, { query_text: 'double-booked doctor', explain: true, expand_graph: false }).results.find((r) => r.node_id === 'BR:BR-001');
    expect(hit).toBeDefined();
    expect(hit!.why!.matched).toContainEqual({ term: stem('doctor'), fields: ['anchor'] });
  });

  it('takes the sentence around the link from the linked section only, without the link label, and the alias', () => {
    const nodes = [
      withSections('BR:BR-001', { Statement: 'Two visits never overlap.' }),
      withSections('UC:UC-001', { Flow: 'The desk checks.\nNobody is double-booked (BR-001-Overlap). Then it prints.', Notes: 'BR-001 again, elsewhere.' }),
    ];
    const [rule, useCase] = anchorTexts(nodes, [edge('UC:UC-001', 'BR:BR-001', { section: 'Flow', display_alias: 'the overlap check' }), edge('BR:BR-001', 'BR:BR-001')]);
    expect(rule!.split(' \n ')).toEqual(['the overlap check', 'Nobody is double-booked ( -Overlap).']);
    expect(useCase).toBe('');
  });

  it('is a pure function of the graph and bounded per target', () => {
    const hub = withSections('Entity:Pet', {});
    const linkers = Array.from({ length: 40 }, (_, i) => withSections(`UC:UC-${100 + i}`, { Flow: `Step ${i} touches the Pet.` }));
    const nodes = [hub, ...linkers];
    const edges = linkers.map((n) => edge(n.id, hub.id, { section: 'Flow' }));
    const first = anchorTexts(nodes, edges);
    expect(anchorTexts(structuredClone(nodes), structuredClone(edges))).toEqual(first);
    expect(first[0]!.split(' \n ')).toHaveLength(24);
  });
});
