/**
 * The comparison row: plain BM25 (k1 1.2, b 0.75) over each whole document (title + every section),
 * folded lower-case words, no stemming, no stop words, no fields, no graph — roughly what an
 * off-the-shelf full-text engine gives on these specs.
 */
import type { GraphNode } from '../../model/graph.js';

const words = (text: string) => text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);

export function plainBm25(nodes: readonly GraphNode[]): (query: string, limit: number) => string[] {
  const docs = nodes.map((n) => {
    const tf = new Map<string, number>();
    const tokens = words([n.id, n.title, ...n.sections.map((s) => `${s.heading} ${s.text}`)].join(' '));
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    return { id: n.id, tf, len: tokens.length };
  });
  const avg = docs.reduce((s, d) => s + d.len, 0) / Math.max(1, docs.length);
  const df = new Map<string, number>();
  for (const d of docs) for (const t of d.tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  return (query, limit) => {
    const terms = [...new Set(words(query))];
    return docs
      .map((d) => {
        let score = 0;
        for (const t of terms) {
          const f = d.tf.get(t);
          if (!f) continue;
          const n = df.get(t)!;
          const idf = Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
          score += (idf * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * d.len) / avg));
        }
        return { id: d.id, score };
      })
      .filter((r) => r.score > 0)
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
      .slice(0, limit)
      .map((r) => r.id);
  };
}
