/**
 * Anchor text: what other documents say about a node where they link to it — each incoming link's
 * alias and the sentence or list item around it, in the linking document's own words, with the link
 * itself taken out (the target's id and title are indexed in its own fields already). Indexed as the
 * low-weight `anchor` search field of the target (runtime/search/fields.ts): the web-search signal for
 * paraphrase, since a rule titled "Appointment overlap" is "the check that one vet is never booked
 * twice" in the use case that applies it. docs/decisions/retrieval-generalization.md has the numbers.
 *
 * A pure function of the graph's nodes and edges (node order in, one string per node out): equal
 * graphs give equal anchors, and an incremental pack computes exactly what a full one does.
 */
import type { GraphEdge, GraphNode } from '../../model/graph.js';

/** Sentence ends and line breaks (a list item or table row is one line of a section's text). */
const PIECE_END = /(?<=[.!?;])\s+|\n+/u;
/** At most this many distinct pieces per target: a hub linked from everywhere must not become a bag of every word. */
const MAX_PIECES = 24;

/** One string per node (node i = position i): its incoming links' aliases and surrounding sentences, '' when none. */
export function anchorTexts(nodes: readonly GraphNode[], edges: readonly GraphEdge[]): string[] {
  const position = new Map(nodes.map((node, i) => [node.id, i]));
  const pieces = nodes.map(() => new Set<string>());
  const labels = new Map<string, RegExp>();
  for (const edge of edges) {
    const from = position.get(edge.from_node);
    const to = position.get(edge.to_node);
    if (from === undefined || to === undefined || from === to) continue;
    const set = pieces[to]!;
    if (set.size >= MAX_PIECES) continue;
    const alias = edge.metadata.display_alias;
    if (alias) set.add(alias);
    const target = nodes[to]!;
    const labelKey = `${to}\u0000${alias ?? ''}`;
    let label = labels.get(labelKey);
    if (!label) labels.set(labelKey, (label = linkLabel(target, alias)));
    const section = edge.metadata.section;
    for (const s of nodes[from]!.sections) {
      if (section !== undefined && s.heading !== section) continue;
      for (const piece of s.text.split(PIECE_END)) {
        if (set.size >= MAX_PIECES) break;
        label.lastIndex = 0;
        if (!label.test(piece)) continue;
        const words = piece.replace(label, ' ').trim();
        if (words !== '') set.add(words);
      }
    }
  }
  return pieces.map((set) => [...set].join(' \n '));
}

/**
 * How a link to `target` reads once rendered in a section's text: its alias, its doc id (with which
 * `BR-001-AppointmentOverlap` begins) or its title (`[[Pet]]`), as a whole word.
 */
function linkLabel(target: GraphNode, alias: string | undefined): RegExp {
  const names = [alias, target.doc_id, target.title].filter((name): name is string => !!name).map(escapeRegExp);
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${names.join('|')})(?![\\p{L}\\p{N}])`, 'giu');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
