/**
 * Snippet sections (runtime/search/snippet.ts): the section picked and the passages planned are
 * those of the straightforward algorithm — every section's distinct terms in order, each query
 * group counted once with its best term weight, groups added in order of first occurrence, ×1.1 for
 * a defining section — whatever the per-node cache holds from earlier queries.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GraphNode } from '../../../model/graph.js';
import { PRIMARY_SECTIONS } from '../../../runtime/search/fields.js';
import { analyzeQuery } from '../../../runtime/search/rank.js';
import { snippetAndSections } from '../../../runtime/search/snippet.js';
import { quickTerms } from '../../../runtime/search/tokenizer.js';
import type { TermAlternative, TextIndex } from '../../../runtime/search/types.js';
import { indexFrom, makeTextNode, WORDS } from './_random-index.js';

const words = (max: number) => fc.array(fc.constantFrom(...WORDS, 'Índice', 'validación', 'capas'), { minLength: 1, maxLength: max }).map((w) => w.join(' '));
const section = fc.tuple(fc.constantFrom<string | null>('description', 'purpose', null, 'notes'), words(30));
const corpus = fc
  .array(fc.tuple(words(3), fc.array(section, { minLength: 1, maxLength: 5 })), { minLength: 1, maxLength: 8 })
  .map((nodes) => indexFrom(nodes.map(([title, sections], i) => makeTextNode(`Entity:N${i}`, 'entity', '01-domain', title, sections)), []));

/** Section scores by the definition (no cache, no term ids). */
function referenceScores(node: GraphNode, groups: readonly (readonly TermAlternative[])[], text: TextIndex): number[] {
  const weight = new Map<string, { group: number; w: number }>();
  groups.forEach((group, g) => {
    for (const alt of group) {
      const df = text.docFrequency(alt.term);
      if (df > 0) weight.set(alt.term, { group: g, w: alt.weight * Math.log(1 + text.size / df) });
    }
  });
  return node.sections.map((s) => {
    const found = new Map<number, { at: number; w: number }>();
    [...new Set(quickTerms(`${s.heading}\n${s.text}`))].forEach((t, at) => {
      const tw = weight.get(t);
      if (!tw) return;
      const seen = found.get(tw.group);
      if (!seen) found.set(tw.group, { at, w: tw.w });
      else seen.w = Math.max(seen.w, tw.w);
    });
    let score = 0;
    for (const { w } of [...found.values()].sort((a, b) => a.at - b.at)) score += w;
    return s.field && PRIMARY_SECTIONS.has(s.field) ? score * 1.1 : score;
  });
}

describe('snippet sections', () => {
  it('picks the section and plans the passages the straightforward algorithm does, cached or not', () => {
    fc.assert(
      fc.property(corpus, fc.array(words(4), { minLength: 1, maxLength: 4 }), (index, queries) => {
        for (const query of queries) {
          const { groups } = analyzeQuery(query);
          index.bundle.nodes.forEach((node) => {
            const scores = referenceScores(node, groups, index.text);
            let best = -1;
            scores.forEach((score, s) => {
              if (score > (best < 0 ? 0 : scores[best]!)) best = s;
            });
            const got = snippetAndSections(node, groups, index.text, 3);
            // A fresh copy of the node misses the per-node cache: the same answer either way.
            expect(snippetAndSections({ ...node }, groups, index.text, 3)).toEqual(got);
            if (best < 0) return expect(got.sections).toEqual([]);
            expect(got.snippet.section).toBe(node.sections[best]!.heading);
            const shownWhole = got.snippet.text === node.sections[best]!.text.replace(/\s+/g, ' ').trim();
            const planned = scores
              .map((score, s) => ({ score, s }))
              .filter(({ score, s }) => score > 0 && node.sections[s]!.text.trim() && !(s === best && shownWhole))
              .sort((a, b) => b.score - a.score || a.s - b.s)
              .slice(0, 3)
              .map(({ s }) => s);
            expect(got.sections).toEqual(planned);
          });
        }
      }),
      { numRuns: 100 },
    );
  });
});
