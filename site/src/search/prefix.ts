/**
 * Search as you type (#18): the word still being typed ("crear pedi") also matches the index terms
 * it can grow into. The index holds stems (`pedido` → `ped`), so a partial word matches the terms
 * that start with it (`valida` → `validac`…) and the longest known term it starts with (`pedi` →
 * `ped`). A last word the index does not know is completed; the last two words joined are completed
 * while the last word is unknown or at most {@link SHORT_WORD} letters. A query whose last word is a
 * longer known word ranks as it always did and fetches no more shards.
 */
import type { QueryAnalysis } from '../../../runtime/search/rank.js';
import { fold, term } from '../../../runtime/search/tokenizer.js';
import type { TextIndex } from '../../../runtime/search/types.js';
import { compareCodeUnits } from '../../../model/order.js';

/** Terms a partial word adds at most (the most frequent ones). */
export const MAX_COMPLETIONS = 8;
/** Below the typed word (1): a completion is a guess at what the user means. */
export const COMPLETION_WEIGHT = 0.8;
/** Shortest partial word completed (shorter ones would match half the vocabulary). */
export const MIN_PARTIAL = 3;
/** A known last word this short may be the start of a longer one (its pair with the word before is completed). */
export const SHORT_WORD = 4;
/** The last word of the query and the one before it (when only spaces part them). */
const LAST_WORDS = /(?:([\p{L}\p{N}]+)\s+)?([\p{L}\p{N}]+)$/u;

/** What completion reads of the index's vocabulary. */
export interface Vocabulary {
  /** Sorted index terms that start with `prefix` (sharded: those loaded; the rest are fetched for the next round). */
  withPrefix(prefix: string): readonly string[];
  /**
   * Whether the index's word on `term` is final. The sharded index answers "unknown" for a term
   * whose shard is not loaded yet: completing then would fetch shards for a word that is whole.
   */
  settled(term: string): boolean;
}

/**
 * `analysis` with the completions of the query's last word added to its concept's group, and
 * those of the last two words joined (`crear ped` → `crearpedido`, as the tokenizer indexes the
 * CamelCase title `CrearPedido`) as a group of their own.
 */
export function completeLastWord(query: string, analysis: QueryAnalysis, text: Pick<TextIndex, 'docFrequency'>, vocabulary: Vocabulary): QueryAnalysis {
  const words = LAST_WORDS.exec(query);
  if (!words) return analysis;
  const [, previous, word = ''] = words;
  const typed = term(word);
  const partial = fold(word);
  if (typed === null || partial.length < MIN_PARTIAL || !vocabulary.settled(typed)) return analysis;
  const known = (t: string) => text.docFrequency(t) > 0;
  const mostFrequent = (terms: readonly string[]) => [...terms].sort((a, b) => text.docFrequency(b) - text.docFrequency(a) || compareCodeUnits(a, b)).slice(0, MAX_COMPLETIONS);
  let groups = analysis.groups;
  const inQuery = new Set(groups.flatMap((group) => group.map((alt) => alt.term)));
  const alternatives = (terms: readonly string[]) => terms.filter((t) => !inQuery.has(t)).map((t) => ({ term: t, weight: COMPLETION_WEIGHT }));
  /** Terms `partial` can grow into, and the longest known term (at least `shortest` long) it starts with. */
  const grow = (partial: string, shortest: number) => {
    const completions = mostFrequent(vocabulary.withPrefix(partial));
    for (let end = partial.length - 1; end >= shortest; end--) {
      if (!known(partial.slice(0, end))) continue;
      if (!completions.includes(partial.slice(0, end))) completions.push(partial.slice(0, end));
      break;
    }
    return alternatives(completions);
  };
  if (!known(typed)) {
    const added = grow(partial, MIN_PARTIAL);
    const at = groups.findIndex((group) => group.some((alt) => alt.term === typed));
    if (added.length > 0) groups = at < 0 ? [...groups, added] : groups.map((group, i) => (i === at ? [...group, ...added] : group));
  }
  // The pair only while the last word may still be growing: unknown, or too short to be sure it is
  // whole (`ped` is a known stem). Completing every pair would fetch a shard or two per query.
  if (previous && (!known(typed) || partial.length <= SHORT_WORD)) {
    const added = grow(fold(previous + word), fold(previous).length + MIN_PARTIAL - 1);
    if (added.length > 0) groups = [...groups, added];
  }
  return groups === analysis.groups ? analysis : { ...analysis, groups };
}

/** A {@link Vocabulary} over a sorted term list (the full bundle's: every answer is final). */
export function sortedVocabulary(sorted: readonly string[]): Vocabulary {
  const withPrefix = (prefix: string) => {
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    const out: string[] = [];
    for (let i = lo; i < sorted.length && sorted[i]!.startsWith(prefix); i++) out.push(sorted[i]!);
    return out;
  };
  return { withPrefix, settled: () => true };
}
