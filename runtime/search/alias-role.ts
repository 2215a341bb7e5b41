/**
 * What each alias of a spec is, read from the spec alone when it is indexed: the ranking weighs an
 * alias by its role.
 * - `name`: it repeats a word of the title or id ("Shopping cart" for Cart, "kdd build" for
 *   CMD-001-BuildIndex): a longer or shorter form of the name.
 * - `translation`: another language's name of the thing: most of its words that belong to one
 *   language only belong to the other language than the document's ("Pedido" on an English spec,
 *   "Payment gateway" on a Spanish one), or a word of it translates a word of the title ("Consulta" on
 *   a Spanish spec titled RetrievalQuery).
 * - `everyday`: a word of the document's own language for the thing ("Doctor" for Veterinarian,
 *   "Buyer" for Customer). A question names it in passing far more often than it asks for the node.
 * - `unknown`: the document's language cannot be told (no stop word of either language in its text).
 * Name, translation and unknown aliases weigh as title words; everyday aliases go to a field of their
 * own, normalised by the corpus's everyday-alias lengths (runtime/search/fields.ts).
 *
 * A word's language: Spanish when written with an accent, ñ or ¿¡; else the stop-word list it is on;
 * else the side of the bilingual vocabulary it stands on (lexicon.ts). A word of both languages
 * ("doctor", "total") or of neither list tells nothing: it is read as a word of the document's
 * language, so it never makes a translation on its own.
 * docs/decisions/retrieval-generalization.md, "Alias roles".
 */
import type { GraphNode } from '../../model/graph.js';
import { languagesOf, translationsOf, type Language } from './lexicon.js';
import { ENGLISH_STOP_WORDS, SPANISH_STOP_WORDS } from './stopwords.js';
import { fold, tokenize } from './tokenizer.js';

export type AliasRole = 'name' | 'translation' | 'everyday' | 'unknown';
export const ALIAS_ROLES: readonly AliasRole[] = ['name', 'translation', 'everyday', 'unknown'];

/** An alias of a node and its role. */
export interface RoledAlias {
  alias: string;
  role: AliasRole;
}

/** Characters of body text read to tell a document's language: enough stop words, bounded work per node. */
const SAMPLE = 2000;
const SPANISH_MARKS = /[áéíóúñü¿¡]/i;
const ONLY_EN: ReadonlySet<Language> = new Set(['en']);
const ONLY_ES: ReadonlySet<Language> = new Set(['es']);

/** The language of a text by its stop words that belong to one language only; null on a tie (none at all included). */
export function textLanguage(text: string): Language | null {
  let es = 0;
  let en = 0;
  for (const word of fold(text).split(/[^a-z]+/)) {
    const inEs = SPANISH_STOP_WORDS.has(word);
    const inEn = ENGLISH_STOP_WORDS.has(word);
    if (inEs && !inEn) es++;
    else if (inEn && !inEs) en++;
  }
  return es > en ? 'es' : en > es ? 'en' : null;
}

/** The languages a written word belongs to (empty: nothing tells). */
export function wordLanguages(word: string): ReadonlySet<Language> {
  if (SPANISH_MARKS.test(word)) return ONLY_ES;
  const folded = fold(word);
  const es = SPANISH_STOP_WORDS.has(folded);
  const en = ENGLISH_STOP_WORDS.has(folded);
  if (es !== en) return es ? ONLY_ES : ONLY_EN;
  return languagesOf(folded);
}

/** The role of `alias` on a document in `language` whose title and id hold `nameTerms`. */
export function aliasRole(alias: string, nameTerms: ReadonlySet<string>, language: Language | null): AliasRole {
  const terms = tokenize(alias);
  if (terms.some((t) => nameTerms.has(t))) return 'name';
  if (language === null) return 'unknown';
  let own = 0;
  let other = 0;
  for (const word of alias.split(/[^\p{L}]+/u)) {
    const languages = wordLanguages(word);
    if (languages.size !== 1) continue;
    if (languages.has(language)) own++;
    else other++;
  }
  if (other > own) return 'translation';
  for (const t of terms) for (const translation of translationsOf(t, language)) if (nameTerms.has(translation)) return 'translation';
  return 'everyday';
}

/** The text a document's language is read from: its sections (or flattened fields), first {@link SAMPLE} characters. */
function sampleText(node: GraphNode, body: () => string): string {
  let text = '';
  for (const section of node.sections) {
    if (text.length >= SAMPLE) break;
    text += `${section.text}\n`;
  }
  return (node.sections.length > 0 ? text : body()).slice(0, SAMPLE);
}

/**
 * Each alias of `node` with its role, in the node's order. `nameText` is the node's title and id text
 * (fields.ts), `body` its text when it has no sections.
 */
export function aliasRoles(node: GraphNode, nameText: string, body: () => string): RoledAlias[] {
  if (node.aliases.length === 0) return [];
  const nameTerms = new Set(tokenize(nameText));
  const language = textLanguage(sampleText(node, body));
  return node.aliases.map((alias) => ({ alias, role: aliasRole(alias, nameTerms, language) }));
}
