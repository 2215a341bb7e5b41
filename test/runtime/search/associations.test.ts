/**
 * Term associations learned from the corpus (runtime/search/associations.ts): what is learned from
 * a chunk index (npmi over shared chunks, words only, common words left out, strongest first),
 * that it round-trips and refuses malformed data, how a query concept takes its associates, and
 * that a packed bundle carries them and `why` names them.
 */
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile, packCompiled } from '../../../compiler/build.js';
import { decodeBundle, encodeBundle } from '../../../formats/bundle/bundle.js';
import { newPackr } from '../../../formats/msgpack.js';
import { loadIndex } from '../../../runtime/load.js';
import { context } from '../../../runtime/queries/context.js';
import { ASSOCIATE_WEIGHT, MAX_CHUNK_SHARE, MIN_STRENGTH, PER_TERM, buildAssociations, restoreAssociations, withAssociates, type Associations } from '../../../runtime/search/associations.js';
import { assembleChunkIndex } from '../../../runtime/search/chunk-index.js';
import type { TermAlternative, TextIndex } from '../../../runtime/search/types.js';

const SHOP = fileURLToPath(new URL('../../fixtures/shop', import.meta.url));

/** A chunk index whose chunk i holds the words `chunks[i]` (tf 1 each). */
function chunkIndexOf(chunks: readonly (readonly string[])[]) {
  const terms = [...new Set(chunks.flat())];
  const id = new Map(terms.map((t, i) => [t, i]));
  return assembleChunkIndex(chunks.map((words) => [...new Set(words)].flatMap((w) => [id.get(w)!, 1])), terms);
}

/** Every (word, associate, strength) of restored associations, in term order. */
function triples(serialized: ReturnType<typeof buildAssociations>): [string, string, number][] {
  const restored = restoreAssociations(serialized);
  const terms = serialized.terms === '' ? [] : serialized.terms.split('\n');
  return terms.flatMap((t) => restored.of(t).map((a): [string, string, number] => [t, a.term, a.weight]));
}

// 40 chunks: "overlap" and "booking" always together (twice); "slot" once with them; fillers once each.
const FILLERS = Array.from({ length: 36 }, (_, i) => `filler${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`);
const CHUNKS: string[][] = [['overlap', 'booking', 'br-001'], ['overlap', 'booking', 'slot', '2024'], ...FILLERS.map((w) => [w, 'common']), ['common'], ['common']];

