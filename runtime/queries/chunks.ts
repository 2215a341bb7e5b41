/**
 * Chunk retrieval for RAG (issue #10, `POST /v1/query`, `kdd chunks`): the passages of the specs
 * most similar to a query, each with its text exactly as stored, a URL, its position in the
 * document and a 0–1 similarity score. Contract: docs/chunks.md.
 *
 * Scoring (reported in `metadata.scoring`):
 *  - `cosine` (L2): the bundle has vectors and the caller passed `query_vector` (the library facade
 *    embeds `query_text` with the bundle's model). Score = cosine clamped to 0–1. Only embedded
 *    chunks (BR-EMBEDDING-001 sections) are candidates.
 *  - `lexical` (L1, or no vector): every chunk is scored through the chunk term index built at
 *    pack time (`bundle.chunk_search`, runtime/search/chunk-index.ts: same tokenizer, bilingual
 *    vocabulary) by the query concepts it contains: Σ_concept w·idf·tf/(K1+tf) ÷ Σ_concept w·idf,
 *    so 1.0 would be every known query concept present with a very high frequency; one occurrence
 *    of each ≈ 0.45. Query words the corpus does not know are left out of the denominator. A
 *    `NO_EMBEDDINGS` warning says semantic scoring did not run. Bundles without `chunk_search`
 *    (packed before issue #10) fall back to tokenising the chunks of the best 40 nodes.
 *
 * Pure and synchronous: the one wall-clock value, `metadata.timestamp`, comes from `env.now`;
 * `query_time_ms` is measured with the monotonic `performance.now()` (or `env.timer`).
 */
import type { Bundle } from '../../formats/bundle/types.js';
import { createError, warning, type KddWarning } from '../../model/errors.js';
import type { KddIndex } from '../kdd-index.js';
import type { GraphNode } from '../../model/graph.js';
import { analyzeQuery } from '../search/rank.js';
import { queryVectorParam, topChunks } from '../search/semantic.js';
import { chunkTermFrequencies, isChunkIndex, restoreChunkIndex, type ChunkIndex } from '../search/chunk-index.js';
import { boolParam, intParam, numberParam, paramsObject, requireIndex, stringParam, type RawParams } from '../validate.js';
import type { ParamsSpec } from '../param-spec.js';
import { compareCodeUnits } from '../../model/order.js';

export interface ChunksParams {
  /** Required, not empty (after trimming), fewer than 2000 characters. */
  query_text: string;
  /** 1–20. Default 5. */
  top_k?: number;
  /** Minimum similarity_score, 0.0–1.0. Default 0.0. */
  threshold?: number;
  /** false: each chunk carries only content, url, position, similarity_score. Default true. */
  include_metadata?: boolean;
  /** `query_text` embedded with the bundle's model; enables cosine scoring at L2. */
  query_vector?: Float32Array | number[];
}

/** What the caller provides besides the request: the clock and the URL configuration. */
export interface ChunksEnv {
  /** The query's wall-clock time (`metadata.timestamp`). Date, ISO string or epoch milliseconds. */
  now: Date | string | number;
  /**
   * Where spec URLs point. A repository web URL (`https://github.com/o/r/blob/main/specs/`) gets
   * `source_file` appended (+ `#section`); a docs-site deep link base (`https://site/#/node/`) gets the
   * encoded node id. Absent: `file:<source_file>#<section>`, relative to the specs root.
   */
  baseUrl?: string | null;
  /** Monotonic milliseconds for `query_time_ms`. Default `performance.now()`. */
  timer?: () => number;
}

export interface RetrievedChunk {
  /** The chunk's text exactly as stored (`nodes[n].sections[s].text.slice(start, end)`). */
  content: string;
  /** Always a valid URL (see {@link ChunksEnv.baseUrl}). */
  url: string;
  /** Zero-based index of the chunk in its document. */
  position: number;
  /** 0.0–1.0: clamped cosine (`scoring: 'cosine'`) or the normalised lexical score. */
  similarity_score: number;
  /** Present unless `include_metadata: false`. Stable across rebuilds of the same content. */
  chunk_id?: string;
  /** ISO 8601: the git commit time of the source (node `indexed_at`), else the manifest's, else the Unix epoch. */
  created_at?: string;
  node_id?: string;
  /** Heading of the section the chunk belongs to ('' before the first heading). */
  section?: string;
}

export interface ChunksResult {
  /** The query text as received. */
  query: string;
  /** 0–top_k chunks, similarity_score descending (ties by chunk_id), all ≥ threshold. */
  results: RetrievedChunk[];
  metadata: {
    query_time_ms: number;
    /** = results.length */
    total_results: number;
    /** ISO 8601 time of the query (`env.now`). */
    timestamp: string;
    scoring: 'cosine' | 'lexical';
    embedding_model: string | null;
    warnings: KddWarning[];
  };
}

