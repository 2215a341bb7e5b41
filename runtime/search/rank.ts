/**
 * Lexical ranking that uses what the compiler knows: exact id / title / alias hits, field-aware
 * BM25F, the bilingual KDD vocabulary, the kind the query asks for and glossary rows
 * (definitions.ts). Graph proximity is added on top by `expand.ts`; the fusion of both lives in
 * runtime/queries/context.ts.
 */
import type { Kind } from '../../model/graph.js';
import type { KddIndex } from '../kdd-index.js';
import { DEFINITION_WEIGHT, definitionMatches } from './definitions.js';
import { alternativesOf, idiomGroups, kindIntent } from './lexicon.js';
import { fold, term, tokenize } from './tokenizer.js';
import type { TermAlternative } from './types.js';

/** Multiplier for nodes of the kind the query names ("which rule…"). */
const KIND_FACTOR = 1.5;
/** Bonus (in units of the best BM25F score) for an exact id match: always ranks first. */
const EXACT_ID = 2;
/** Bonus when the whole query is a title, alias or file name. */
const EXACT_QUERY = 1.5;
/** Bonus when one CamelCase word of the query names a node (`KDDDocument`, `GraphNode`). */
const EXACT_NAME = 0.5;
/** Bonus when a plain word of the query is a node's title or alias (`Pedido`, `Query`). */
const EXACT_WORD = 0.15;
/**
 * Query length, in content words, up to which a title word gets the whole {@link EXACT_WORD}; in a
 * longer query the bonus shrinks with the share of the query the word accounts for. A one-word
 * alias that a long question uses in passing ("…what the doctor wrote…") is a lead, not the subject.
 */
const EXACT_WORD_FULL_UP_TO = 3;
/** Lexical candidates kept per query (graph expansion adds its own). */
const LEXICAL_POOL = 300;

export interface QueryAnalysis {
  /** Distinct index terms of the query, in order. */
  terms: string[];
  /** One group per concept: the term and its translations. */
  groups: TermAlternative[][];
  /** Kinds named by the query. */
  kinds: Set<Kind>;
  /** Chunks of the query to look up exactly, with their bonus. */
  exact: { key: string; bonus: number }[];
  /** Set for a question whose intent changes how it is ranked (impact-intent.ts). */
  intent?: 'impact';
}

const CHUNK = /[\p{L}\p{N}]+(?:[-:_./][\p{L}\p{N}]+)*/gu;

/**
 * Words that join the nouns of a compound name and that its CamelCase form drops (`centro de
 * costes` → `CentroCostes`, `bill of materials` → `BillMaterials`).
 */
const NAME_JOINERS = new Set(['de', 'del', 'of']);

/**
 * Adjacent query words joined, as the tokenizer indexes CamelCase names (`graph node` →
 * `graphnode`, `index manifest` → `indexmanifest`), also across a {@link NAME_JOINERS} word. Kept
 * only when `known` says the index has it.
 */
function joinedPairs(text: string, known: (term: string) => boolean): string[] {
  const words = text.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const out: string[] = [];
  const join = (a: string, b: string) => {
    const t = term(a + b);
    if (t && known(t)) out.push(t);
  };
  for (let i = 0; i + 1 < words.length; i++) {
    join(words[i]!, words[i + 1]!);
    if (i + 2 < words.length && NAME_JOINERS.has(fold(words[i + 1]!))) join(words[i]!, words[i + 2]!);
  }
  return out;
}

export function analyzeQuery(text: string, known: (term: string) => boolean = () => false): QueryAnalysis {
  const typed = tokenize(text);
  const terms = [...new Set([...typed, ...joinedPairs(text, known)])];
  const covered = new Set<string>();
  const groups: TermAlternative[][] = [];
  for (const term of terms) {
    if (covered.has(term)) continue;
    const group = [{ term, weight: 1 }, ...alternativesOf(term).filter((alt) => !terms.includes(alt.term))];
    for (const alt of group) covered.add(alt.term);
    groups.push(group);
  }
  groups.push(...idiomGroups(text, covered));
  const exact: { key: string; bonus: number }[] = [{ key: text.trim(), bonus: EXACT_QUERY }];
  const contentWords = new Set(typed).size;
  for (const m of text.matchAll(CHUNK)) {
    const chunk = m[0];
    if (chunk.length < 3 || chunk === text.trim()) continue;
    const idLike = /[-:]/.test(chunk) && /[A-Z]/.test(chunk);
    const camel = /\p{Ll}\p{Lu}|\p{Lu}{2,}\p{Ll}/u.test(chunk);
    exact.push({ key: chunk, bonus: idLike ? EXACT_ID : camel ? EXACT_NAME : titleWordBonus(chunk, contentWords) });
    // `UC-001-IndexDocument` also names `UC-001`.
    const lead = /^([A-Za-z]+-\d+)-/.exec(chunk);
    if (lead) exact.push({ key: lead[1]!, bonus: EXACT_ID });
  }
  return { terms, groups, kinds: kindIntent(terms, text), exact };
}

