/** A verb listed once, by its infinitive, is recognised in the forms a question conjugates it in. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { englishVerbForms, spanishVerbForms } from '../../../runtime/search/verb-forms.js';

describe('verb forms', () => {
  it('conjugates a regular Spanish verb of each conjugation in every person, tense and participle', () => {
    const eliminar = spanishVerbForms('eliminar');
    for (const form of ['eliminar', 'elimino', 'elimina', 'eliminamos', 'eliminan', 'elimine', 'eliminen', 'eliminaron', 'eliminaba', 'eliminara', 'eliminaria', 'eliminando', 'eliminado', 'eliminadas']) {
      expect(eliminar, form).toContain(form);
    }
    for (const form of ['subimos', 'suben', 'subio', 'subieron', 'subiera', 'subido', 'subiendo', 'suba']) expect(spanishVerbForms('subir'), form).toContain(form);
    for (const form of ['cede', 'cedemos', 'cedio', 'cedido', 'cederan']) expect(spanishVerbForms('ceder'), form).toContain(form);
  });

  it('keeps the sound of the root where Spanish spelling changes it', () => {
    expect(spanishVerbForms('modificar')).toEqual(expect.arrayContaining(['modifique', 'modifiquemos', 'modifica']));
    expect(spanishVerbForms('modificar')).not.toContain('modifice');
    expect(spanishVerbForms('actualizar')).toEqual(expect.arrayContaining(['actualice', 'actualicen', 'actualiza']));
    expect(spanishVerbForms('pagar')).toContain('paguemos');
    expect(spanishVerbForms('vencer')).toEqual(expect.arrayContaining(['venzo', 'venza', 'vence']));
    expect(spanishVerbForms('dirigir')).toEqual(expect.arrayContaining(['dirija', 'dirige']));
  });

  it('gives an English verb its third person, past and gerund', () => {
    expect(englishVerbForms('change')).toEqual(['change', 'changes', 'changed', 'changing']);
    expect(englishVerbForms('modify')).toEqual(['modify', 'modifies', 'modified', 'modifying']);
    expect(englishVerbForms('add')).toEqual(['add', 'adds', 'added', 'adding']);
    expect(englishVerbForms('push')).toEqual(['push', 'pushes', 'pushed', 'pushing']);
    expect(englishVerbForms('agree')).toEqual(['agree', 'agrees', 'agreed', 'agreeing']);
  });

  it('derives every Spanish form from the root, and refuses a word that is not an infinitive', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{2,8}$/), fc.constantFrom('ar', 'er', 'ir'), (root, ending) => {
        const forms = spanishVerbForms(root + ending);
        expect(forms).toContain(root + ending);
        const base = root.slice(0, -1);
        for (const form of forms) expect(form.startsWith(base), form).toBe(true);
        expect(new Set(forms).size).toBe(forms.length);
      }),
      { seed: 20, numRuns: 300 },
    );
    expect(() => spanishVerbForms('change')).toThrow(/not a Spanish infinitive/);
  });
});