export const CHUNKS_DEFAULTS = { top_k: 5, threshold: 0, include_metadata: true } as const;
export const MAX_QUERY_CHARS = 2000;

/** The chunk query's parameters (validated below with these very objects; docs/queries.md). */
export const CHUNKS_PARAMS = {
  query_text: {
    type: 'string',
    required: true,
    minLength: 1,
    aliases: ['query'],
    description: `What to find passages about; not empty, fewer than ${MAX_QUERY_CHARS} characters.`,
    cli: { positional: 'rest' },
  },
  top_k: { type: 'integer', min: 1, max: 20, default: CHUNKS_DEFAULTS.top_k, description: 'Number of passages.' },
  threshold: { type: 'number', min: 0, max: 1, default: CHUNKS_DEFAULTS.threshold, description: 'Minimum similarity_score.' },
  include_metadata: {
    type: 'boolean',
    default: CHUNKS_DEFAULTS.include_metadata,
    description: 'Give each passage its chunk_id, node_id, section and created_at.',
    cli: { flag: 'no-metadata', negate: true },
  },
} as const satisfies ParamsSpec;
/** `created_at` when neither the node nor the manifest has a commit time (specs outside git). */
export const EPOCH = '1970-01-01T00:00:00.000Z';
/** Candidate nodes (by node-level BM25F) whose chunks are scored at L1. */
export const LEXICAL_NODE_POOL = 40;
const K1 = 1.2;

export function chunks(index: KddIndex, params: ChunksParams | RawParams, env: ChunksEnv): ChunksResult {
  const timer = env?.timer ?? (() => globalThis.performance.now());
  const started = timer();
  requireIndex(index);
  const raw = params as RawParams;
  const query = stringParam(raw, 'query_text', CHUNKS_PARAMS.query_text);
  const given = paramsObject(raw).query_text as string;
  if (given.length >= MAX_QUERY_CHARS) {
    throw createError('INVALID_PARAMS', { field: 'query_text', reason: `must be shorter than ${MAX_QUERY_CHARS} characters (got ${given.length})` });
  }
  const topK = intParam(raw, 'top_k', CHUNKS_PARAMS.top_k);
  const threshold = numberParam(raw, 'threshold', CHUNKS_PARAMS.threshold);
  const includeMetadata = boolParam(raw, 'include_metadata', CHUNKS_PARAMS.include_metadata);
  const vector = queryVectorParam(index, raw);
  const timestamp = isoTime(env?.now, 'now');
  const urlOf = urlBuilder(env?.baseUrl ?? null);

  const { bundle } = index;
  const cosine = vector !== null && bundle.vectors !== null;
  const scored = cosine ? cosineChunks(index, vector, topK, threshold) : lexicalChunks(index, query, topK, threshold);
  scored.sort((a, b) => b.score - a.score || compareCodeUnits(a.id, b.id));

  const results: RetrievedChunk[] = [];
  for (const { chunk: at, score } of scored) {
    if (results.length >= topK) break;
    const chunk = bundle.chunks[at]!;
    const node = bundle.nodes[chunk.node]!;
    const section = node.sections[chunk.section];
    const content = section?.text.slice(chunk.start, chunk.end) ?? '';
    if (content.trim() === '') continue;
    const hit: RetrievedChunk = { content, url: urlOf(node, chunk.id), position: chunk.position, similarity_score: score };
    if (includeMetadata) {
      hit.chunk_id = chunk.id;
      hit.created_at = createdAt(node, bundle);
      hit.node_id = node.id;
      hit.section = section?.heading ?? '';
    }
    results.push(hit);
  }
  const warnings = cosine ? [] : [warning('NO_EMBEDDINGS', { level: bundle.manifest.index_level })];
  return {
    query: given,
    results,
    metadata: {
      query_time_ms: Math.max(0, Math.round((timer() - started) * 1000) / 1000),
      total_results: results.length,
      timestamp,
      scoring: cosine ? 'cosine' : 'lexical',
      embedding_model: cosine ? bundle.vectors!.model : null,
      warnings,
    },
  };
}

interface Scored {
  /** Position in `bundle.chunks`. */
  chunk: number;
  id: string;
  /** 0–1, rounded to 4 decimals. */
  score: number;
}

const round = (value: number) => Math.round(Math.min(1, Math.max(0, value)) * 1e4) / 1e4;

function cosineChunks(index: KddIndex, vector: Float32Array, topK: number, threshold: number): Scored[] {
  // Scores are rounded, so ties at the cut are broken by chunk_id: fetch a little more than top_k.
  const hits = topChunks(index, vector, topK + 8);
  return hits
    .map((hit) => ({ chunk: hit.chunk, id: index.bundle.chunks[hit.chunk]!.id, score: round(hit.cosine) }))
    .filter((hit) => hit.score >= threshold);
}

