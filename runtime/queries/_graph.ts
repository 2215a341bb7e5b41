/**
 * Graph helpers shared by the queries (internal: not re-exported from the package).
 */
import type { Bundle } from '../../formats/bundle/types.js';
import { isAgentEdge, isImplicitEdgeType } from '../../model/enrichment.js';
import { createError } from '../../model/errors.js';
import type { KddIndex } from '../kdd-index.js';
import { STRUCTURAL_EDGE_TYPES, type GraphEdge, type GraphNode } from '../../model/graph.js';

/**
 * Memoises a structure derived from the bundle alone, built on first use and kept as long as the
 * bundle lives (a WeakMap, so a dropped index frees it). `derive` may read the index's other
 * fields (`nodeIndex`), which are themselves functions of the bundle. Queries stay pure: the bundle
 * is never written to, and the derived value is a function of it, so first and later calls agree.
 */
export function perBundle<T>(derive: (index: KddIndex) => T): (index: KddIndex) => T {
  const cache = new WeakMap<Bundle, T>();
  return (index) => {
    let value = cache.get(index.bundle);
    if (value === undefined) cache.set(index.bundle, (value = derive(index)));
    return value;
  };
}

/** Position of `id` in `bundle.nodes`, or NODE_NOT_FOUND. */
export function requireNode(index: KddIndex, id: string): number {
  const position = index.nodeIndex.get(id);
  if (position === undefined) throw createError('NODE_NOT_FOUND', { node_id: id });
  return position;
}

/**
 * How specific an edge type is, lower first: typed structural edges (ENTITY_RULE, EMITS…), then
 * business relations (`pertenece_a`), then the generic WIKI_LINK, then the implicit
 * LAYER_DEPENDENCY the compiler derives from layers alone, then the `IMPLICIT_*` edges an agent
 * proposed (L3, #9). When a pair of nodes is joined by both a WIKI_LINK and a typed edge, the typed
 * one is the one worth reporting; an agent's guess never explains a path an author stated.
 */
export function edgeRank(edgeType: string): number {
  if (isImplicitEdgeType(edgeType)) return 4;
  if (edgeType === 'LAYER_DEPENDENCY') return 3;
  if (edgeType === 'WIKI_LINK') return 2;
  return (STRUCTURAL_EDGE_TYPES as readonly string[]).includes(edgeType) ? 0 : 1;
}

/** Orders edges most specific first, then by type name, for deterministic "best edge" choices. */
export function compareEdges(a: GraphEdge, b: GraphEdge): number {
  return edgeRank(a.edge_type) - edgeRank(b.edge_type) || cmp(a.edge_type, b.edge_type);
}

/** Code-unit string comparison (locale-independent, so order is the same everywhere). */
export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The compact node shape shared by query answers. */
export interface NodeRef {
  id: string;
  kind: GraphNode['kind'];
  title: string;
  layer: GraphNode['layer'];
  source_file: string;
}

export function nodeRef(node: GraphNode): NodeRef {
  return { id: node.id, kind: node.kind, title: node.title, layer: node.layer, source_file: node.source_file };
}

/** An edge as answers show it (the stored direction, whatever direction it was walked in). */
export interface EdgeRef {
  from_node: string;
  to_node: string;
  edge_type: string;
  /** Present (true) only on edges an agent proposed (L3 enrichment, `IMPLICIT_*`); absent otherwise. */
  implicit?: true;
  /** The agent's confidence (0–1), on implicit edges only. */
  confidence?: number;
}

export function edgeRef(edge: GraphEdge): EdgeRef {
  const ref: EdgeRef = { from_node: edge.from_node, to_node: edge.to_node, edge_type: edge.edge_type };
  return isAgentEdge(edge) ? { ...ref, ...implicitMark(edge) } : ref;
}

/** `{ implicit: true, confidence }` for an agent edge (spread into answers), `{}` otherwise. */
export function implicitMark(edge: GraphEdge): { implicit?: true; confidence?: number } {
  if (!isAgentEdge(edge)) return {};
  const confidence = Number(edge.metadata.confidence);
  return Number.isFinite(confidence) ? { implicit: true, confidence } : { implicit: true };
}

const presentEdgeTypes = perBundle(({ bundle }) => Object.freeze([...new Set(bundle.edges.map((edge) => edge.edge_type))].sort(cmp)));

/** Every edge type present in the bundle, sorted (structural and business). */
export function edgeTypesIn(index: KddIndex): string[] {
  return [...presentEdgeTypes(index)];
}

/**
 * Resolves an edge-type name as a user typed it: structural types match ignoring case
 * (`emits` → `EMITS`, the PRD writes them lower-case), business relations match as written or
 * ignoring case against those present in the index. Unknown → INVALID_EDGE_TYPE.
 */
export function resolveEdgeType(index: KddIndex, name: string): string {
  const upper = name.toUpperCase();
  const structural = (STRUCTURAL_EDGE_TYPES as readonly string[]).find((t) => t === upper);
  if (structural) return structural;
  const present = presentEdgeTypes(index);
  const found = present.find((t) => t === name) ?? present.find((t) => t.toLowerCase() === name.toLowerCase());
  if (found === undefined) throw createError('INVALID_EDGE_TYPE', { edge_type: name });
  return found;
}

/**
 * Resolves a reference as written in a document or a Gherkin scenario (`UC-001-IndexDocument`,
 * `[[KDDDocument]]`, `@BR-DOCUMENT-001`, `UC:UC-001`) to a node position: by id, doc id, file
 * name, title or alias, then by the longest doc id the reference starts with.
 */
export function makeReferenceResolver(index: KddIndex): (reference: string) => number | undefined {
  const { byKey, docIds } = referenceTables(index);
  return (reference) => {
    const key = reference
      .replace(/^\[\[|\]\]$/g, '')
      .replace(/^@/, '')
      .replace(/[|#].*$/, '')
      .trim()
      .toLowerCase();
    if (key === '') return undefined;
    const exact = byKey.get(key);
    if (exact !== undefined) return exact;
    return docIds.find(([docId]) => key.startsWith(`${docId}-`))?.[1];
  };
}

/** Lower-cased keys → first node position, and doc ids longest first (built once per bundle). */
const referenceTables = perBundle(({ bundle }) => {
  const byKey = new Map<string, number>();
  const docIds: Array<[string, number]> = [];
  bundle.nodes.forEach((node, i) => {
    const file = node.source_file.slice(node.source_file.lastIndexOf('/') + 1).replace(/\.(md|feature)$/, '');
    for (const key of [node.id, node.doc_id, file, node.title, ...node.aliases]) {
      const k = key.toLowerCase();
      if (!byKey.has(k)) byKey.set(k, i);
    }
    docIds.push([node.doc_id.toLowerCase(), i]);
  });
  docIds.sort((a, b) => b[0].length - a[0].length || cmp(a[0], b[0]));
  return { byKey: byKey as ReadonlyMap<string, number>, docIds: docIds as readonly (readonly [string, number])[] };
});

/** Rounds to one decimal, as the spec prints percentages (`75.0`, `0.8`). */
export function percent(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10;
}
