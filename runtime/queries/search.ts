/**
 * QRY-002 RetrieveSemantic (`POST /v1/retrieve/search`).
 *
 * Semantic search needs embeddings (L2) AND a query vector: the runtime never loads a model, so the
 * caller passes `query_vector` (the library facade, library/knowledge-base.ts, embeds `query_text`
 * with the bundle's model). Then results are nodes ranked by the cosine of their best chunk
 * (`retrieval_strategy: 'semantic'`, score = that cosine, the chunk as snippet and raw_text).
 *
 * Without vectors in the bundle, or without a query vector (browser, model not pulled), the query
 * answers from the lexical ranking (exact ids, BM25F, bilingual vocabulary; no graph expansion) and
 * says so: `retrieval_strategy: 'lexical'`, `embedding_model: null` and a `NO_EMBEDDINGS` warning,
 * instead of failing, so agents always get an answer offline (BR-INDEX-001: L1 always works).
 */
import { warning, type KddWarning } from '../../model/errors.js';
import type { KddIndex } from '../kdd-index.js';
import type { Kind, Layer } from '../../model/graph.js';
import type { ParamsSpec } from '../param-spec.js';
import { explainParam, kindsParam, layersParam, limitParam, queryTextParam } from './_params.js';
import { fuse } from '../search/fuse.js';
import { explainNode, type Why } from '../search/explain.js';
import { analyzeQuery } from '../search/rank.js';
import { queryVectorParam, topNodes } from '../search/semantic.js';
import { bestSnippet, SNIPPET_CHARS } from '../search/snippet.js';
import { boolParam, intParam, numberParam, requireIndex, stringListParam, stringParam, type RawParams } from '../validate.js';

export interface SearchParams {
  /** Natural-language query, at least 3 characters. */
  query_text: string;
  include_kinds?: Kind[];
  include_layers?: Layer[];
  /** Minimum score, 0–1 (1 = the best result). Default 0.7. */
  min_score?: number;
  /** 1–100. Default 10. */
  limit?: number;
  /** `query_text` embedded with the bundle's model (`bundle.vectors.model`); enables semantic ranking. */
  query_vector?: Float32Array | number[];
  /** Add `why` to each result (matched terms and fields, expansions; the chunk for semantic hits). Default false. */
  explain?: boolean;
}

export interface SearchHit {
  document_id: string;
  document_kind: Kind;
  node_id: string;
  /** The matched section as a snake_case path (`purpose`, `flujo_principal`). */
  section_path: string | null;
  score: number;
  snippet: string;
  /** Full text of the matched section. */
  raw_text: string;
  /** Why it ranked (only with `explain: true`). */
  why?: Why;
}

export interface SearchResult {
  results: SearchHit[];
  total_results: number;
  embedding_model: string | null;
  /** `semantic` when the bundle has vectors and a query vector was given, else `lexical`. */
  retrieval_strategy: 'lexical' | 'semantic';
  warnings: KddWarning[];
}

/**
 * QRY-002's default `min_score` of 0.7 is a cosine threshold. Lexical fallback scores are relative
 * to the best match instead, so there the default is the one `context` uses (QRY-003: 0.5).
 */
export const SEARCH_DEFAULTS = { min_score: 0.7, lexical_min_score: 0.5, limit: 10 } as const;

/** QRY-002's parameters (validated below with these very objects; docs/queries.md). */
export const SEARCH_PARAMS = {
  query_text: queryTextParam,
  include_kinds: kindsParam,
  include_layers: layersParam,
  min_score: {
    type: 'number',
    min: 0,
    max: 1,
    default: SEARCH_DEFAULTS.min_score,
    code: 'INVALID_SCORE_RANGE',
    description: `Minimum score: a cosine when the search is semantic (default ${SEARCH_DEFAULTS.min_score}), else relative to the best hit (default ${SEARCH_DEFAULTS.lexical_min_score}).`,
  },
  limit: { ...limitParam, default: SEARCH_DEFAULTS.limit },
  explain: explainParam,
} as const satisfies ParamsSpec;

export function search(index: KddIndex, params: SearchParams | RawParams): SearchResult {
  requireIndex(index);
  const raw = params as RawParams;
  const P = SEARCH_PARAMS;
  const queryText = stringParam(raw, 'query_text', P.query_text);
  const kinds = new Set(stringListParam(raw, 'include_kinds', P.include_kinds));
  const layers = new Set(stringListParam(raw, 'include_layers', P.include_layers));
  const limit = intParam(raw, 'limit', P.limit);
  const vector = queryVectorParam(index, raw);
  const explain = boolParam(raw, 'explain', P.explain);
  const { bundle } = index;
  const semantic = vector !== null && bundle.vectors !== null;
  const minScore = numberParam(raw, 'min_score', { ...P.min_score, default: semantic ? SEARCH_DEFAULTS.min_score : SEARCH_DEFAULTS.lexical_min_score });
  if (vector && bundle.vectors) {
    const keep = (n: number) => {
      const node = bundle.nodes[n]!;
      return (kinds.size === 0 || kinds.has(node.kind)) && (layers.size === 0 || layers.has(node.layer));
    };
    const results: SearchHit[] = [];
    const analysis = explain ? analyzeQuery(queryText, (t) => index.text.docFrequency(t) > 0) : null;
    for (const hit of topNodes(index, vector, limit, keep)) {
      const score = Math.round(Math.max(0, hit.cosine) * 1e4) / 1e4;
      if (score < minScore) break;
      const node = bundle.nodes[hit.node]!;
      const chunk = bundle.chunks[hit.chunk]!;
      const text = node.sections[chunk.section]!.text.slice(chunk.start, chunk.end);
      results.push({
        document_id: node.doc_id,
        document_kind: node.kind,
        node_id: node.id,
        section_path: chunk.id.slice(node.id.length + 1, chunk.id.lastIndexOf(':')) || null,
        score,
        snippet: clipText(text),
        raw_text: text,
        ...(analysis && { why: { ...explainNode(index, analysis, null, hit.node, false), semantic_chunk: chunk.id } }),
      });
    }
    return { results, total_results: results.length, embedding_model: bundle.vectors.model, retrieval_strategy: 'semantic', warnings: [] };
  }
  const fused = fuse(index, queryText, { expandGraph: false, depth: 1, respectLayers: true });
  const results: SearchHit[] = [];
  for (const c of fused.candidates) {
    if (results.length >= limit || c.score < minScore) break;
    const node = bundle.nodes[c.node]!;
    if ((kinds.size > 0 && !kinds.has(node.kind)) || (layers.size > 0 && !layers.has(node.layer))) continue;
    const snippet = bestSnippet(node, fused.analysis.groups, index.text);
    const section = node.sections.find((s) => s.heading === snippet.section);
    results.push({
      document_id: node.doc_id,
      document_kind: node.kind,
      node_id: node.id,
      section_path: section ? sectionPath(section.field ?? section.heading) : null,
      score: c.score,
      snippet: snippet.text,
      raw_text: section?.text ?? snippet.text,
      ...(explain && { why: explainNode(index, fused.analysis, null, c.node, false) }),
    });
  }
  return {
    results,
    total_results: results.length,
    embedding_model: null,
    retrieval_strategy: 'lexical',
    warnings: [warning('NO_EMBEDDINGS', { level: bundle.manifest.index_level })],
  };
}

function clipText(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= SNIPPET_CHARS ? line : `${line.slice(0, SNIPPET_CHARS).trimEnd()}…`;
}

function sectionPath(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
}
