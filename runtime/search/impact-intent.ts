/**
 * Impact questions ("if the grace period changes from 7 to 10 days, which documents change?",
 * "si cambia la entidad Reserva, ¿qué depende de ella?"): the answer is a subject and what depends on
 * it. The words that frame the question (change, affected, depends, documents) match every spec that
 * talks about changes and pull the ranking away from the subject, so they are weighted down; the graph
 * expansion then brings the subject's neighbours, dependants included. (An extra score for the
 * subject's dependants by distance against the edges was measured and lowered dev nDCG@10:
 * docs/decisions/retrieval-generalization.md.)
 *
 * A kind named in an impact question ("the Subscription entity", "la regla BR-…") says what the subject
 * is, not what the answer should be: what depends on an entity is rules, commands, events and views.
 * So the kind intent does not apply, and the kind word frames the question like the others (it still
 * matches the subject, whose kind it is).
 */
import { kindWords } from './lexicon.js';
import type { QueryAnalysis } from './rank.js';
import { tokenize } from './tokenizer.js';
import type { TermAlternative } from './types.js';

/** Words that ask what is affected, in either language (stemmed like the corpus). */
const AFFECT_WORDS = new Set(tokenize('impact impacto affect affected afecta afectado afectados afectan breaks rompe'));
/** Words that ask what depends on something: an impact question on their own. */
const DEPEND_WORDS = new Set(tokenize('depend depends dependen depende'));
/** Words of change. */
const CHANGE_WORDS = new Set(tokenize('change changes changed changing cambia cambian cambio modify modifica modifico update actualizar increase decrease sube baja pasa required requires requiriera adding add anadir remove removing quitar eliminar rename renombrar'));
const CONDITIONAL = /(?:^|[^\p{L}])(?:if|si|what happens|qué pasa|que pasa)(?:[^\p{L}]|$)/iu;
/** Words that only frame the question ("which documents change?"), not its subject. */
const FRAME_WORDS = new Set([...AFFECT_WORDS, ...DEPEND_WORDS, ...CHANGE_WORDS, ...tokenize('document documents documento documentos')]);

/**
 * Whether the query asks what a change affects: a change word with an affect word or a conditional
 * ("if … changes", "si cambia …"), or a depend word. "the impact analysis query" is not one.
 */
export function isImpactQuestion(text: string, terms: readonly string[]): boolean {
  if (terms.some((t) => DEPEND_WORDS.has(t))) return true;
  return terms.some((t) => CHANGE_WORDS.has(t)) && (terms.some((t) => AFFECT_WORDS.has(t)) || CONDITIONAL.test(text));
}

/** Weight left to a word that frames an impact question (it may still be the topic: "impact analysis"). */
const FRAME_WEIGHT = 0.25;

/**
 * The query's concept groups with the words that frame an impact question weighted down: the framing
 * words above, and `kindNames` (the query's words that name a kind).
 */
export function subjectGroups(groups: readonly (readonly TermAlternative[])[], kindNames: ReadonlySet<string> = new Set()): TermAlternative[][] {
  return groups.map((group) => {
    const typed = group[0]!.term;
    return FRAME_WORDS.has(typed) || kindNames.has(typed) ? group.map((alt) => ({ ...alt, weight: alt.weight * FRAME_WEIGHT })) : [...group];
  });
}

/** An impact question's analysis: ranked by its subject, with no kind intent (see the module comment). */
export function subjectAnalysis(analysis: QueryAnalysis): QueryAnalysis {
  return { ...analysis, groups: subjectGroups(analysis.groups, kindWords(analysis.terms)), kinds: new Set(), intent: 'impact' };
}
