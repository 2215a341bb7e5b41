/**
 * The full-text engine sits behind this interface so it can be swapped (LIBRARY-NOTES: Orama vs
 * MiniSearch load times; docs/decisions/search-engine.md). Build happens in the compiler, restore in
 * the runtime; both isomorphic.
 */
export interface TextHit {
  /** Position of the node in `bundle.nodes`. */
  node: number;
  /** Raw BM25F score (unbounded; callers normalise). */
  score: number;
}

/** One alternative spelling of a query concept and its weight (1 for the word typed). */
export interface TermAlternative {
  term: string;
  weight: number;
  /** The everyday phrasing of the query this concept stands for (lexicon.ts idioms), when it is one. */
  from?: string;
}

export interface SearchTermsOptions {
  /** Only the best `limit` nodes (ties by position); all when undefined. */
  limit?: number;
  /**
   * Score every posting instead of skipping nodes that cannot reach the best `limit`
   * (runtime/search/top-k.ts). The same hits either way; exists so tests and the bench can compare.
   */
  exhaustive?: boolean;
}

export interface TextIndex {
  /** Tokenises `query` with the index's tokenizer and ranks nodes by BM25F. */
  search(query: string, options?: SearchTermsOptions): TextHit[];
  /**
   * Ranks by BM25F over pre-analysed concepts: each group scores a node by its best alternative,
   * and group scores add up (so a word and its translation never count twice).
   */
  searchTerms(groups: readonly (readonly TermAlternative[])[], options?: SearchTermsOptions): TextHit[];
  /** Nodes whose id, doc_id, title, alias or file name equals `key` once folded (`cmd-004`, `pedido`). */
  lookup(key: string): readonly number[];
  /** Names of the fields of node `node` (a position) that contain `term`, in field order (empty if none). */
  fieldsOf(term: string, node: number): string[];
  /** Number of nodes containing `term` (0 for unknown terms). */
  docFrequency(term: string): number;
  /** Number of indexed nodes. */
  readonly size: number;
}
