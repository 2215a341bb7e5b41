/**
 * A light suffix stripper for Spanish and English, applied to accent-folded lower-case words.
 * One stemmer for both languages, because one spec tree mixes them (v1 Spanish, v2 English): it only
 * has to map the inflections of a word to one key, and where it can, map cognates to the same key
 * (`indexación`/`indexation`/`indexing`/`index` → `index`, `eventos`/`events` → `event`).
 * Rules are tried in order; the first suffix that leaves a stem of at least MIN letters wins.
 */
const MIN = 3;

// [suffix, replacement]; longest and most specific first.
export const RULES: readonly (readonly [string, string])[] = [
  ['aciones', ''], ['iciones', ''], ['ations', ''], ['itions', ''], ['acion', ''], ['icion', ''], ['ation', ''], ['ition', ''],
  ['amientos', ''], ['imientos', ''], ['amiento', ''], ['imiento', ''], ['mente', ''],
  ['ciones', 'cion'], ['siones', 'sion'], ['idades', 'idad'],
  ['adores', ''], ['adoras', ''], ['ador', ''], ['adora', ''],
  ['izing', 'iz'], ['ising', 'iz'], ['izado', 'iz'], ['izada', 'iz'], ['izados', 'iz'], ['izadas', 'iz'], ['izar', 'iz'], ['ized', 'iz'], ['ize', 'iz'],
  ['ados', ''], ['adas', ''], ['idos', ''], ['idas', ''], ['ado', ''], ['ada', ''], ['ido', ''], ['ida', ''],
  ['ando', ''], ['iendo', ''], ['ings', ''], ['ing', ''], ['ies', 'y'], ['ied', 'y'],
  ['edly', ''], ['ness', ''], ['ly', ''], ['ers', ''], ['er', ''], ['ed', ''],
  ['ables', ''], ['ibles', ''], ['able', ''], ['ible', ''],
  ['ar', ''], ['ir', ''], ['es', ''], ['os', ''], ['as', ''], ['s', ''],
];

const VOWEL_END = /[aeo]$/;

// The rules by their suffix's last letter, in rule order: a word is only tried against the rules
// that can end it (a handful instead of all of them, for every new word of a build).
const RULES_BY_LAST = new Map<string, (readonly [string, string])[]>();
for (const rule of RULES) {
  const last = rule[0].at(-1)!;
  const list = RULES_BY_LAST.get(last);
  if (list) list.push(rule);
  else RULES_BY_LAST.set(last, [rule]);
}
const NO_RULES: readonly (readonly [string, string])[] = [];

export function stem(word: string): string {
  if (word.length <= MIN || /\d/.test(word)) return word;
  let w = word;
  for (const [suffix, repl] of RULES_BY_LAST.get(w.at(-1)!) ?? NO_RULES) {
    if (w.endsWith(suffix) && w.length - suffix.length + repl.length >= MIN) {
      // `ss` (process, class) and `us`/`is` (status, analysis) are not English plurals.
      if (suffix === 's' && /(?:ss|us|is)$/.test(w)) break;
      w = w.slice(0, w.length - suffix.length) + repl;
      break;
    }
  }
  // Final unstressed vowel (Spanish gender, English silent e): regla/reglas, merge/merging.
  if (w.length > MIN && VOWEL_END.test(w)) w = w.slice(0, -1);
  return w;
}
