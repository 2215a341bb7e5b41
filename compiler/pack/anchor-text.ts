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
  const labels = new Map<string, Label>();
  const sectionPieces = new Map<string, Piece[]>();
  for (const edge of edges) {
    const from = position.get(edge.from_node);
    const to = position.get(edge.to_node);
    if (from === undefined || to === undefined || from === to) continue;
    const set = pieces[to]!;
    if (set.size >= MAX_PIECES) continue;
    const alias = edge.metadata.display_alias;
    if (alias) set.add(alias);
    const labelKey = `${to}\u0000${alias ?? ''}`;
    let label = labels.get(labelKey);
    if (!label) labels.set(labelKey, (label = linkLabel(nodes[to]!, alias)));
    const section = edge.metadata.section;
    const source = nodes[from]!;
    for (let k = 0; k < source.sections.length && set.size < MAX_PIECES; k++) {
      if (section !== undefined && source.sections[k]!.heading !== section) continue;
      const key = `${from}\u0000${k}`;
      let list = sectionPieces.get(key);
      if (!list) sectionPieces.set(key, (list = splitPieces(source.sections[k]!.text)));
      for (const piece of list) {
        if (set.size >= MAX_PIECES) break;
        // A plain substring test first: the whole-word pattern runs only on the few pieces that can match.
        if (!label.names.some((name) => piece.lower.includes(name))) continue;
        label.pattern.lastIndex = 0;
        if (!label.pattern.test(piece.text)) continue;
        const words = piece.text.replace(label.pattern, ' ').trim();
        if (words !== '') set.add(words);
      }
    }
  }
  return pieces.map((set) => [...set].join(' \n '));
}

interface Piece {
  text: string;
  lower: string;
}

interface Label {
  /** Lower-cased names, for the substring test. */
  names: string[];
  pattern: RegExp;
}

function splitPieces(text: string): Piece[] {
  return text.split(PIECE_END).map((piece) => ({ text: piece, lower: piece.toLowerCase() }));
}

/**
 * How a link to `target` reads once rendered in a section's text: its alias, its doc id (with which
 * `BR-001-AppointmentOverlap` begins) or its title (`[[Pet]]`), as a whole word.
 */
function linkLabel(target: GraphNode, alias: string | undefined): Label {
  const names = [alias, target.doc_id, target.title].filter((name): name is string => !!name);
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${names.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}])`, 'giu');
  return { names: names.map((name) => name.toLowerCase()), pattern };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
