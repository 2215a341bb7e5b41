export { buildTextIndex, restoreTextIndex, SEARCH_FORMAT } from './bm25f.js';
export type { SerializedTextIndex } from './bm25f.js';
export type { TextHit, TextIndex, TermAlternative } from './types.js';
export { tokenize, fold, splitCamel } from './tokenizer.js';
export { analyzeQuery, rankLexical } from './rank.js';
export type { QueryAnalysis, LexicalCandidate } from './rank.js';
