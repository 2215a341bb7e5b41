/**
 * QRY-003 `context` must answer exactly as before the query-time optimisations (per-index edge
 * table in expand.ts, cached snippet data, memoised token estimates, partial sorts in fuse.ts):
 * ~50 varied queries on the kdd-engine corpus and the fixtures, compared with a snapshot of the
 * outputs written before those changes (test/runtime/context-regression.cases.ts --write). Rewritten
 * only when the answer changes on purpose: when `passages` replaced `indexed_fields`, every id,
 * score, snippet and edge stayed as it was (checked case by case before writing); when the title-word
 * bonus was scaled to the question's length, one case's scores moved and its order did not.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { KddIndex } from '../../runtime/kdd-index.js';
import type { ContextParams } from '../../runtime/queries/context.js';
import { indexes, outputOf, SNAPSHOT } from './context-regression.cases.js';

interface Stored {
  corpus: string;
  params: ContextParams;
  output: unknown;
}

const stored = JSON.parse(readFileSync(SNAPSHOT, 'utf8')) as Stored[];

describe('context regression snapshot', () => {
  let byCorpus: Map<string, KddIndex>;
  beforeAll(async () => {
    byCorpus = await indexes();
  }, 60_000);

  it('holds about 50 cases over the kdd-engine corpus and the fixtures', () => {
    expect(stored.length).toBeGreaterThanOrEqual(45);
    expect(new Set(stored.map((c) => c.corpus))).toEqual(new Set(['kdd-engine', 'shop', 'multi-domain', 'kinds']));
  });

  it('answers every stored query exactly as the snapshot, twice (caches warm and cold)', () => {
    let compared = 0;
    for (const round of [0, 1]) {
      for (const c of stored) {
        const index = byCorpus.get(c.corpus);
        if (!index) continue; // kdd-engine corpus not present on this machine
        expect(outputOf(index, c.params), `${round}: ${c.corpus} ${JSON.stringify(c.params)}`).toEqual(c.output);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(0);
  });

  it('gives the same answers in reverse order (no state leaks between queries)', () => {
    for (const c of [...stored].reverse()) {
      const index = byCorpus.get(c.corpus);
      if (index) expect(outputOf(index, c.params)).toEqual(c.output);
    }
  });
});
