/**
 * Gherkin keywords per language (`# language: xx`). Adding a language is one entry.
 * Spelling follows the official Gherkin dialects, plus unaccented variants that authors type on
 * keyboards without accents (`Caracteristica`).
 */

export interface Dialect {
  feature: readonly string[];
  rule: readonly string[];
  background: readonly string[];
  scenario: readonly string[];
  outline: readonly string[];
  examples: readonly string[];
  /** Step keywords, each followed by a space in the source. */
  steps: readonly string[];
}

const en: Dialect = {
  feature: ['Feature', 'Business Need', 'Ability'],
  rule: ['Rule'],
  background: ['Background'],
  scenario: ['Scenario', 'Example'],
  outline: ['Scenario Outline', 'Scenario Template'],
  examples: ['Examples', 'Scenarios'],
  steps: ['Given', 'When', 'Then', 'And', 'But', '*'],
};

const es: Dialect = {
  feature: ['Característica', 'Caracteristica', 'Necesidad del negocio', 'Requisito'],
  rule: ['Regla de negocio', 'Regla'],
  background: ['Antecedentes'],
  scenario: ['Escenario', 'Ejemplo'],
  outline: ['Esquema del escenario'],
  examples: ['Ejemplos'],
  steps: ['Dado', 'Dada', 'Dados', 'Dadas', 'Cuando', 'Entonces', 'Y', 'E', 'Pero', '*'],
};

const DIALECTS: Record<string, Dialect> = { en, es };

/**
 * Keywords accepted for a language. English keywords are always accepted as well: mixed files are
 * common (an English `Scenario Outline` in a Spanish feature) and English is Gherkin's default.
 * An unknown language falls back to English alone.
 */
export function dialectFor(language: string): Dialect {
  const own = DIALECTS[language.toLowerCase()];
  if (!own || own === en) return en;
  const merge = (key: keyof Dialect) => [...own[key], ...en[key].filter((word) => !own[key].includes(word))];
  return {
    feature: merge('feature'),
    rule: merge('rule'),
    background: merge('background'),
    scenario: merge('scenario'),
    outline: merge('outline'),
    examples: merge('examples'),
    steps: merge('steps'),
  };
}
