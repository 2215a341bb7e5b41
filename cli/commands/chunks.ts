/**
 * `kdd chunks "text" [--top-k N] [--threshold X] [--base-url URL] [--no-metadata] [--json]`:
 * chunk retrieval for RAG (issue #10, docs/chunks.md) through the library facade, so it scores by
 * cosine when the bundle has vectors and the model is cached, lexically otherwise.
 */
import type { ChunksResult } from '../../runtime/queries/chunks.js';
import { clip, table, warnings } from '../format.js';
import { queryCommand } from './query-commands.js';

export const chunksCommand = queryCommand<ChunksResult>({
  name: 'chunks',
  summary: 'The spec passages most similar to a query, with URLs and scores (RAG, issue #10)',
  usage: 'kdd chunks QUERY TEXT… [--top-k 1-20] [--threshold 0-1] [--base-url URL] [--no-metadata] [--bundle DIR=dist] [--json]',
  options: {
    'top-k': { type: 'string' },
    threshold: { type: 'string' },
    'base-url': { type: 'string' },
    'no-metadata': { type: 'boolean', default: false },
  },
  positionals: ['...query_text'],
  params: (values, positionals) => {
    const params: Record<string, unknown> = {
      query_text: Array.isArray(positionals.query_text) ? positionals.query_text.join(' ') : undefined,
      top_k: values['top-k'],
      threshold: values.threshold,
      include_metadata: !values['no-metadata'],
      base_url: values['base-url'],
    };
    return Object.fromEntries(Object.entries(params).filter(([, value]) => value !== undefined));
  },
  run: (kb, { base_url, ...params }) => kb.chunks(params, { baseUrl: typeof base_url === 'string' ? base_url : undefined }),
  text: (r) =>
    table(
      ['#', 'SCORE', 'URL', 'TEXT'],
      r.results.map((chunk, i) => [String(i + 1), chunk.similarity_score.toFixed(3), chunk.url, clip(chunk.content, 70)]),
    ) +
    warnings(r.metadata.warnings) +
    `${r.metadata.total_results} chunks (${r.metadata.scoring}${r.metadata.embedding_model ? `, ${r.metadata.embedding_model}` : ''}) in ${r.metadata.query_time_ms.toFixed(1)} ms\n`,
});
