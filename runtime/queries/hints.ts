/**
 * QRY-007 RetrieveContext — the context amplifier (`kdd_context`): given hints an agent has at hand
 * (file paths, entity names, ids, keywords), return the KDD artefacts that constrain or guide the
 * change it is about to make. Hard constraints (rules, policies, requirements, entity invariants)
 * come before behaviour (commands, use cases, queries, events…), nearest first, within a token budget.
 *
 * Steps (QRY-007 Algorithm): 1. resolve each hint (exact id → file basename → keyword search);
 * 2. walk the graph from the resolved nodes (`depth` hops, both directions, never over a
 * layer-violating edge); 3. extract each node's content from `indexed_fields` by kind;
 * 4. sort by kind priority and distance, and cut at `max_tokens`.
 */
import { createError, type KddWarning, warning } from '../../model/errors.js';
import type { KddIndex } from '../kdd-index.js';
import type { GraphNode, Kind } from '../../model/graph.js';
import { fuse } from '../search/fuse.js';
import { splitCamel } from '../search/tokenizer.js';
import { createBudget, estimateJsonTokens, take, truncateToTokens } from '../tokens.js';
import { intParam, paramsObject, requireIndex, stringListParam, type RawParams } from '../validate.js';
import type { ParamsSpec } from '../param-spec.js';
import { depthParam } from './_params.js';
import { CONSTRAINT_MAX_PRIORITY, kindSpec, OTHER_PRIORITY } from '../../model/kinds.js';
import { compareBySpecificity } from '../../model/edges.js';

export interface HintsParams {
  /** File paths, entity names, ids or keywords (at least one). */
  hints: string[];
  /** Graph hops from each resolved node, 1–3. Default 1. */
  depth?: number;
  /** Token budget of the answer. Default 4000. */
  max_tokens?: number;
}

export type MatchMethod = 'id' | 'name' | 'basename' | 'keyword';

export interface ResolvedHint {
  node_id: string;
  matched_from: string;
  match_method: MatchMethod;
}

export interface ContextItem {
  node_id: string;
  kind: Kind;
  title: string;
  content: string;
  source_file: string;
  /** `Entity:Pedido -> ENTITY_RULE -> BR:BR-PRECIO-001` (the node itself when it was a hint). */
  reached_via: string;
  tokens: number;
}

export interface HintsResult {
  constraints: ContextItem[];
  behavior: ContextItem[];
  resolved_entities: ResolvedHint[];
  warnings: KddWarning[];
  total_items: number;
  total_tokens: number;
}

export const HINTS_DEFAULTS = { depth: 1, max_tokens: 4000 } as const;

/** QRY-007's parameters (validated below with these very objects; docs/queries.md). */
export const HINTS_PARAMS = {
  hints: {
    type: 'list',
    required: true,
    minItems: 1,
    code: 'EMPTY_HINTS',
    description: 'What you have at hand: file paths, entity names, ids or keywords (at least one).',
    cli: { positional: 'rest' },
  },
  depth: depthParam(3, HINTS_DEFAULTS.depth, 'Graph hops from each resolved hint.'),
  max_tokens: { type: 'integer', min: 1, default: HINTS_DEFAULTS.max_tokens, description: 'Token budget of the answer.' },
} as const satisfies ParamsSpec;

/** One item never takes more than this, so a long document cannot eat the whole budget. */
const ITEM_MAX_TOKENS = 400;
/** Keyword hints resolve to the best matches down to this share of the best score. */
const KEYWORD_MIN_SCORE = 0.8;
const KEYWORD_MAX_NODES = 3;

export function hints(index: KddIndex, params: HintsParams | RawParams): HintsResult {
  requireIndex(index);
  const raw = params as RawParams;
  const given = paramsObject(raw).hints;
  if (given === undefined || given === null || (Array.isArray(given) && given.every((h) => typeof h === 'string' && h.trim() === ''))) {
    throw createError('EMPTY_HINTS', {});
  }
  const list = stringListParam(raw, 'hints', HINTS_PARAMS.hints);
  const depth = intParam(raw, 'depth', HINTS_PARAMS.depth);
  const maxTokens = intParam(raw, 'max_tokens', HINTS_PARAMS.max_tokens);

  const warnings: KddWarning[] = [];
  const resolved: ResolvedHint[] = [];
  for (const hint of list) {
    const found = resolveHint(index, hint);
    if (found.length === 0) warnings.push({ code: 'NODE_NOT_FOUND', message: `No match found for hint: '${hint}'` });
    for (const r of found) if (!resolved.some((x) => x.node_id === r.node_id)) resolved.push(r);
  }

  const reached = discover(index, resolved.map((r) => index.nodeIndex.get(r.node_id)!), depth);
  const ordered = [...reached.values()].sort(
    (a, b) => priority(index, a.node) - priority(index, b.node) || a.hops - b.hops || a.node - b.node,
  );
  const budget = createBudget(maxTokens);
  const constraints: ContextItem[] = [];
  const behavior: ContextItem[] = [];
  for (const r of ordered) {
    const node = index.bundle.nodes[r.node]!;
    const item: ContextItem = {
      node_id: node.id,
      kind: node.kind,
      title: node.title,
      content: truncateToTokens(contentOf(node), ITEM_MAX_TOKENS),
      source_file: node.source_file,
      reached_via: r.via,
      tokens: 0,
    };
    item.tokens = estimateJsonTokens(item);
    if (!take(budget, item.tokens)) break;
    (priority(index, r.node) <= CONSTRAINT_MAX_PRIORITY ? constraints : behavior).push(item);
  }
  if (budget.exceeded) warnings.push(warning('TOKEN_LIMIT_EXCEEDED', { max_tokens: maxTokens }));
  return {
    constraints,
    behavior,
    resolved_entities: resolved,
    warnings,
    total_items: constraints.length + behavior.length,
    total_tokens: budget.used,
  };
}

