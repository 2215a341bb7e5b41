import { describe, expect, it } from 'vitest';
import { newProblems, type Problem } from '../../compiler/check/problems.js';

const problem = (over: Partial<Problem>): Problem => ({
  rule_id: 'BR-LAYER-001',
  category: 'violations',
  severity: 'error',
  file: 'a.md',
  line: 1,
  column: 1,
  message: 'm',
  node_id: 'Entity:A',
  target: 'UC:UC-001 WIKI_LINK',
  key: 'BR-LAYER-001|Entity:A|UC:UC-001 WIKI_LINK',
  ...over,
});

describe('newProblems (kdd check --base)', () => {
  it('matches graph problems by key, whatever their line', () => {
    const moved = problem({ line: 40 });
    const added = problem({ target: 'UC:UC-002 WIKI_LINK', key: 'BR-LAYER-001|Entity:A|UC:UC-002 WIKI_LINK' });
    expect(newProblems([moved, added], [problem({})], { head: { 'a.md': 'h2' }, base: { 'a.md': 'h1' } })).toEqual([added]);
  });

  it('a warning problem the base cannot know is old only while its file is unchanged; a skipped file is new', () => {
    const duplicate = problem({ rule_id: 'KDD-DUPLICATE-ID', category: 'duplicates', file: 'b.md', node_id: null, target: 'DUPLICATE_ID', key: 'KDD-DUPLICATE-ID|b.md|DUPLICATE_ID' });
    const skipped = problem({ rule_id: 'KDD-SKIPPED-DOCUMENT', category: 'skipped', file: 'c.md', node_id: null, target: 'INVALID_FRONT_MATTER', key: 'KDD-SKIPPED-DOCUMENT|c.md|INVALID_FRONT_MATTER' });
    expect(newProblems([duplicate, skipped], [], { head: { 'b.md': 'same' }, base: { 'b.md': 'same' } })).toEqual([skipped]);
    expect(newProblems([duplicate], [], { head: { 'b.md': 'edited' }, base: { 'b.md': 'same' } })).toEqual([duplicate]);
    expect(newProblems([skipped], [skipped], { head: {}, base: {} })).toEqual([]);
  });
});
