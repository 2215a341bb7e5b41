/** fast-check arbitrary: small random indexes with real text sections, layers and flagged edges. */
import fc from 'fast-check';
import type { Bundle } from '../../../formats/bundle/types.js';
import type { KddIndex } from '../../../runtime/kdd-index.js';
import type { GraphEdge, GraphNode, Kind, Layer } from '../../../model/graph.js';
import { buildTextIndex, restoreTextIndex } from '../../../runtime/search/index.js';

export const WORDS = ['pedido', 'order', 'regla', 'rule', 'precio', 'price', 'cliente', 'customer', 'merge', 'fusión', 'índice', 'index', 'capa', 'layer', 'evento', 'event', 'comando', 'command', 'conflict', 'borrar'];
const KINDS: readonly [string, Kind, Layer][] = [
  ['Entity', 'entity', '01-domain'],
  ['BR', 'business-rule', '01-domain'],
  ['EVT', 'event', '01-domain'],
  ['CMD', 'command', '02-behavior'],
  ['UC', 'use-case', '02-behavior'],
  ['REQ', 'requirement', '04-verification'],
];
const TYPES = ['WIKI_LINK', 'ENTITY_RULE', 'EMITS', 'UC_APPLIES_RULE', 'UC_EXECUTES_CMD', 'VALIDATES'];
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function makeTextNode(id: string, kind: Kind, layer: Layer, title: string, sections: [string | null, string][]): GraphNode {
  return {
    id,
    kind,
    doc_id: id.slice(id.indexOf(':') + 1),
    title,
    source_file: `${layer}/${id.replace(':', '-')}.md`,
    source_hash: '0'.repeat(64),
    layer,
    status: 'draft',
    aliases: [],
    domain: null,
    indexed_fields: Object.fromEntries(sections.map(([f, t], i) => [f ?? `s${i}`, t])),
    sections: sections.map(([field, text], i) => ({ heading: field ?? `Section ${i}`, depth: 2, field, text })),
    tags: [],
    indexed_at: null,
  };
}

/** Sorts nodes and edges, builds adjacency and the text index: a KddIndex as load.ts would. */
export function indexFrom(nodes: GraphNode[], edges: GraphEdge[]): KddIndex {
  const sortedNodes = [...nodes].sort((a, b) => cmp(a.id, b.id));
  const sortedEdges = [...edges].sort((a, b) => cmp(a.from_node, b.from_node) || cmp(a.to_node, b.to_node) || cmp(a.edge_type, b.edge_type));
  const nodeIndex = new Map(sortedNodes.map((n, i) => [n.id, i]));
  const outgoing = sortedNodes.map(() => [] as number[]);
  const incoming = sortedNodes.map(() => [] as number[]);
  sortedEdges.forEach((e, i) => {
    outgoing[nodeIndex.get(e.from_node)!]!.push(i);
    incoming[nodeIndex.get(e.to_node)!]!.push(i);
  });
  const bundle: Bundle = {
    format: 1,
    manifest: {
      version: '1.0.0', kdd_version: '1.0', index_level: 'L1', structure: 'single-domain', domains: [], embedding_model: null, embedding_dimensions: null,
      indexed_at: null, indexed_by: null, git_commit: null, stats: { nodes: sortedNodes.length, edges: sortedEdges.length, embeddings: 0, enrichments: 0 }, sources: {},
    },
    nodes: sortedNodes,
    edges: sortedEdges,
    outgoing,
    incoming,
    layer_violations: [],
    dangling: [],
    unresolved_ids: [],
    search: buildTextIndex(sortedNodes),
    chunks: [],
    vectors: null,
  };
  return { bundle, hash: '000000000000', nodeIndex, text: restoreTextIndex(bundle.search, bundle.nodes), vectors: null };
}

const sentence = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 12 }).map((w) => w.join(' '));

export function arbitraryIndex(): fc.Arbitrary<KddIndex> {
  return fc
    .uniqueArray(fc.tuple(fc.integer({ min: 0, max: KINDS.length - 1 }), fc.integer({ min: 1, max: 9 })), { minLength: 1, maxLength: 12, selector: ([k, n]) => `${k}-${n}` })
    .chain((specs) => {
      const ids = specs.map(([k, n]) => {
        const [prefix] = KINDS[k]!;
        return prefix === 'Entity' ? `Entity:Thing${n}` : prefix === 'EVT' ? `EVT:EVT-Thing${n}-Done` : `${prefix}:${prefix}-00${n}`;
      });
      return fc.record({
        texts: fc.array(fc.tuple(sentence, sentence, sentence), { minLength: ids.length, maxLength: ids.length }),
        edges: fc.uniqueArray(fc.tuple(fc.constantFrom(...ids), fc.constantFrom(...ids), fc.constantFrom(...TYPES), fc.boolean()), { maxLength: 25, selector: ([a, b, t]) => `${a}|${b}|${t}` }),
      }).map(({ texts, edges }) => {
        const nodes = specs.map(([k], i) => {
          const [, kind, layer] = KINDS[k]!;
          const [title, primary, body] = texts[i]!;
          return makeTextNode(ids[i]!, kind, layer, title, [['description', primary], [null, body]]);
        });
        const graphEdges: GraphEdge[] = edges
          .filter(([a, b]) => a !== b)
          .map(([from, to, type, violation]) => ({ from_node: from, to_node: to, edge_type: type, source_file: 'x.md', extraction_method: 'wiki_link', metadata: {}, layer_violation: violation, bidirectional: false }));
        return indexFrom(nodes, graphEdges);
      });
    });
}

export const arbitraryQuery = fc.array(fc.constantFrom(...WORDS, 'BR-001', 'CMD-002', 'Entity:Thing3', 'ThingN'), { minLength: 1, maxLength: 4 }).map((w) => w.join(' ')).filter((q) => q.trim().length >= 3);
