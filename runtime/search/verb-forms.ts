/**
 * The inflected forms of a regular verb, folded (no accents), so that a table of verbs can list each
 * verb once, by its infinitive, and still recognise it however a question conjugates it ("si
 * eliminamos…", "if the fee is removed…"). The forms are the ones a question about a change uses:
 * every person of the present, preterite, imperfect, future and conditional, both subjunctives, the
 * gerund and the participles (English: base, -s, -ed, -ing). Irregular forms (stem changes such as
 * requerir → requiere, doubled consonants such as stop → stopped) are not derived: a table lists them
 * beside the verb.
 */

/** Future and conditional endings after the infinitive's vowel and r (eliminar-é, subir-ía). */
const FUTURE = ['re', 'ras', 'ra', 'remos', 'reis', 'ran', 'ria', 'rias', 'riamos', 'riais', 'rian'];

/**
 * The -er and -ir conjugations differ only in the infinitive's vowel (`v`) where it shows: the
 * infinitive, future and conditional, and the first and second person plural of the present.
 */
const erIr = (v: 'e' | 'i'): readonly string[] => [
  `${v}r`, 'iendo', 'ido', 'ida', 'idos', 'idas',
  'o', 'es', 'e', `${v}mos`, v === 'e' ? 'eis' : 'is', 'en',
  'i', 'iste', 'io', 'isteis', 'ieron',
  'ia', 'ias', 'iamos', 'iais', 'ian',
  ...FUTURE.map((ending) => v + ending),
  'a', 'as', 'amos', 'ais', 'an',
  'iera', 'ieras', 'ieramos', 'ierais', 'ieran', 'iese', 'ieses', 'iesemos', 'ieseis', 'iesen',
];

/** Endings after the root (the infinitive without -ar / -er / -ir), folded. */
const SPANISH_ENDINGS: Record<'ar' | 'er' | 'ir', readonly string[]> = {
  ar: [
    'ar', 'ando', 'ado', 'ada', 'ados', 'adas',
    'o', 'as', 'a', 'amos', 'ais', 'an',
    'e', 'aste', 'asteis', 'aron',
    'aba', 'abas', 'abamos', 'abais', 'aban',
    ...FUTURE.map((ending) => `a${ending}`),
    'es', 'emos', 'eis', 'en',
    'ara', 'aras', 'aramos', 'arais', 'aran', 'ase', 'ases', 'asemos', 'aseis', 'asen',
  ],
  er: erIr('e'),
  ir: erIr('i'),
};

/**
 * Spanish spelling keeps the root's sound before another vowel: -car/-gar/-zar before e
 * (modificar → modifique, pagar → pague, actualizar → actualice), -cer/-cir/-ger/-gir before a or o
 * (vencer → venzo, elegir → elija).
 */
function spell(root: string, conjugation: 'ar' | 'er' | 'ir', ending: string): string {
  if (conjugation === 'ar' && ending.startsWith('e')) {
    if (root.endsWith('c')) return `${root.slice(0, -1)}qu${ending}`;
    if (root.endsWith('g')) return `${root}u${ending}`;
    if (root.endsWith('z')) return `${root.slice(0, -1)}c${ending}`;
  }
  if (conjugation !== 'ar' && /^[ao]/.test(ending)) {
    if (root.endsWith('c')) return `${root.slice(0, -1)}z${ending}`;
    if (root.endsWith('g')) return `${root.slice(0, -1)}j${ending}`;
  }
  return root + ending;
}

/** Forms of a regular Spanish verb given by its folded infinitive (`eliminar`, `anadir`). */
export function spanishVerbForms(infinitive: string): string[] {
  const conjugation = infinitive.slice(-2);
  if (conjugation !== 'ar' && conjugation !== 'er' && conjugation !== 'ir') throw new Error(`not a Spanish infinitive: ${infinitive}`);
  const root = infinitive.slice(0, -2);
  return [...new Set(SPANISH_ENDINGS[conjugation].map((ending) => spell(root, conjugation, ending)))];
}

/** Forms of a regular English verb given by its base form: base, third person, past / participle, gerund. */
export function englishVerbForms(base: string): string[] {
  const consonantY = /[^aeiou]y$/.test(base);
  const silentE = base.endsWith('e') && !base.endsWith('ee');
  const third = consonantY ? `${base.slice(0, -1)}ies` : /(?:s|x|z|ch|sh)$/.test(base) ? `${base}es` : `${base}s`;
  const past = consonantY ? `${base.slice(0, -1)}ied` : base.endsWith('e') ? `${base}d` : `${base}ed`;
  const gerund = silentE ? `${base.slice(0, -1)}ing` : `${base}ing`;
  return [base, third, past, gerund];
}
