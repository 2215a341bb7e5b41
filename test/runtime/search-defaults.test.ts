import { beforeAll, describe, expect, it } from 'vitest';
import { compile, packCompiled } from '../../compiler/pipeline.js';
import type { KddIndex } from '../../runtime/kdd-index.js';
import { loadIndex } from '../../runtime/load.js';
import { search, SEARCH_DEFAULTS } from '../../runtime/queries/search.js';
import { FIXTURES } from '../helpers/temp-tree.js';

let index: KddIndex;
beforeAll(async () => {
  index = await loadIndex(packCompiled(await compile({ specsDir: `${FIXTURES}kinds` })).bytes);
});

describe('search at L1', () => {
  it('applies the lexical default min_score, not the cosine one, and says it fell back', () => {
    const result = search(index, { query_text: 'pedido confirmado' });
    expect(result.retrieval_strategy).toBe('lexical');
    expect(result.warnings.map((w) => w.code)).toEqual(['NO_EMBEDDINGS']);
    expect(result.results.every((hit) => hit.score >= SEARCH_DEFAULTS.lexical_min_score)).toBe(true);
    expect(result.results.some((hit) => hit.score < SEARCH_DEFAULTS.min_score)).toBe(true);
  });

  it('an explicit min_score still wins', () => {
    const result = search(index, { query_text: 'pedido confirmado', min_score: 0.9 });
    expect(result.results.every((hit) => hit.score >= 0.9)).toBe(true);
  });
});
