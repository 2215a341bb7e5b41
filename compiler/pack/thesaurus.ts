/**
 * The search index's thesaurus: for each everyday English word the corpus never uses, the corpus
 * terms that WordNet gives as its synonyms (`wages` → `salary`, `answer` → `respond`), so a question
 * in everyday words reaches a spec written in others. Runtime: `TextIndex.related`, read by
 * runtime/search/rank.ts at a lower weight than the word typed.
 *
 * A pure function of the index's term list: equal vocabularies give equal bytes, and an incremental
 * pack recomputes it from the patched terms (compiler/incremental/patch-bundle.ts) as a full pack
 * does. Only the entries the corpus can use are stored (a key outside the vocabulary, targets inside
 * it), so the table is small and the runtime needs no WordNet.
 */
import type { SerializedTextIndex } from '../../runtime/search/bm25f.js';
import { alternativesOf } from '../../runtime/search/lexicon.js';
import { WORDNET_SYNONYMS } from './wordnet-synonyms.js';

/** Most corpus terms kept per word (WordNet's order: the synonym of the commonest sense first). */
export const MAX_RELATED = 5;

let entries: (readonly [string, readonly string[]])[] | null = null;

/**
 * `terms`: the index's terms joined by `\n` (the search section's `terms`). Returns lines
 * `word\tterm term…`, sorted by word, joined by `\n` ('' when nothing applies). Words the bilingual
 * vocabulary already translates are left out: their translations say what they mean in specs, and a
 * Spanish word that is also an English stem (`quit` from *quitar*) would meet the wrong language's
 * synonyms.
 */
export function thesaurusFor(terms: string): string {
  const vocabulary = new Set(terms === '' ? [] : terms.split('\n'));
  entries ??= WORDNET_SYNONYMS.split('\n').map((line) => {
    const tab = line.indexOf('\t');
    return [line.slice(0, tab), line.slice(tab + 1).split(' ')] as const;
  });
  const lines: string[] = [];
  for (const [word, synonyms] of entries) {
    if (vocabulary.has(word) || alternativesOf(word).length > 0) continue;
    const found = synonyms.filter((s) => vocabulary.has(s)).slice(0, MAX_RELATED);
    if (found.length > 0) lines.push(`${word}\t${found.join(' ')}`);
  }
  return lines.join('\n');
}

/** `index` with its thesaurus for its own terms, as its last field (so a patched index encodes as a packed one). */
export function withThesaurus(index: SerializedTextIndex): SerializedTextIndex {
  const { thesaurus: _previous, ...rest } = index;
  return { ...rest, thesaurus: thesaurusFor(rest.terms) };
}
