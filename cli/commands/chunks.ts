/**
 * `kdd chunks "text" [--top-k N] [--threshold X] [--base-url URL] [--no-metadata] [--json]`:
 * chunk retrieval for RAG (issue #10, docs/chunks.md), the registry's `chunks` query; it scores
 * by cosine when the bundle has vectors and the model is cached, lexically otherwise.
 */
import { clip, table, warnings } from '../format.js';
import { queryCommand } from './query-commands.js';

export const chunksCommand = queryCommand({
  query: 'chunks',
  env: {
    flags: {
      'base-url': { type: 'string', value: 'URL', description: 'Where chunk URLs point: a repository web URL or a docs-site deep-link base (default file:<source_file>)' },
    },
    usage: '[--base-url URL]',
    read: (values) => ({ baseUrl: typeof values['base-url'] === 'string' ? values['base-url'] : null }),
  },
  text: (r) =>
    table(
      ['#', 'SCORE', 'URL', 'TEXT'],
      r.results.map((chunk, i) => [String(i + 1), chunk.similarity_score.toFixed(3), chunk.url, clip(chunk.content, 70)]),
    ) +
    warnings(r.metadata.warnings) +
    `${r.metadata.total_results} chunks (${r.metadata.scoring}${r.metadata.embedding_model ? `, ${r.metadata.embedding_model}` : ''}) in ${r.metadata.query_time_ms.toFixed(1)} ms\n`,
});
