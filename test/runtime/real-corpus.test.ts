/** Queries on the real kdd-engine corpus, compiled and packed by the real pipeline. */
import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { KddIndex } from '../../runtime/kdd-index.js';
import { loadIndex } from '../../runtime/load.js';
import { coverage } from '../../runtime/queries/coverage.js';
import { graph } from '../../runtime/queries/graph.js';
import { impact } from '../../runtime/queries/impact.js';
import { violations } from '../../runtime/queries/violations.js';
import { KDD_ENGINE_SPECS } from '../helpers/temp-tree.js';

const SPECS = KDD_ENGINE_SPECS;
const present = existsSync(SPECS);

describe.skipIf(!present)('queries on the kdd-engine corpus', () => {
  let index: KddIndex;
  beforeAll(async () => {
    const { compile, packCompiled } = await import('../../compiler/pipeline.js');
    index = await loadIndex(packCompiled(await compile({ specsDir: SPECS })).bytes);
  }, 60_000);

  it('impact of Entity:KDDDocument includes the rules, commands, events and use cases that reference it', () => {
    const result = impact(index, { node_id: 'Entity:KDDDocument' });
    const direct = new Map(result.directly_affected.map((n) => [n.id, n.edge_type]));
    expect(direct.get('BR:BR-DOCUMENT-001')).toBe('ENTITY_RULE');
    expect(direct.get('CMD:CMD-001')).toBe('WIKI_LINK');
    expect(direct.has('EVT:EVT-KDDDocument-Detected')).toBe(true);
    expect(direct.has('UC:UC-001')).toBe(true);
    const kinds = new Set(result.directly_affected.map((n) => n.kind));
    for (const kind of ['business-rule', 'command', 'event', 'use-case']) expect(kinds).toContain(kind);
    expect(result.scenarios_to_rerun.some((s) => s.scenario === 'SCN-RetrieveImpact-001')).toBe(true);
  });

  it('graph, coverage and violations answer on the real index', () => {
    const g = graph(index, { root_node: 'Entity:KDDDocument', depth: 1, edge_types: ['ENTITY_RULE'] });
    expect(g.related_nodes.map((n) => n.id)).toContain('BR:BR-DOCUMENT-001');
    const c = coverage(index, { node_id: 'Entity:KDDDocument' });
    expect(c.required.find((r) => r.category === 'events')?.status).toBe('covered');
    const v = violations(index);
    expect(v.total_violations).toBe(index.bundle.layer_violations.length);
    expect(v.total_edges_analyzed).toBe(index.bundle.edges.length);
  });
});
