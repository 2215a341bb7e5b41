import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runsWithin } from '../../compiler/pack/shards.js';

describe('runsWithin (site shard cutting)', () => {
  it('keeps the order, stays within the budget unless one item alone exceeds it, and starts a run only when the next item would not fit', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 50 })), fc.integer({ min: 1, max: 80 }), (sizes, budget) => {
        const runs = runsWithin(sizes.keys(), (i) => sizes[i]!, budget);
        expect(runs.flat()).toEqual([...sizes.keys()]);
        const total = (run: number[]) => run.reduce((sum, i) => sum + sizes[i]!, 0);
        for (const [r, run] of runs.entries()) {
          expect(run.length).toBeGreaterThan(0);
          if (run.length > 1) expect(total(run)).toBeLessThanOrEqual(budget);
          const next = runs[r + 1];
          if (next) expect(total(run) + sizes[next[0]!]!).toBeGreaterThan(budget);
        }
      }),
      { seed: 1, numRuns: 300 },
    );
  });
});
