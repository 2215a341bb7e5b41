/**
 * The text block of each MCP tool answer: compact Markdown for a model to read (ids, titles, file
 * paths, the snippet, the relations, the token count), beside the full answer in
 * `structuredContent`. Presentation only: everything shown here is in the structured answer.
 */
import type { KddWarning } from '../model/errors.js';
import type { QueryName, QueryResult } from '../runtime/queries/registry.js';
import { describeWhy, type Why } from '../runtime/search/explain.js';

type Renderers = { [N in QueryName]: (result: QueryResult<N>) => string };

const line = (text: string) => text.replace(/\s+/g, ' ').trim();
const clip = (text: string, max = 240) => {
  const one = line(text);
  return one.length <= max ? one : `${one.slice(0, max - 1)}…`;
};
const node = (n: { id: string; title: string; kind: string; source_file: string }) => `**${n.id}** — ${n.title} (${n.kind}, \`${n.source_file}\`)`;
const list = <T>(items: readonly T[], render: (item: T) => string, none = '_none_') => (items.length ? items.map((item) => `- ${render(item)}`).join('\n') : none);
const warned = (warnings: readonly KddWarning[]) => (warnings.length ? `\n\n${warnings.map((w) => `> ⚠ ${w.code}: ${w.message}`).join('\n')}` : '');
const edge = (e: { from_node: string; to_node: string; edge_type: string; implicit?: true }) => `${e.from_node} —${e.edge_type}${e.implicit ? ' (implicit)' : ''}→ ${e.to_node}`;

/** A context result's passages, whole (the budget already chose them), each under its heading. */
const passages = (items: readonly { section: string; text: string }[] | undefined) =>
  (items ?? []).map((p) => `\n  §${p.section}:\n${p.text.split('\n').map((l) => `    ${l}`).join('\n')}`).join('');
/** `why` (with `explain: true`), one line: matched terms and fields, expansions, exact key, graph path. */
const why = (w: Why | undefined) => (w ? `\n  _why: ${describeWhy(w).join(' · ')}_` : '');

