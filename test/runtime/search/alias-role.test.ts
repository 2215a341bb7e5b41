/**
 * The role of an alias (runtime/search/alias-role.ts): a form of the name, another language's name, or
 * an everyday word of the document's own language; and the language knowledge it reads (stop words,
 * the two sides of the bilingual vocabulary).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aliasRole, textLanguage, wordLanguages } from '../../../runtime/search/alias-role.js';
import { nodeAliasRoles } from '../../../runtime/search/fields.js';
import { languagesOf, translationsOf, type Language } from '../../../runtime/search/lexicon.js';
import { ENGLISH_STOP_WORDS, SPANISH_STOP_WORDS } from '../../../runtime/search/stopwords.js';
import { fold, tokenize } from '../../../runtime/search/tokenizer.js';
import { GENERAL_VOCABULARY } from '../../../runtime/search/vocabulary.js';
import { makeTextNode } from './_random-index.js';

const ENGLISH = 'The vet sees the animal when the owner brings it to the clinic, and writes what was done.';
const SPANISH = 'El socio recoge el libro en la sucursal y lo devuelve cuando vence el plazo del préstamo.';
const names = (text: string) => new Set(tokenize(text));
const sides = GENERAL_VOCABULARY.map((line) => line.split('|').map((side) => side.split(/\s+/).filter(Boolean)) as [string[], string[]]);
const only = (language: Language) => (word: string) => {
  const languages = wordLanguages(word);
  return languages.size === 1 && languages.has(language);
};
const englishOnly = [...new Set(sides.flatMap(([en]) => en))].filter(only('en'));
const spanishOnly = [...new Set(sides.flatMap(([, es]) => es))].filter(only('es'));
const bothLanguages = [...new Set(sides.flatMap(([en]) => en))].filter((w) => wordLanguages(w).size === 2);

describe('the language of a text and of a word', () => {
  it('reads a text by the stop words only one language has', () => {
    expect(textLanguage(ENGLISH)).toBe('en');
    expect(textLanguage(SPANISH)).toBe('es');
    expect(textLanguage('Pedido Order 42')).toBeNull();
    // "me" and "no" are on both lists: they tell nothing.
    expect(textLanguage('no me')).toBeNull();
  });

  it('follows whichever language has more exclusive stop words', () => {
    const es = [...SPANISH_STOP_WORDS].filter((w) => !ENGLISH_STOP_WORDS.has(w));
    const en = [...ENGLISH_STOP_WORDS].filter((w) => !SPANISH_STOP_WORDS.has(w));
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...es), { maxLength: 12 }), fc.array(fc.constantFrom(...en), { maxLength: 12 }), fc.array(fc.constantFrom('pedido', 'order', 'item', '42')), (esWords, enWords, neutral) => {
        const text = [...esWords, ...neutral, ...enWords].join(' ');
        const expected = esWords.length > enWords.length ? 'es' : enWords.length > esWords.length ? 'en' : null;
        expect(textLanguage(text)).toBe(expected);
      }),
      { seed: 20, numRuns: 300 },
    );
  });

  it('takes a word from its accents, its stop-word list, or its side of the vocabulary', () => {
    expect([...wordLanguages('Categoría')]).toEqual(['es']);
    expect([...wordLanguages('de')]).toEqual(['es']);
    expect([...wordLanguages('of')]).toEqual(['en']);
    expect([...wordLanguages('Pedido')]).toEqual(['es']);
    expect([...wordLanguages('Payment')]).toEqual(['en']);
    expect([...wordLanguages('Doctor')].sort()).toEqual(['en', 'es']);
    expect([...wordLanguages('total')].sort()).toEqual(['en', 'es']);
    expect(wordLanguages('xyzzy').size).toBe(0);
  });

  it('has every vocabulary line written `english | spanish`, and every word a language', () => {
    for (const line of GENERAL_VOCABULARY) expect(line.split('|'), line).toHaveLength(2);
    for (const [en, es] of sides) {
      for (const word of en) expect(languagesOf(fold(word)).has('en'), word).toBe(true);
      for (const word of es) expect(languagesOf(fold(word)).has('es'), word).toBe(true);
    }
  });

  it('translates a word to the stems on the other side of its lines, both ways', () => {
    expect(translationsOf(tokenize('pedido')[0]!, 'es')).toContain(tokenize('order')[0]);
    expect(translationsOf(tokenize('order')[0]!, 'en')).toContain(tokenize('pedido')[0]);
    // Read in its own language a word has no translation from that language's side.
    expect(translationsOf(tokenize('pedido')[0]!, 'en').size).toBe(0);
  });
});

describe('aliasRole', () => {
  it('keeps a form of the name, and another language’s name, with the title', () => {
    expect(aliasRole('Shopping cart', names('Entity:Cart Cart'), 'en')).toBe('name');
    expect(aliasRole('Pedido', names('Entity:Order Order'), 'en')).toBe('translation');
    expect(aliasRole('Payment gateway', names('Entity:PASARELAPAGOS PASARELAPAGOS'), 'es')).toBe('translation');
    // A word of the document's language that translates a word of the title.
    expect(aliasRole('Consulta', names('Entity:RetrievalQuery RetrievalQuery'), 'es')).toBe('translation');
  });

  it("sends an everyday word of the document's own language to the alias field", () => {
    expect(aliasRole('Doctor', names('Entity:Veterinarian Veterinarian'), 'en')).toBe('everyday');
    expect(aliasRole('Buyer', names('Entity:Customer Customer'), 'en')).toBe('everyday');
    expect(aliasRole('Lista de espera', names('Entity:Reserva Reserva'), 'es')).toBe('everyday');
  });

  it('leaves an alias with the title when the document has no language', () => {
    expect(aliasRole('Doctor', names('Entity:Veterinarian Veterinarian'), null)).toBe('unknown');
  });

  it('reads a word of both languages as a word of the document: never a translation on its own', () => {
    const title = names('Entity:Widget Widget');
    fc.assert(
      fc.property(fc.constantFrom(...bothLanguages), fc.constantFrom<Language>('en', 'es'), (word, language) => {
        const translatesTitle = tokenize(word).some((t) => [...translationsOf(t, language)].some((s) => title.has(s)));
        expect(translatesTitle).toBe(false);
        expect(aliasRole(word, title, language)).toBe('everyday');
      }),
      { seed: 20, numRuns: 200 },
    );
  });

  it("makes an alias of the other language's words a translation, and of the document's own an everyday word", () => {
    const title = names('Entity:Widget Widget');
    fc.assert(
      fc.property(fc.constantFrom(...englishOnly), fc.constantFrom(...spanishOnly), (en, es) => {
        expect(aliasRole(en, title, 'es')).toBe('translation');
        expect(aliasRole(es, title, 'en')).toBe('translation');
        expect(aliasRole(en, title, 'en')).toBe('everyday');
        expect(aliasRole(es, title, 'es')).toBe('everyday');
      }),
      { seed: 20, numRuns: 300 },
    );
  });

  it('calls any alias that repeats a title or id word a form of the name, whatever its language', () => {
    fc.assert(
      fc.property(fc.constantFrom(...englishOnly, ...spanishOnly, ...bothLanguages), fc.constantFrom<Language | null>('en', 'es', null), (word, language) => {
        expect(aliasRole(`${word} widget`, names(`Entity:${word} ${word}`), language)).toBe('name');
      }),
      { seed: 20, numRuns: 200 },
    );
  });

  it("reads a node's language from its own sections", () => {
    const vet = { ...makeTextNode('Entity:Veterinarian', 'entity', '01-domain', 'Veterinarian', [['description', ENGLISH]]), aliases: ['Doctor', 'Veterinario', 'Vet on call'] };
    expect(nodeAliasRoles(vet)).toEqual([
      { alias: 'Doctor', role: 'everyday' },
      { alias: 'Veterinario', role: 'translation' },
      { alias: 'Vet on call', role: 'everyday' },
    ]);
    const socio = { ...makeTextNode('Entity:Socio', 'entity', '01-domain', 'Socio', [['description', SPANISH]]), aliases: ['Member', 'Lector', 'Socia'] };
    expect(nodeAliasRoles(socio)).toEqual([
      { alias: 'Member', role: 'translation' },
      { alias: 'Lector', role: 'everyday' },
      { alias: 'Socia', role: 'name' },
    ]);
  });
});