// ── Lexical chunk scoring (L1) ─────────────────────────────────────────────────────────────────

/** One query concept: its known spellings with weight × idf. */
type Concept = { term: string; w: number }[];

/** The query's concepts the corpus knows (weights × idf by `df`), and the best possible sum. */
function concepts(query: string, index: KddIndex, df: (term: string) => number, size: number): { groups: Concept[]; denominator: number } {
  const analysis = analyzeQuery(query, (t) => index.text.docFrequency(t) > 0);
  const idf = (n: number) => Math.log(1 + (size - n + 0.5) / (n + 0.5));
  const groups: Concept[] = [];
  let denominator = 0;
  for (const group of analysis.groups) {
    const alts = group
      .filter((alt) => alt.weight > 0)
      .map((alt) => ({ term: alt.term, n: df(alt.term), weight: alt.weight }))
      .filter((alt) => alt.n > 0)
      .map((alt) => ({ term: alt.term, w: alt.weight * idf(alt.n) }));
    if (alts.length === 0) continue;
    groups.push(alts);
    denominator += Math.max(...alts.map((alt) => alt.w));
  }
  return { groups, denominator };
}

/** Keeps the `k` best (score desc, id asc) of what it is offered. */
function topKeeper(k: number) {
  const kept: Scored[] = [];
  const better = (a: Scored, b: Scored) => a.score > b.score || (a.score === b.score && a.id < b.id);
  return {
    kept,
    offer(chunk: number, score: number, idOf: (chunk: number) => string) {
      if (kept.length >= k && score < kept[k - 1]!.score) return;
      const entry = { chunk, id: idOf(chunk), score };
      if (kept.length >= k && !better(entry, kept[k - 1]!)) return;
      let at = kept.length;
      while (at > 0 && better(entry, kept[at - 1]!)) at--;
      kept.splice(at, 0, entry);
      if (kept.length > k) kept.pop();
    },
  };
}

function lexicalChunks(index: KddIndex, query: string, topK: number, threshold: number): Scored[] {
  const { bundle } = index;
  const chunkIndex = restoredChunkIndex(bundle);
  return chunkIndex ? indexedChunks(index, chunkIndex, query, topK, threshold) : scannedChunks(index, query, topK, threshold);
}

/** With `bundle.chunk_search`: every chunk containing a query concept, idf over chunks. */
function indexedChunks(index: KddIndex, chunkIndex: ChunkIndex, query: string, topK: number, threshold: number): Scored[] {
  const { groups, denominator } = concepts(query, index, (t) => chunkIndex.docFrequency(t), chunkIndex.size);
  if (denominator === 0) return [];
  const { acc, group: groupAcc } = chunkIndex.scratch;
  const touched: number[] = [];
  for (const alts of groups) {
    const groupTouched: number[] = [];
    for (const alt of alts) {
      chunkIndex.forEach(alt.term, (chunk, tf) => {
        const score = (alt.w * tf) / (K1 + tf);
        if (score > groupAcc[chunk]!) {
          if (groupAcc[chunk] === 0) groupTouched.push(chunk);
          groupAcc[chunk] = score;
        }
      });
    }
    for (const chunk of groupTouched) {
      if (acc[chunk] === 0) touched.push(chunk);
      acc[chunk] = acc[chunk]! + groupAcc[chunk]!;
      groupAcc[chunk] = 0;
    }
  }
  const keeper = topKeeper(topK);
  const idOf = (chunk: number) => index.bundle.chunks[chunk]!.id;
  for (const chunk of touched) {
    const score = round(acc[chunk]! / denominator);
    acc[chunk] = 0;
    if (score > 0 && score >= threshold) keeper.offer(chunk, score, idOf);
  }
  return keeper.kept;
}

/**
 * Fallback for bundles without `chunk_search` (packed before issue #10): the node-level BM25F index
 * picks {@link LEXICAL_NODE_POOL} candidate nodes, and their chunks are tokenised at query time
 * (idf over nodes). Slower on cold nodes; same score formula.
 */
function scannedChunks(index: KddIndex, query: string, topK: number, threshold: number): Scored[] {
  const { groups, denominator } = concepts(query, index, (t) => index.text.docFrequency(t), Math.max(1, index.text.size));
  if (denominator === 0) return [];
  const ranges = chunkRanges(index.bundle);
  const keeper = topKeeper(topK);
  const idOf = (chunk: number) => index.bundle.chunks[chunk]!.id;
  const analysis = analyzeQuery(query, (t) => index.text.docFrequency(t) > 0);
  for (const hit of index.text.searchTerms(analysis.groups, { limit: LEXICAL_NODE_POOL })) {
    const node = index.bundle.nodes[hit.node]!;
    const first = ranges[hit.node]!;
    chunkTerms(node, index.bundle, first, ranges[hit.node + 1]!).forEach((tf, offset) => {
      let sum = 0;
      for (const alts of groups) {
        let best = 0;
        for (const alt of alts) {
          const count = tf.get(alt.term);
          if (count) best = Math.max(best, (alt.w * count) / (K1 + count));
        }
        sum += best;
      }
      const score = round(sum / denominator);
      if (score > 0 && score >= threshold) keeper.offer(first + offset, score, idOf);
    });
  }
  return keeper.kept;
}