/** {@link EXACT_WORD} scaled by the share of the query's content words that `chunk` accounts for. */
function titleWordBonus(chunk: string, queryContentWords: number): number {
  const share = tokenize(chunk).length / Math.max(1, queryContentWords);
  return EXACT_WORD * Math.min(1, EXACT_WORD_FULL_UP_TO * share);
}

export interface LexicalCandidate {
  node: number;
  /** BM25F score / best BM25F score of the query, times the kind factor (+ a glossary's definition score, definitions.ts). */
  lexical: number;
  /** Largest exact-match bonus (0 if none). */
  exact: number;
}

/** Every node the query touches lexically or exactly, best first (ties by node position). */
export function rankLexical(index: KddIndex, analysis: QueryAnalysis): LexicalCandidate[] {
  return [...lexicalCandidates(index, analysis).values()].sort((a, b) => b.lexical + b.exact - (a.lexical + a.exact) || a.node - b.node);
}

/** {@link rankLexical}'s candidates by node, unsorted (fusion needs the scores, not the order). */
export function lexicalCandidates(index: KddIndex, analysis: QueryAnalysis): Map<number, LexicalCandidate> {
  const scores = lexicalScores(index, analysis);
  const byNode = new Map<number, LexicalCandidate>();
  for (const node of scores.nodes) byNode.set(node, { node, lexical: scores.lexical[node]!, exact: scores.exact[node]! });
  return byNode;
}

/**
 * The lexical candidates in per-index scratch arrays (no object per candidate): `nodes` in first-hit
 * order, their `lexical` and `exact` scores at their node position. Valid until the next call on
 * the same index (queries are synchronous); only the positions in `nodes` are meaningful.
 */
export interface LexicalScores {
  nodes: number[];
  lexical: Float64Array;
  exact: Float64Array;
  /** `lexical + exact` (what fusion adds up). */
  total: Float64Array;
  /** Whether `node` is a candidate. */
  has(node: number): boolean;
}

interface LexicalScratch {
  /** Kind of each node (read once: nodes carry lazy accessors, a plain array is faster to scan). */
  kinds: Kind[];
  lexical: Float64Array;
  exact: Float64Array;
  total: Float64Array;
  stamp: Int32Array;
  call: number;
}
const SCRATCH = new WeakMap<KddIndex, LexicalScratch>();

export function lexicalScores(index: KddIndex, analysis: QueryAnalysis): LexicalScores {
  const nodes = index.bundle.nodes;
  let scratch = SCRATCH.get(index);
  if (!scratch) {
    const n = nodes.length;
    scratch = { kinds: nodes.map((node) => node.kind), lexical: new Float64Array(n), exact: new Float64Array(n), total: new Float64Array(n), stamp: new Int32Array(n), call: 0 };
    SCRATCH.set(index, scratch);
  }
  if (scratch.call > 0x3fffff00) (scratch.call = 0), scratch.stamp.fill(0);
  const call = ++scratch.call;
  const { kinds, lexical, exact, total, stamp } = scratch;
  const out: number[] = [];
  // A node's first score of this call: it joins the candidates with nothing scored yet.
  const enter = (node: number) => {
    if (stamp[node] !== call) (stamp[node] = call), out.push(node), (lexical[node] = 0), (exact[node] = 0);
  };
  const hits = index.text.searchTerms(analysis.groups, { limit: LEXICAL_POOL });
  const max = hits[0]?.score ?? 0;
  const wantsKind = analysis.kinds.size > 0;
  for (const hit of hits) {
    const factor = wantsKind && analysis.kinds.has(kinds[hit.node]!) ? KIND_FACTOR : 1;
    enter(hit.node);
    lexical[hit.node] = max > 0 ? (hit.score / max) * factor : 0;
  }
  for (const { key, bonus } of analysis.exact) {
    for (const node of index.text.lookup(fold(key))) {
      enter(node);
      exact[node] = Math.max(exact[node]!, bonus);
    }
  }
  for (const [node, { share }] of definitionMatches(index, analysis)) {
    enter(node);
    lexical[node] = lexical[node]! + DEFINITION_WEIGHT * share;
  }
  for (const node of out) total[node] = lexical[node]! + exact[node]!;
  return { nodes: out, lexical, exact, total, has: (node) => stamp[node] === call };
}