describe('buildAssociations', () => {
  it('links words that share chunks, with npmi as strength (1 = always together)', () => {
    const assoc = restoreAssociations(buildAssociations(chunkIndexOf(CHUNKS)));
    expect(assoc.of('overlap')).toEqual([
      { term: 'booking', weight: 1 },
      { term: 'slot', weight: Math.round(((Math.log((40 * 1) / (2 * 1)) / -Math.log(1 / 40)) * 0xffff)) / 0xffff },
    ]);
    expect(assoc.of('booking').map((a) => a.term)).toEqual(['overlap', 'slot']);
  });

  it('leaves out ids, numbers and words found in more than a tenth of the chunks', () => {
    const serialized = buildAssociations(chunkIndexOf(CHUNKS));
    const terms = serialized.terms.split('\n');
    expect(terms).not.toContain('br-001');
    expect(terms).not.toContain('2024');
    expect(terms).not.toContain('common');
    expect(restoreAssociations(serialized).of('fillera')).toEqual([]);
  });

  it('is deterministic and survives msgpack (same chunks, same bytes)', () => {
    const a = buildAssociations(chunkIndexOf(CHUNKS));
    const b = buildAssociations(chunkIndexOf(CHUNKS));
    expect(newPackr().pack(a)).toEqual(newPackr().pack(b));
    const restored = restoreAssociations(newPackr().unpack(newPackr().pack(a)));
    expect(restored.of('overlap')).toEqual(restoreAssociations(a).of('overlap'));
  });

  it('keeps, for random corpora, only the strongest associations of words that share a chunk (property)', () => {
    const word = fc.constantFrom<string>('alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'theta', 'kappa', 'lambda', 'sigma', 'omega', 'rho');
    const corpus = fc.array(fc.array(word, { minLength: 1, maxLength: 5 }), { minLength: 10, maxLength: 60 });
    fc.assert(
      fc.property(corpus, (chunks) => {
        const n = chunks.length;
        const df = (w: string) => chunks.filter((c) => c.includes(w)).length;
        const both = (a: string, b: string) => chunks.filter((c) => c.includes(a) && c.includes(b)).length;
        const eligible = (w: string) => df(w) <= Math.max(1, Math.floor(n * MAX_CHUNK_SHARE));
        const found = triples(buildAssociations(chunkIndexOf(chunks)));
        const perWord = new Map<string, number[]>();
        for (const [a, b, strength] of found) {
          expect(a).not.toBe(b);
          expect(eligible(a) && eligible(b)).toBe(true);
          const c = both(a, b);
          expect(c).toBeGreaterThan(0);
          const npmi = c === n ? 1 : Math.log((n * c) / (df(a) * df(b))) / -Math.log(c / n);
          expect(Math.abs(strength - Math.min(1, npmi))).toBeLessThanOrEqual(1 / 0xffff);
          expect(strength).toBeGreaterThanOrEqual(MIN_STRENGTH - 1 / 0xffff);
          perWord.set(a, [...(perWord.get(a) ?? []), strength]);
        }
        for (const strengths of perWord.values()) {
          expect(strengths.length).toBeLessThanOrEqual(PER_TERM);
          expect([...strengths].sort((x, y) => y - x)).toEqual(strengths);
        }
      }),
      { seed: 20, numRuns: 60 },
    );
  });
});

describe('restoreAssociations', () => {
  const good = () => buildAssociations(chunkIndexOf(CHUNKS));
  it('refuses a foreign format and arrays that do not match their terms', () => {
    expect(() => restoreAssociations({ format: 'other' })).toThrow(/unsupported term associations/);
    expect(() => restoreAssociations({ ...good(), offsets: good().offsets.subarray(4) })).toThrow(/do not match/);
    expect(() => restoreAssociations({ ...good(), strengths: new Uint8Array(0) })).toThrow(/do not match/);
    const wild = good();
    wild.targets = new Uint8Array(wild.targets.length).fill(0xff);
    expect(() => restoreAssociations(wild).of('overlap')).toThrow(/do not hold/);
  });
});

describe('withAssociates', () => {
  const assoc: Associations = {
    of: (term) => ({ overlap: [{ term: 'booking', weight: 1 }, { term: 'slot', weight: 0.6 }], reserva: [{ term: 'slot', weight: 1 }] })[term] ?? [],
  };
  const text = (df: Record<string, number>): Pick<TextIndex, 'associates' | 'docFrequency' | 'size'> => ({ size: 100, docFrequency: (t) => df[t] ?? 0, associates: (t) => assoc.of(t) });
  const idf = (df: number) => Math.log(1 + (100 - df + 0.5) / (df + 0.5));

  it('adds a concept\'s associates to its own group, weighted and marked, never a word the query holds', () => {
    const groups: TermAlternative[][] = [[{ term: 'overlap', weight: 1 }], [{ term: 'booking', weight: 1 }]];
    const out = withAssociates(groups, text({ overlap: 5, booking: 5, slot: 5 }));
    expect(out).toEqual([[{ term: 'overlap', weight: 1 }, { term: 'slot', weight: ASSOCIATE_WEIGHT * 0.6, associated: true }], [{ term: 'booking', weight: 1 }]]);
    expect(groups[0]).toHaveLength(1); // input untouched
  });

  it('takes associates of translations too, scaled by their weight; the largest weight wins', () => {
    const out = withAssociates([[{ term: 'overlap', weight: 1 }, { term: 'reserva', weight: 0.6 }]], text({ overlap: 5, reserva: 5, booking: 5, slot: 5 }));
    expect(out[0]!.slice(2)).toEqual([
      { term: 'booking', weight: ASSOCIATE_WEIGHT, associated: true },
      { term: 'slot', weight: ASSOCIATE_WEIGHT * 0.6, associated: true },
    ]);
  });

  it('lets a common word lend a rarer associate no more than its own idf', () => {
    const out = withAssociates([[{ term: 'overlap', weight: 1 }]], text({ overlap: 40, booking: 2, slot: 40 }));
    expect(out[0]![1]).toEqual({ term: 'booking', weight: ASSOCIATE_WEIGHT * (idf(40) / idf(2)), associated: true });
  });
});

describe('a packed bundle', () => {
  it('carries the associations; a query reaches a node by an associate and why says so', async () => {
    const bytes = packCompiled(await compile({ specsDir: SHOP })).bytes;
    const index = await loadIndex(bytes);
    const hits = context(index, { query_text: 'invariant', explain: true }).results;
    const byAssociation = hits.filter((hit) => hit.why!.matched.some((m) => m.associated));
    expect(byAssociation.length).toBeGreaterThan(0);
    for (const hit of byAssociation) {
      const m = hit.why!.matched.find((x) => x.associated)!;
      expect(m.expanded_from).toBe('invariant');
      expect(index.text.fieldsOf('invariant', index.nodeIndex.get(hit.node_id)!)).toEqual([]);
    }
  });

  it('without associations (packed before them) loads and ranks without expansion; corrupt ones are refused', async () => {
    const bundle = decodeBundle(packCompiled(await compile({ specsDir: SHOP })).bytes, { lazy: false });
    const { associations, ...older } = bundle;
    const old = await loadIndex(encodeBundle(older));
    expect(context(old, { query_text: 'invariant', explain: true }).results.some((hit) => hit.why!.matched.some((m) => m.associated))).toBe(false);
    const corrupt = encodeBundle({ ...older, associations: { ...(associations as object), offsets: new Uint8Array(3) } });
    await expect(loadIndex(corrupt)).rejects.toMatchObject({ code: 'INDEX_UNAVAILABLE' });
  });
});