// Restored chunk indexes, per bundle (restored on the first chunk query: a split + a Map, no tokenising).
const CHUNK_INDEXES = new WeakMap<Bundle, ChunkIndex | null>();

function restoredChunkIndex(bundle: Bundle): ChunkIndex | null {
  let restored = CHUNK_INDEXES.get(bundle);
  if (restored === undefined) {
    restored = isChunkIndex(bundle.chunk_search) ? restoreChunkIndex(bundle.chunk_search, bundle.chunks.length) : null;
    CHUNK_INDEXES.set(bundle, restored);
  }
  return restored;
}

// `ranges[n]..ranges[n + 1]` = the chunks of node n (bundle.chunks is sorted by node, position).
const RANGES = new WeakMap<Bundle, Int32Array>();

function chunkRanges(bundle: Bundle): Int32Array {
  let ranges = RANGES.get(bundle);
  if (!ranges) {
    ranges = new Int32Array(bundle.nodes.length + 1);
    const chunks = bundle.chunks;
    let at = 0;
    for (let node = 0; node <= bundle.nodes.length; node++) {
      while (at < chunks.length && chunks[at]!.node < node) at++;
      ranges[node] = at;
    }
    RANGES.set(bundle, ranges);
  }
  return ranges;
}

// Term frequencies of each chunk of recently scanned nodes (fallback only); bounded, oldest out.
const TERMS = new Map<GraphNode, Map<string, number>[]>();
const TERMS_MAX = 4000;

function chunkTerms(node: GraphNode, bundle: Bundle, from: number, to: number): Map<string, number>[] {
  let terms = TERMS.get(node);
  if (!terms) {
    terms = [];
    for (let at = from; at < to; at++) terms.push(chunkTermFrequencies(bundle.chunks[at]!, node));
    if (TERMS.size >= TERMS_MAX) TERMS.delete(TERMS.keys().next().value!);
    TERMS.set(node, terms);
  }
  return terms;
}

// ── URLs and times ─────────────────────────────────────────────────────────────────────────────

/** `descripcion` from `Entity:Pedido#descripcion:0`, `flujo.paso_2` → `paso_2`; none for the preamble/title. */
function anchor(nodeId: string, chunkId: string): string {
  const path = chunkId.slice(nodeId.length + 1, chunkId.lastIndexOf(':'));
  const last = path.split('.').at(-1) ?? '';
  return last === '' || last.startsWith('_') ? '' : `#${encodeURIComponent(last)}`;
}

const encodePath = (file: string) => file.split('/').map(encodeURIComponent).join('/');

function urlBuilder(baseUrl: string | null): (node: GraphNode, chunkId: string) => string {
  if (baseUrl === null || baseUrl === '') return (node, id) => `file:${encodePath(node.source_file)}${anchor(node.id, id)}`;
  let base: URL;
  try {
    base = new URL(baseUrl);
  } catch {
    throw createError('INVALID_PARAMS', { field: 'base_url', reason: `'${baseUrl}' is not an absolute URL` });
  }
  const deepLink = /#\/node\/?$/.exec(base.href);
  if (deepLink) {
    const prefix = base.href.endsWith('/') ? base.href : `${base.href}/`;
    return (node) => `${prefix}${encodeURIComponent(node.id)}`;
  }
  base.hash = '';
  base.search = '';
  if (!base.pathname.endsWith('/')) base.pathname = `${base.pathname}/`;
  const root = base.href;
  return (node, id) => `${new URL(encodePath(node.source_file), root).href}${anchor(node.id, id)}`;
}

function isoTime(value: Date | string | number | undefined, field: string): string {
  const date = value instanceof Date ? value : value === undefined ? new Date(Number.NaN) : new Date(value);
  if (Number.isNaN(date.getTime())) throw createError('INVALID_PARAMS', { field, reason: 'must be the time of the query (Date, ISO 8601 string or epoch ms)' });
  return date.toISOString();
}

function createdAt(node: GraphNode, bundle: Bundle): string {
  for (const value of [node.indexed_at, bundle.manifest.indexed_at]) {
    if (value) {
      const date = new Date(value);
      if (!Number.isNaN(date.getTime())) return date.toISOString();
    }
  }
  return EPOCH;
}
