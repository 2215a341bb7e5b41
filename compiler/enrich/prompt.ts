/**
 * The enrichment prompt (UC-003 step 4), versioned: any change to the wording or to what is sent
 * must bump {@link PROMPT_VERSION}, which is part of the cache key, so cached enrichments made
 * with an older prompt are re-sent by `kdd enrich --all`.
 *
 * What is sent: the node's source document (verbatim, capped), and its graph context: 1-hop
 * neighbours (id, kind, layer, title, edge types and direction) plus nodes the document mentions
 * by title or id without linking them, the likeliest implicit relations. Authored edges only: a
 * neighbourhood that included agent edges would change whenever another node is enriched and
 * defeat the cache.
 */
import { createHash } from 'node:crypto';
import { IMPLICIT_RELATION_TYPES, isAgentEdge } from '../../model/enrichment.js';
import type { GraphEdge, GraphNode } from '../../model/graph.js';
import { stableJson } from '../../formats/canonical.js';
import { compareCodeUnits } from '../../model/order.js';

export const PROMPT_VERSION = 'kdd-enrich/1';

/** Documents longer than this are cut (with a note): bounded cost per request. */
export const MAX_DOCUMENT_CHARS = 60_000;
const MAX_NEIGHBOURS = 60;
const MAX_MENTIONS = 40;

export interface NeighbourRef {
  id: string;
  kind: string;
  layer: string;
  title: string;
  /** `out:EMITS` (this node → neighbour) or `in:ENTITY_RULE` (neighbour → this node), sorted. */
  edges: string[];
}

export interface MentionRef {
  id: string;
  kind: string;
  title: string;
}

/** The graph part of the prompt; its canonical JSON hash is the neighbourhood hash. */
export interface GraphContext {
  node: { id: string; kind: string; layer: string; title: string; source_file: string };
  neighbours: NeighbourRef[];
  mentioned: MentionRef[];
}

export interface PromptInput {
  context: GraphContext;
  /** The source document's text. */
  document: string;
}

export interface Prompt {
  system: string;
  user: string;
}

/** 1-hop neighbours over authored edges and unlinked mentions, sorted and capped. */
export function graphContext(node: GraphNode, nodes: readonly GraphNode[], edges: readonly GraphEdge[], document: string): GraphContext {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const links = new Map<string, Set<string>>();
  for (const edge of edges) {
    if (isAgentEdge(edge)) continue;
    const other = edge.from_node === node.id ? edge.to_node : edge.to_node === node.id ? edge.from_node : null;
    if (other === null || other === node.id || !byId.has(other)) continue;
    const set = links.get(other) ?? new Set<string>();
    set.add(`${edge.from_node === node.id ? 'out' : 'in'}:${edge.edge_type}`);
    links.set(other, set);
  }
  const neighbours = [...links.entries()]
    .sort(([a], [b]) => compareCodeUnits(a, b))
    .slice(0, MAX_NEIGHBOURS)
    .map(([id, set]) => {
      const n = byId.get(id)!;
      return { id, kind: n.kind, layer: n.layer, title: n.title, edges: [...set].sort(compareCodeUnits) };
    });
  return { node: { id: node.id, kind: node.kind, layer: node.layer, title: node.title, source_file: node.source_file }, neighbours, mentioned: mentions(node, nodes, links, document) };
}

/** Nodes whose title, doc id or alias appears as a whole word in the document but are not linked. */
function mentions(node: GraphNode, nodes: readonly GraphNode[], linked: ReadonlyMap<string, unknown>, document: string): MentionRef[] {
  const normal = (value: string) => value.toLowerCase().replace(/[^\p{L}\p{N}-]+/gu, ' ').trim();
  const text = ` ${normal(document)} `;
  const words = new Set(text.split(' '));
  const out: MentionRef[] = [];
  for (const other of nodes) {
    if (other.id === node.id || linked.has(other.id)) continue;
    const names = [other.title, other.doc_id, ...other.aliases].map(normal).filter((name) => name.length >= 4);
    // The word-set test first: a full-text scan per node pair would be quadratic in corpus size.
    if (names.some((name) => words.has(name.split(' ')[0]!) && text.includes(` ${name} `))) out.push({ id: other.id, kind: other.kind, title: other.title });
  }
  return out.sort((a, b) => compareCodeUnits(a.id, b.id)).slice(0, MAX_MENTIONS);
}

export function neighbourhoodHash(context: GraphContext): string {
  return sha256(stableJson(context));
}

/** (source hash, neighbourhood hash, prompt version, provider:model) → the cache key. */
export function cacheKey(sourceHash: string, neighbourhood: string, model: string): string {
  return sha256(JSON.stringify([sourceHash, neighbourhood, PROMPT_VERSION, model]));
}

const SYSTEM = [
  'You analyse one document of a KDD specification (Knowledge-Driven Development: entities, events,',
  'business rules, commands, use cases, requirements…) and enrich the index built from it.',
  'Answer with ONE JSON object and nothing else: no prose, no Markdown fences.',
].join(' ');

/** The request: the schema first, then the graph context, then the document. */
export function buildPrompt(input: PromptInput): Prompt {
  const { context } = input;
  const document = input.document.length > MAX_DOCUMENT_CHARS ? `${input.document.slice(0, MAX_DOCUMENT_CHARS)}\n[… document cut at ${MAX_DOCUMENT_CHARS} characters]` : input.document;
  const user = [
    `Node to enrich: ${context.node.id} (kind ${context.node.kind}, layer ${context.node.layer}, title "${context.node.title}").`,
    '',
    'Return exactly this JSON shape:',
    '{',
    '  "summary": "2-4 sentences: what this artefact is and why it matters, in the language of the document",',
    '  "implicit_relations": [',
    '    { "target": "<node id>", "relation_type": "<type>", "confidence": 0.0, "evidence": "<the sentence of the document that supports it>" }',
    '  ],',
    '  "impact_notes": ["which other artefacts a change to this node could affect, and why"]',
    '}',
    '',
    'Rules:',
    `- relation_type is one of: ${IMPLICIT_RELATION_TYPES.join(', ')}. The relation reads "${context.node.id} <relation_type> <target>".`,
    '- Only relations the document implies but does not state as a link; never repeat an existing edge listed below.',
    '- target must be a node id listed below (neighbours or mentioned nodes), written exactly; anything else is discarded.',
    '- confidence is a number from 0 to 1; evidence quotes the document (at most one sentence).',
    '- At most 10 relations and 8 impact notes. Use [] when there is nothing to add.',
    '',
    'Graph context (JSON):',
    JSON.stringify({ neighbours: context.neighbours, mentioned_without_link: context.mentioned }, null, 1),
    '',
    `Document ${context.node.source_file}:`,
    '<<<DOCUMENT',
    document,
    'DOCUMENT>>>',
  ].join('\n');
  return { system: SYSTEM, user };
}

/** One text for agents that read a single prompt on stdin (`--agent-cmd`). */
export function promptText(prompt: Prompt): string {
  return `${prompt.system}\n\n${prompt.user}\n`;
}

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
