import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fold, splitCamel, tokenize } from '../../../runtime/search/index.js';
import { RULES, stem } from '../../../runtime/search/stem.js';

describe('tokenize', () => {
  it('folds case and accents', () => {
    expect(fold('Índice Búsqueda FUSIÓN')).toBe('indice busqueda fusion');
    expect(tokenize('Índice')).toEqual(tokenize('indice'));
  });

  it('drops Spanish and English stop words', () => {
    expect(tokenize('el de la the of and')).toEqual([]);
  });

  it('keeps whole ids and their parts', () => {
    expect(tokenize('CMD-004')).toEqual(expect.arrayContaining(['cmd-004', 'cmd', '004']));
    expect(tokenize('BR-DOCUMENT-001')).toEqual(expect.arrayContaining(['br-document-001', 'br-document', 'document']));
    expect(tokenize('Entity:Pedido')).toEqual(expect.arrayContaining(['entity:pedido', 'pedido']));
    expect(tokenize('UC-001-IndexDocument')).toEqual(expect.arrayContaining(['uc-001', 'uc-001-indexdocument', 'index', 'document']));
  });

  it('splits CamelCase names and keeps the joined name', () => {
    expect(splitCamel('KDDDocument')).toEqual(['KDD', 'Document']);
    expect(tokenize('KDDDocument')).toEqual(expect.arrayContaining(['kdddocument', 'kdd', 'document']));
    expect(tokenize('EVT-KDDDocument-Indexed')).toEqual(expect.arrayContaining(['evt-kdddocument-indexed', 'kdd', 'document']));
  });

  it('stems with the first rule, in table order, that leaves enough letters', () => {
    // The rules in one linear pass, as they are written: the stemmer only looks up the few that can match.
    const firstRule = (word: string) => {
      let w = word;
      for (const [suffix, repl] of RULES) {
        if (w.endsWith(suffix) && w.length - suffix.length + repl.length >= 3) {
          if (suffix === 's' && /(?:ss|us|is)$/.test(w)) break;
          w = w.slice(0, w.length - suffix.length) + repl;
          break;
        }
      }
      return w.length > 3 && /[aeo]$/.test(w) ? w.slice(0, -1) : w;
    };
    const suffixes = [...new Set(RULES.flatMap(([suffix]) => [suffix, suffix.slice(1)]))];
    const word = fc
      .tuple(fc.string({ unit: fc.constantFrom('a', 'e', 'i', 'o', 's', 'd', 'r', 'n', 'l', 'y'), minLength: 4, maxLength: 8 }), fc.constantFrom(...suffixes))
      .map(([head, suffix]) => head + suffix);
    fc.assert(
      fc.property(word, (w) => {
        expect(stem(w)).toBe(firstRule(w));
      }),
      { seed: 17, numRuns: 3000 },
    );
  });

  it('splits every word as the CamelCase expression does, one-piece words included', () => {
    const camel = /\p{Lu}+(?!\p{Ll})|\p{Lu}?\p{Ll}+|\p{N}+/gu;
    const word = fc.string({ unit: fc.constantFrom('a', 'z', 'A', 'Z', '0', '9', 'é', 'Ñ', 'ª', '٣', 'ǅ'), maxLength: 8 });
    fc.assert(
      fc.property(word, (w) => {
        expect(splitCamel(w)).toEqual(w.match(camel) ?? [w]);
      }),
      { seed: 17, numRuns: 3000 },
    );
  });

  it('stems inflections of one word to one term, in both languages', () => {
    const same = (words: string[]) => new Set(words.map((w) => tokenize(w)[0])).size;
    expect(same(['indexing', 'indexed', 'indexes', 'index', 'indexación', 'indexar'])).toBe(1);
    expect(same(['rule', 'rules'])).toBe(1);
    expect(same(['regla', 'reglas'])).toBe(1);
    expect(same(['event', 'events', 'evento', 'eventos'])).toBe(1);
    expect(same(['document', 'documents', 'documento', 'documentos'])).toBe(1);
    expect(same(['merge', 'merging', 'merged'])).toBe(1);
  });

  it('never stems ids or numbers', () => {
    expect(stem('004')).toBe('004');
    expect(tokenize('REQ-001')).toContain('req-001');
  });
});
