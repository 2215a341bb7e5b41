import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compile, packCompiled } from '../../compiler/pipeline.js';
import { KDD_ENGINE_SPECS } from '../helpers/temp-tree.js';

const present = existsSync(KDD_ENGINE_SPECS);
if (!present) console.warn(`kdd-engine corpus not found at ${KDD_ENGINE_SPECS}: corpus tests skipped`);

describe.skipIf(!present)('the kdd-engine corpus (v1, Spanish)', () => {
  it('turns every file into a node with no warnings, and keeps the PRD dangling links', async () => {
    const result = await compile({ specsDir: KDD_ENGINE_SPECS });
    expect(result.files).toBe(54);
    expect(result.graph.nodes).toHaveLength(54);
    expect(result.graph.nodes.filter((n) => n.kind === 'feature')).toHaveLength(8);
    expect(result.warnings).toEqual([]);
    expect(new Set(result.graph.dangling.map((d) => d.from_node))).toEqual(new Set(['PRD:PRD-KDDEngine']));
    const pairs = new Set(result.graph.layer_violations.map((v) => `${v.from_node}>${v.to_node}`));
    expect(pairs.size).toBe(23);
    expect(pairs).toContain('Entity:RetrievalQuery>QRY:QRY-001');
    expect(pairs).toContain('BR:BR-MERGE-001>CMD:CMD-004');
  });

  it('is deterministic: two compiles pack to the same bytes', async () => {
    const [a, b] = await Promise.all([compile({ specsDir: KDD_ENGINE_SPECS }), compile({ specsDir: KDD_ENGINE_SPECS })]);
    expect(packCompiled(a).hash).toBe(packCompiled(b).hash);
  });
});
