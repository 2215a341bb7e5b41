/**
 * Tables derived once per bundle, and the lookups the queries make in them: node positions, edge
 * types present, references as documents write them (internal: not re-exported from the package).
 */
import type { Bundle } from '../../formats/bundle/types.js';
import { createError } from '../../model/errors.js';
import { STRUCTURAL_EDGE_TYPES } from '../../model/graph.js';
import { compareCodeUnits } from '../../model/order.js';
import type { KddIndex } from '../kdd-index.js';

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

const presentEdgeTypes = perBundle(({ bundle }) => Object.freeze([...new Set(bundle.edges.map((edge) => edge.edge_type))].sort(compareCodeUnits)));

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
  docIds.sort((a, b) => b[0].length - a[0].length || compareCodeUnits(a[0], b[0]));
  return { byKey: byKey as ReadonlyMap<string, number>, docIds: docIds as readonly (readonly [string, number])[] };
});
