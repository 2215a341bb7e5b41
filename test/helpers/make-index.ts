/**
 * Hand-made bundles for runtime tests: a node/edge list → a valid {@link Bundle}, with adjacency
 * computed the way the packer must (edges sorted by (from_node, to_node, edge_type); `outgoing`
 * and `incoming` hold ascending edge indices) and a real text-index payload.
 */
import { kindSpec } from '../../model/kinds.js';
import { encodeBundle } from '../../formats/bundle/bundle.js';
import { BUNDLE_FORMAT_VERSION, type Bundle } from '../../formats/bundle/types.js';
import type { KddIndex } from '../../runtime/kdd-index.js';
import { LAYERS, type DanglingLink, type GraphEdge, type GraphNode, type Kind, type Layer, type LayerViolation } from '../../model/graph.js';
import { buildTextIndex, restoreTextIndex } from '../../runtime/search/index.js';

export interface NodeInput {
  id: string;
  kind?: Kind;
  layer?: Layer;
  title?: string;
  source_file?: string;
  indexed_fields?: Record<string, unknown>;
  tags?: string[];
  aliases?: string[];
}

export interface EdgeInput {
  from: string;
  to: string;
  type: string;
  /** Default: BR-LAYER-001 computed from the node layers. */
  layer_violation?: boolean;
  /** Default: true for WIKI_LINK. */
  bidirectional?: boolean;
  metadata?: Record<string, string>;
}

const PREFIX_KIND: Record<string, Kind> = {
  Entity: 'entity',
  EVT: 'event',
  BR: 'business-rule',
  BP: 'business-policy',
  XP: 'cross-policy',
  CMD: 'command',
  QRY: 'query',
  PROC: 'process',
  UC: 'use-case',
  UI: 'ui-view',
  REQ: 'requirement',
  OBJ: 'objective',
  PRD: 'prd',
  ADR: 'adr',
  FEAT: 'feature',
  GLOSS: 'glossary',
};

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Kind from the id prefix (`UC:UC-001` → use-case), layer from the kind table. */
export function makeNode(input: NodeInput | string): GraphNode {
  const spec = typeof input === 'string' ? { id: input } : input;
  const [prefix, docId = spec.id] = spec.id.split(':');
  const kind = spec.kind ?? PREFIX_KIND[prefix!] ?? 'entity';
  const layer = spec.layer ?? kindSpec(kind)!.layer;
  const extension = kind === 'feature' ? 'feature' : 'md';
  return {
    id: spec.id,
    kind,
    doc_id: docId,
    title: spec.title ?? docId,
    source_file: spec.source_file ?? `${layer}/${kind}/${docId}.${extension}`,
    source_hash: '0'.repeat(64),
    layer,
    status: 'draft',
    aliases: spec.aliases ?? [],
    domain: null,
    indexed_fields: spec.indexed_fields ?? {},
    sections: [],
    tags: spec.tags ?? [],
    indexed_at: null,
  };
}

/** BR-LAYER-001: a violation when the source is above 00 and in a lower layer than the target. */
function violates(from: Layer, to: Layer): boolean {
  const value = (layer: Layer) => LAYERS.indexOf(layer);
  return value(from) > 0 && value(from) < value(to);
}

