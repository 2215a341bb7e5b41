/**
 * Everyday phrasings of a requirement (runtime/search/idioms.ts): each one, in either language and any
 * inflection, adds its concepts to the query as one weighted group that says which phrasing it came
 * from; the data stems consistently and names nothing of the evaluation corpora.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile, packCompiled } from '../../../compiler/pipeline.js';
import { loadIndex } from '../../../runtime/load.js';
import { context } from '../../../runtime/queries/context.js';
import { REQUIREMENT_IDIOMS } from '../../../runtime/search/idioms.js';
import { alternativesOf, idiomGroups } from '../../../runtime/search/lexicon.js';
import { analyzeQuery } from '../../../runtime/search/rank.js';
import { fold, tokenize } from '../../../runtime/search/tokenizer.js';

const none = new Set<string>();
const stem = (word: string) => tokenize(word)[0]!;
/** A phrasing as someone would type it: a gap filled with one word. */
const typed = (phrasing: string) => phrasing.replaceAll('…', 'the');
const conceptsOf = (text: string) => idiomGroups(text, none).map((group) => group.map((alt) => alt.term).sort());

describe('requirement idioms', () => {
  it('has phrasings in both languages and concept words that stem to one index term each', () => {
    for (const { en, es, means } of REQUIREMENT_IDIOMS) {
      expect(en.length, means).toBeGreaterThan(0);
      expect(es.length, means).toBeGreaterThan(0);
      for (const word of means.split(/\s+/)) expect(tokenize(word), `${means}: ${word}`).toHaveLength(1);
    }
  });

  it('gives every phrasing of an entry, English or Spanish, the same one group of concepts', () => {
    for (const { en, es, means } of REQUIREMENT_IDIOMS) {
      const expected = conceptsOf(typed(en[0]!));
      expect(expected, means).toHaveLength(1);
      for (const word of means.split(/\s+/)) expect(expected[0], means).toContain(stem(word));
      for (const phrasing of [...en, ...es]) expect(conceptsOf(typed(phrasing)), phrasing).toEqual(expected);
    }
  });

  it('finds a phrasing wherever it sits in a question (property)', () => {
    const filler = fc.array(fc.constantFrom('customer', 'cliente', 'pedido', 'report', 'why', 'el', 'the'), { maxLength: 4 });
    fc.assert(
      fc.property(fc.constantFrom(...REQUIREMENT_IDIOMS), fc.boolean(), filler, filler, (idiom, spanish, before, after) => {
        const phrasing = (spanish ? idiom.es : idiom.en)[0]!;
        const question = [...before, typed(phrasing), ...after].join(' ');
        expect(conceptsOf(question), question).toEqual(conceptsOf(typed(idiom.en[0]!)));
      }),
      { seed: 20, numRuns: 300 },
    );
  });

  it('weighs a concept below a translation, its own translations lower still, and names the phrasing', () => {
    const [group] = idiomGroups('I want my money back', none);
    expect(group).toContainEqual({ term: stem('refund'), weight: 0.5, from: 'money back' });
    for (const alt of group!) {
      expect(alt.weight).toBeLessThan(0.6);
      expect(alt.from).toBe('money back');
    }
    const overlap = idiomGroups('two bookings at the same time', none)[0]!;
    const spanish = alternativesOf(stem('overlap')).find((alt) => alt.term === stem('solapan'))!;
    expect(overlap).toContainEqual({ term: stem('solapan'), weight: 0.5 * spanish.weight, from: 'same time' });
  });

  it('matches inflected forms, accents, apostrophes and a gap of up to three words', () => {
    expect(conceptsOf('the customer FORGOT her password')).toEqual(conceptsOf('forget password'));
    expect(conceptsOf('se me olvidó la contraseña')).toEqual(conceptsOf('forget password'));
    expect(conceptsOf("I can't log in")).toEqual(conceptsOf('forget password'));
    expect(conceptsOf('let the new customer know')).toEqual(conceptsOf('let me know'));
    expect(conceptsOf('let the new shop customer know')).toEqual([]);
    expect(conceptsOf('a booking that overlaps')).toEqual([]);
  });

  it('prefers the longer phrasing and leaves out concepts the query already has', () => {
    expect(conceptsOf('import them all at once')).toEqual(conceptsOf('in bulk'));
    expect(conceptsOf('two visits at once')).toEqual(conceptsOf('same time'));
    const covered = new Set(analyzeQuery('overlap').groups.flat().map((alt) => alt.term));
    const [group] = idiomGroups('overlap at the same time', covered);
    expect(group!.map((alt) => alt.term)).not.toContain(stem('overlap'));
    expect(group!.map((alt) => alt.term)).toContain(stem('conflict'));
  });

  it('covers the everyday needs of common business domains in both languages', () => {
    const conceptOf = (text: string) => conceptsOf(text).flat();
    const cases: [string, string][] = [
      ['my card was declined at checkout', 'declined'],
      ['la tarjeta rechazada otra vez', 'declined'],
      ['the tenant wants to get my deposit back', 'fianza'],
      ['who is on call tonight', 'oncall'],
      ['what to do when the machine stopped', 'downtime'],
      ['cuantos dias me quedan de vacaciones', 'vacation'],
      ['the parcel never arrived', 'tracking'],
      ['el paquete no ha llegado', 'tracking'],
    ];
    for (const [question, concept] of cases) expect(conceptOf(question), question).toContain(stem(concept));
    // A longer phrasing of a domain wins over the general one inside it: "charged twice" is a disputed
    // charge, not only a duplicate.
    expect(conceptsOf('I was charged twice')).toEqual(conceptsOf('double charged'));
  });

  it('joins the query analysis as one more concept, never as a typed word', () => {
    const analysis = analyzeQuery('how do I get my money back?');
    expect(analysis.terms).not.toContain(stem('refund'));
    expect(analysis.groups.at(-1)).toContainEqual(expect.objectContaining({ term: stem('refund'), from: 'money back' }));
  });

  it('says in `why` which phrasing a matched concept stands for', async () => {
    const shop = await loadIndex(packCompiled(await compile({ specsDir: fileURLToPath(new URL('../../fixtures/shop', import.meta.url)) })).bytes);
    const hit = context(shop, { query_text: 'how can a customer pay less', explain: true }).results.find((r) => r.node_id === 'BR:BR-PEDIDO-001')!;
    expect(hit.why!.matched).toContainEqual(expect.objectContaining({ term: stem('descuento'), expanded_from: 'pay less' }));
  });

  it('names no document of the evaluation corpora: no phrasing is or holds a title or file name, no concept is an id', () => {
    const root = fileURLToPath(new URL('../../../bench/eval/corpora', import.meta.url));
    const names = new Set<string>();
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith('.md')) {
          names.add(fold(basename(entry.name, '.md')));
          const text = readFileSync(path, 'utf8');
          for (const m of text.matchAll(/^(?:title|id):\s*(.+)$|^# (.+)$/gm)) names.add(fold((m[1] ?? m[2]!).trim()));
        }
      }
    };
    walk(root);
    expect(names.size).toBeGreaterThan(150);
    const multiWord = [...names].filter((name) => /\s/.test(name));
    for (const { en, es, means } of REQUIREMENT_IDIOMS) {
      for (const phrasing of [...en, ...es]) {
        const folded = fold(phrasing);
        expect(names.has(folded), phrasing).toBe(false);
        for (const title of multiWord) expect(folded.includes(title), `${phrasing} ⊃ ${title}`).toBe(false);
      }
      // Concept words are general words (letters only), never an id such as BR-003 or Entity:Pet.
      for (const word of means.split(/\s+/)) expect(fold(word), means).toMatch(/^[a-z]+$/);
    }
  });
});