const RENDER: Renderers = {
  context: (r) =>
    `## ${r.total_results} specs for the task (${r.retrieval_strategy}, ~${r.total_tokens} tokens)\n\n` +
    list(r.results, (h) => `${node({ id: h.node_id, title: h.title, kind: h.kind, source_file: h.source_file })} · score ${h.score.toFixed(2)} · ${h.match_source}${h.section ? ` · §${h.section}` : ''}\n  ${clip(h.snippet)}${passages(h.passages)}${why(h.why)}`) +
    (r.graph_expansion.length ? `\n\n### Relations\n${list(r.graph_expansion, edge)}` : '') +
    (r.layer_violations.length ? `\n\n### Layer violations\n${list(r.layer_violations, edge)}` : '') +
    warned(r.warnings),
  search: (r) =>
    `## ${r.total_results} results (${r.retrieval_strategy}${r.embedding_model ? `, ${r.embedding_model}` : ''})\n\n` +
    list(r.results, (h) => `**${h.node_id}** (${h.document_kind}) · score ${h.score.toFixed(2)}${h.section_path ? ` · ${h.section_path}` : ''}\n  ${clip(h.snippet)}${why(h.why)}`) +
    warned(r.warnings),
  hints: (r) => {
    const item = (c: QueryResult<'hints'>['constraints'][number]) => `${node({ id: c.node_id, title: c.title, kind: c.kind, source_file: c.source_file })} · via ${c.reached_via}\n  ${clip(c.content, 400)}`;
    return (
      `## Constraints (${r.constraints.length})\n${list(r.constraints, item)}\n\n## Behaviour (${r.behavior.length})\n${list(r.behavior, item)}\n\n` +
      `Resolved: ${r.resolved_entities.map((h) => `${h.matched_from} → ${h.node_id}`).join(', ') || 'nothing'} · ${r.total_items} items, ~${r.total_tokens} tokens` +
      warned(r.warnings)
    );
  },
  graph: (r) =>
    `## ${node(r.center_node)}\n\n${r.total_nodes} nodes, ${r.total_edges} edges\n\n` +
    list(r.related_nodes, (n) => `${node(n)} · distance ${n.distance} · ${edge(n.reached_via)}`),
  impact: (r) =>
    `## Impact of ${r.change_type} on ${node(r.analyzed_node)}\n\n### Directly affected (${r.total_directly_affected})\n` +
    list(r.directly_affected, (n) => `${node(n)} · ${n.edge_type}${n.implicit ? ' (implicit)' : ''}: ${n.impact}`) +
    `\n\n### Transitively affected (${r.total_transitively_affected})\n` +
    list(r.transitively_affected, (n) => `${node(n)} · ${n.path.join(' → ')}: ${n.impact}`) +
    `\n\n### Scenarios to re-run (${r.total_scenarios})\n` +
    list(r.scenarios_to_rerun, (s) => `\`${s.feature}\` ${s.scenario ?? '(whole feature)'} — ${s.name}: ${s.reason}`) +
    (r.truncated ? `\n\nMore dependents exist beyond depth ${r.depth}.` : ''),
  coverage: (r) =>
    `## Coverage of ${node(r.analyzed_node)}: ${r.coverage_percent}% (${r.present} present, ${r.missing} missing)\n\n` +
    list(r.required, (c) => `${c.status.toUpperCase()} ${c.category} — ${c.description} (${c.edge_type})${c.found.length ? `: ${c.found.join(', ')}` : ''}`),
  violations: (r) =>
    `## ${r.total_violations} layer violations in ${r.total_edges_analyzed} edges (${r.violation_rate}%)\n\n` +
    list(r.violations, (v) => `${edge(v)} — ${v.explanation} (\`${v.source_file}\`${v.section ? ` §${v.section}` : ''})`),
  health: (r) =>
    `## ${r.total_dangling} dangling links, ${r.total_orphans} orphans (${r.total_nodes} nodes, ${r.total_edges} edges)\n\n### Dangling links\n` +
    list(r.dangling, (d) => `${d.from_node} → [[${d.target}]] (\`${d.source_file}\`${d.section ? ` §${d.section}` : ''})`) +
    `\n\n### Orphans\n${list(r.orphans, node)}`,
  chunks: (r) =>
    `## ${r.metadata.total_results} passages (${r.metadata.scoring}${r.metadata.embedding_model ? `, ${r.metadata.embedding_model}` : ''})\n\n` +
    list(r.results, (c) => `${c.url} · score ${c.similarity_score.toFixed(3)}${c.node_id ? ` · ${c.node_id}` : ''}\n  ${clip(c.content, 400)}`) +
    warned(r.metadata.warnings),
  find: (r) =>
    r.matches.length
      ? list(r.matches, (m) => `${node(m)} · ${m.layer}${m.aliases.length ? ` · aliases: ${m.aliases.join(', ')}` : ''}\n  sections: ${m.headings.join(' | ') || '(none)'}`)
      : `No spec matches exactly.${r.suggestions.length ? `\n\nSearch hits:\n${list(r.suggestions, (h) => `**${h.node_id}** (${h.kind}) · ${clip(h.snippet, 160)}`)}` : ''}`,
  read_section: (r) => {
    if (r.source === 'file') return `## \`${r.path}\`${r.heading ? ` §${r.heading}` : ''}\n\n${r.text}`;
    if ('sections' in r) return `# ${r.node_id} — ${r.title}\n\n${r.sections.map((s) => `## ${s.heading}\n\n${s.text}`).join('\n\n')}`;
    return `## ${r.node_id} §${r.heading}\n\n${r.text}`;
  },
  list: (r) => `## Specs ${r.offset + 1}–${r.offset + r.nodes.length} of ${r.total}${r.next_offset !== null ? ` (next offset ${r.next_offset})` : ''}\n\n${list(r.nodes, node)}`,
  stats: (r) =>
    `## Bundle ${r.hash} (${r.index_level}, ${r.structure})\n\n` +
    `${r.counts.nodes} nodes, ${r.counts.edges} edges, ${r.counts.chunks} chunks, ${r.counts.embeddings} embeddings, ` +
    `${r.counts.layer_violations} layer violations, ${r.counts.dangling} dangling links` +
    `${r.embedding_model ? ` · model ${r.embedding_model}` : ''}${r.git_commit ? ` · commit ${r.git_commit}` : ''}${r.loaded_at ? ` · loaded ${r.loaded_at}` : ''}`,
};

export function markdownOf<N extends QueryName>(name: N, result: QueryResult<N>): string {
  return (RENDER[name] as (r: QueryResult<N>) => string)(result);
}