export function makeBundle(nodeInputs: ReadonlyArray<NodeInput | string>, edgeInputs: readonly EdgeInput[] = [], dangling: DanglingLink[] = []): Bundle {
  const nodes = nodeInputs.map(makeNode).sort((a, b) => cmp(a.id, b.id));
  const byId = new Map(nodes.map((node, i) => [node.id, i]));
  if (byId.size !== nodes.length) throw new Error('duplicate node id');
  const edges: GraphEdge[] = edgeInputs
    .map((e) => {
      const from = nodes[byId.get(e.from) ?? fail(e.from)]!;
      const to = nodes[byId.get(e.to) ?? fail(e.to)]!;
      return {
        from_node: e.from,
        to_node: e.to,
        edge_type: e.type,
        source_file: from.source_file,
        extraction_method: 'wiki_link' as const,
        metadata: e.metadata ?? {},
        layer_violation: e.layer_violation ?? violates(from.layer, to.layer),
        bidirectional: e.bidirectional ?? e.type === 'WIKI_LINK',
      };
    })
    .sort((a, b) => cmp(a.from_node, b.from_node) || cmp(a.to_node, b.to_node) || cmp(a.edge_type, b.edge_type));
  const outgoing: number[][] = nodes.map(() => []);
  const incoming: number[][] = nodes.map(() => []);
  edges.forEach((edge, i) => {
    outgoing[byId.get(edge.from_node)!]!.push(i);
    incoming[byId.get(edge.to_node)!]!.push(i);
  });
  const layer_violations: LayerViolation[] = edges
    .filter((edge) => edge.layer_violation)
    .map((edge) => ({
      from_node: edge.from_node,
      to_node: edge.to_node,
      from_layer: nodes[byId.get(edge.from_node)!]!.layer,
      to_layer: nodes[byId.get(edge.to_node)!]!.layer,
      edge_type: edge.edge_type,
      source_file: edge.source_file,
    }));
  return {
    format: BUNDLE_FORMAT_VERSION,
    manifest: {
      version: '1.0.0',
      kdd_version: '1.0',
      index_level: 'L1',
      structure: 'single-domain',
      domains: [],
      embedding_model: null,
      embedding_dimensions: null,
      indexed_at: null,
      indexed_by: null,
      git_commit: null,
      stats: { nodes: nodes.length, edges: edges.length, embeddings: 0, enrichments: 0 },
      sources: Object.fromEntries(nodes.map((node) => [node.source_file, node.source_hash]).sort((a, b) => cmp(a[0]!, b[0]!))),
    },
    nodes,
    edges,
    outgoing,
    incoming,
    layer_violations,
    dangling: [...dangling].sort((a, b) => cmp(a.from_node, b.from_node) || cmp(a.target, b.target)),
    unresolved_ids: [],
    search: buildTextIndex(nodes),
    chunks: [],
    vectors: null,
  };
}

function fail(id: string): never {
  throw new Error(`edge names unknown node ${id}`);
}

/** Synchronous in-memory index (no hashing): what `loadIndex` would build from the same bundle. */
export function indexOf(bundle: Bundle): KddIndex {
  return {
    bundle,
    hash: 'test',
    nodeIndex: new Map(bundle.nodes.map((node, i) => [node.id, i])),
    text: restoreTextIndex(bundle.search, bundle.nodes),
    vectors: null,
  };
}

export function makeIndex(nodes: ReadonlyArray<NodeInput | string>, edges: readonly EdgeInput[] = [], dangling: DanglingLink[] = []): KddIndex {
  return indexOf(makeBundle(nodes, edges, dangling));
}

export function bundleBytes(bundle: Bundle): Uint8Array {
  return encodeBundle(bundle);
}

/** The index of retrieve-impact.feature (Antecedentes), plus nothing else. */
export function impactFeatureIndex(): KddIndex {
  return makeIndex(
    ['Entity:KDDDocument', 'BR:BR-DOCUMENT-001', 'UC:UC-001', 'CMD:CMD-001'],
    [
      { from: 'BR:BR-DOCUMENT-001', type: 'ENTITY_RULE', to: 'Entity:KDDDocument' },
      { from: 'UC:UC-001', type: 'UC_APPLIES_RULE', to: 'BR:BR-DOCUMENT-001' },
      { from: 'UC:UC-001', type: 'UC_EXECUTES_CMD', to: 'CMD:CMD-001' },
      { from: 'CMD:CMD-001', type: 'WIKI_LINK', to: 'Entity:KDDDocument' },
    ],
  );
}
