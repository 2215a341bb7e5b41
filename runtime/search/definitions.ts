/**
 * Glossary definitions scored row by row. A glossary holds every definition of a tree in one
 * document, so a question about one term ("what is a grace period", "diferencia entre cuota y
 * tarifa") meets it as one long body where the asked word is one row among many, while the entities
 * around it carry that word in their title and collect graph score (glossaries have no typed edges).
 * Scored on its own, the row that defines the word is as short and as specific as an entity.
 *
 * A row counts when its defined term holds a word of the query (the word typed or a translation);
 * it scores the share of the query's concept weight that its term and meaning hold (each concept
 * weighs its best alternative's weight × idf, as BM25F weighs it). The glossary's lexical score gets
 * {@link DEFINITION_WEIGHT} × its best row's share, in units of the best BM25F match. Impact
 * questions leave definitions out: they ask what depends on a subject, not what it means.
 *
 * Reads the structured `terms` field of glossary nodes (name / meaning per row) as {@link glossaryRows}
 * (tokenised once per loaded index) and keeps each row under the terms of its name, so a query visits
 * only the rows it names (no work at all for a query that names none). An index whose nodes carry no
 * fields (the docs site's sharded search) hands the same rows over ready-made as `index.definitions`.
 */
import type { GlossaryRow } from '../../formats/site-bundle.js';
import type { GraphNode } from '../../model/graph.js';
import type { KddIndex } from '../kdd-index.js';
import type { QueryAnalysis } from './rank.js';
import { tokenize } from './tokenizer.js';
import { idfOf } from './top-k.js';

/** Lexical score a row holding every concept of the query adds (1 = the best BM25F match). */
export const DEFINITION_WEIGHT = 0.6;

/** The rows of every glossary among `nodes`, in node order then row order. */
export function glossaryRows(nodes: readonly GraphNode[]): GlossaryRow[] {
  const rows: GlossaryRow[] = [];
  for (let node = 0; node < nodes.length; node++) {
    const { kind, indexed_fields: fields } = nodes[node]!;
    if (kind !== 'glossary' || !Array.isArray(fields.terms)) continue;
    for (const entry of fields.terms as unknown[]) {
      const { name, meaning } = (entry ?? {}) as { name?: unknown; meaning?: unknown };
      if (typeof name !== 'string') continue;
      const nameTerms = new Set(tokenize(name));
      const meaningTerms = new Set(tokenize(typeof meaning === 'string' ? meaning : '').filter((t) => !nameTerms.has(t)));
      rows.push({ node, name, nameTerms: [...nameTerms], meaningTerms: [...meaningTerms] });
    }
  }
  return rows;
}

interface DefinitionRow {
  node: number;
  /** The defined term as written. */
  name: string;
  /** Terms of the name and the meaning. */
  terms: ReadonlySet<string>;
}

/** Per loaded index: each row under every term of its defined name (a query visits only the rows it names). */
const ROWS_BY_NAME_TERM = new WeakMap<KddIndex, Map<string, DefinitionRow[]>>();

function rowsByNameTerm(index: KddIndex): Map<string, DefinitionRow[]> {
  let byTerm = ROWS_BY_NAME_TERM.get(index);
  if (byTerm) return byTerm;
  byTerm = new Map();
  for (const { node, name, nameTerms, meaningTerms } of index.definitions ?? glossaryRows(index.bundle.nodes)) {
    const row = { node, name, terms: new Set([...nameTerms, ...meaningTerms]) };
    for (const t of nameTerms) {
      const rows = byTerm.get(t);
      if (rows) rows.push(row);
      else byTerm.set(t, [row]);
    }
  }
  ROWS_BY_NAME_TERM.set(index, byTerm);
  return byTerm;
}

export interface DefinitionMatch {
  /** Share of the query's concept weight the best row holds, 0–1. */
  share: number;
  /** That row's defined term. */
  term: string;
}

/**
 * Glossary node → its best row for the query (rows whose term holds no query word left out; none
 * for an impact question). `only`: that node alone.
 */
export function definitionMatches(index: KddIndex, { groups, intent }: Pick<QueryAnalysis, 'groups' | 'intent'>, only?: number): Map<number, DefinitionMatch> {
  const out = new Map<number, DefinitionMatch>();
  if (intent === 'impact') return out;
  const byTerm = rowsByNameTerm(index);
  // The rows whose defined term holds a query word, each once, in the order the query names them.
  const named = new Set<DefinitionRow>();
  for (const group of groups) for (const alt of group) for (const row of byTerm.get(alt.term) ?? []) if (only === undefined || row.node === only) named.add(row);
  if (named.size === 0) return out;
  const size = index.text.size;
  const weights = groups.map((group) => {
    let best = 0;
    for (const alt of group) {
      const df = index.text.docFrequency(alt.term);
      if (df > 0) best = Math.max(best, alt.weight * idfOf(size, df));
    }
    return best;
  });
  const total = weights.reduce((sum, w) => sum + w, 0);
  if (total === 0) return out;
  for (const row of named) {
    let held = 0;
    for (let i = 0; i < groups.length; i++) if (groups[i]!.some((alt) => row.terms.has(alt.term))) held += weights[i]!;
    const share = held / total;
    const best = out.get(row.node);
    if (share > 0 && (!best || share > best.share)) out.set(row.node, { share, term: row.name });
  }
  return out;
}