function priority(index: KddIndex, node: number): number {
  return kindSpec(index.bundle.nodes[node]!.kind)?.hints?.priority ?? OTHER_PRIORITY;
}

/** Exact id, then name/alias/file name, then the basename of a path, then keyword search. */
function resolveHint(index: KddIndex, hint: string): ResolvedHint[] {
  const text = hint.trim();
  const exact = index.nodeIndex.get(text);
  if (exact !== undefined) return [{ node_id: text, matched_from: hint, match_method: 'id' }];
  const named = index.text.lookup(text);
  if (named.length > 0) {
    return named.map((n) => {
      const node = index.bundle.nodes[n]!;
      // An entity's doc id is its name: call that a name match, keep `id` for CMD-001-like ids.
      const byId = node.doc_id.toLowerCase() === text.toLowerCase() && node.doc_id !== node.title;
      return { node_id: node.id, matched_from: hint, match_method: byId ? 'id' : 'name' };
    });
  }
  if (/[/\\.]/.test(text)) {
    const file = text.slice(Math.max(text.lastIndexOf('/'), text.lastIndexOf('\\')) + 1);
    const base = file.includes('.') ? file.slice(0, file.indexOf('.')) : file;
    // `index-manifest.ts` names `IndexManifest`: compare without separators too.
    const byBase = index.text.lookup(base).length > 0 ? index.text.lookup(base) : index.text.lookup(base.replace(/[-_\s]+/g, ''));
    if (byBase.length > 0) return byBase.map((n) => ({ node_id: index.bundle.nodes[n]!.id, matched_from: hint, match_method: 'basename' }));
    // `order-service.ts`, `PedidoRepository.ts` → words for the keyword search below.
    const words = base.split(/[-_.\s]+/).flatMap(splitCamel).join(' ');
    return keyword(index, words, hint);
  }
  return keyword(index, text, hint);
}

function keyword(index: KddIndex, text: string, hint: string): ResolvedHint[] {
  if (text.trim().length < 3) return [];
  const { candidates } = fuse(index, text, { expandGraph: false, depth: 1, respectLayers: true });
  return candidates
    .filter((c) => c.score >= KEYWORD_MIN_SCORE)
    .slice(0, KEYWORD_MAX_NODES)
    .map((c) => ({ node_id: index.bundle.nodes[c.node]!.id, matched_from: hint, match_method: 'keyword' as const }));
}

interface Reached {
  node: number;
  hops: number;
  via: string;
}

/**
 * Breadth-first from the resolved nodes. The `reached_via` label names the most specific edge, as
 * `graph` and `impact` do: a typed edge before a wiki-link, an authored edge before an agent's guess.
 */
function discover(index: KddIndex, starts: number[], depth: number): Map<number, Reached> {
  const { bundle } = index;
  const reached = new Map<number, Reached>();
  for (const s of [...new Set(starts)].sort((a, b) => a - b)) reached.set(s, { node: s, hops: 0, via: bundle.nodes[s]!.id });
  let frontier = [...reached.keys()];
  for (let hop = 1; hop <= depth && frontier.length > 0; hop++) {
    const next = new Map<number, Reached>();
    for (const u of frontier) {
      const edges = [...(bundle.outgoing[u] ?? []), ...(bundle.incoming[u] ?? [])].map((e) => bundle.edges[e]!);
      edges.sort(compareBySpecificity);
      for (const edge of edges) {
        if (edge.layer_violation || edge.edge_type === 'LAYER_DEPENDENCY') continue;
        const otherId = edge.from_node === bundle.nodes[u]!.id ? edge.to_node : edge.from_node;
        const v = index.nodeIndex.get(otherId);
        if (v === undefined || reached.has(v) || next.has(v)) continue;
        next.set(v, { node: v, hops: hop, via: `${reached.get(u)!.via} -> ${edge.edge_type} -> ${otherId}` });
      }
    }
    for (const [v, r] of next) reached.set(v, r);
    frontier = [...next.keys()].sort((a, b) => a - b);
  }
  return reached;
}


/** The text an agent needs from a node: kind-specific fields, else the first sections. */
function contentOf(node: GraphNode): string {
  const parts: string[] = [];
  for (const field of kindSpec(node.kind)?.hints?.content ?? []) {
    const text = plain(node.indexed_fields[field]);
    if (text) parts.push(text);
  }
  if (parts.length === 0) {
    for (const s of node.sections) if (s.text.trim()) parts.push(s.text.trim());
  }
  return parts.join('\n').replace(/\n{3,}/g, '\n\n') || node.title;
}

function plain(value: unknown): string {
  if (typeof value === 'string') return value.trim();
  if (Array.isArray(value)) return value.map((v) => `- ${plain(v)}`).filter((s) => s !== '- ').join('\n');
  if (value && typeof value === 'object') return Object.keys(value).sort().map((k) => `${k}: ${plain((value as Record<string, unknown>)[k])}`).join('; ');
  return value === null || value === undefined ? '' : String(value);
}
