/**
 * What a user types for a node → the node id the queries take. `kdd graph UC-005`,
 * `kdd impact Tombstone`, `kdd coverage "kdd merge"`, `kdd hints specs/01-domain/entities/Bundle.md`:
 * the node-taking queries (graph, impact, coverage, hints) accept only `Prefix:DocId`, which users
 * rarely type. Pure and isomorphic (no Node-only imports). The query registry (registry.ts) calls
 * it for every node parameter before the query runs, so every door — library, CLI, HTTP, MCP —
 * resolves the same way, and the queries themselves stay strict.
 *
 * Order: the node id itself; then the text index's exact keys (doc id, title, alias, file name,
 * compared folded: case and accents ignored); then a path's file name without folders and
 * extension. When a key names several nodes, the one whose `doc_id` equals the reference wins
 * (`UC-005` → `UC:UC-005` even if a title says "UC-005"); a reference that stays ambiguous or
 * names nothing is returned unchanged, so the query reports NODE_NOT_FOUND for what was typed.
 */
import type { KddIndex } from '../kdd-index.js';
import { fold } from '../search/tokenizer.js';

export function resolveNodeRef(index: KddIndex, ref: string): string {
  const text = ref.trim();
  if (text === '' || index.nodeIndex.has(text)) return text === '' ? ref : text;
  const found = findNodes(index, text);
  return found.length === 1 ? index.bundle.nodes[found[0]!]!.id : ref;
}

/**
 * Every node a reference could mean, by the order above (positions in `bundle.nodes`): one when
 * it is unambiguous, several when a name is shared, none when nothing matches.
 */
export function findNodes(index: KddIndex, ref: string): number[] {
  const text = ref.trim();
  const exact = index.nodeIndex.get(text);
  if (exact !== undefined) return [exact];
  const nodes = index.bundle.nodes;
  let found = index.text.lookup(text);
  if (found.length === 0 && /[/\\.]/.test(text)) {
    const file = text.slice(Math.max(text.lastIndexOf('/'), text.lastIndexOf('\\')) + 1);
    found = index.text.lookup(file.replace(/\.(md|markdown|feature)$/i, ''));
    // A path that names one node's source file exactly beats a file-name match.
    const path = text.replace(/\\/g, '/');
    const exactFile = nodes.findIndex((node) => node.source_file !== '' && (path === node.source_file || path.endsWith(`/${node.source_file}`)));
    if (exactFile >= 0 && (found.length !== 1 || found[0] !== exactFile)) found = [exactFile];
  }
  const unique = [...new Set(found)];
  if (unique.length <= 1) return unique;
  const byDocId = unique.filter((i) => fold(nodes[i]!.doc_id) === fold(text));
  return byDocId.length === 1 ? byDocId : unique;
}

/** {@link resolveNodeRef} for a list (`hints` takes several references). */
export function resolveNodeRefs(index: KddIndex, refs: readonly string[]): string[] {
  return refs.map((ref) => resolveNodeRef(index, ref));
}
