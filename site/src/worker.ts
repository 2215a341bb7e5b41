/**
 * The query worker: every runtime call runs here, so typing never waits on a query.
 *
 * Search answers from the site sub-bundle (`kdd-site.json`, a few small shards per query) when it
 * was derived from the bundle `kdd.json` names; otherwise from the full bundle. Node, graph,
 * impact, violations and health pages need the whole graph: the full bundle is fetched the first
 * time one of them opens (content-hashed, so the browser caches it for good).
 */
import { Packr } from 'msgpackr';
import { fetchIndex, parsePointer, POINTER_FILE } from '../../runtime/load.js';
import type { KddIndex } from '../../runtime/kdd-index.js';
import { KINDS, LAYERS, type GraphEdge } from '../../model/graph.js';
import { baseName } from '../../runtime/search/fields.js';
import { createDocLoader } from './docs.js';
import { SITE_FORMAT, SITE_POINTER_FILE, type SearchMeta, type SitePointer } from './format.js';
import type { EdgeView, Info, InitMessage, NodeView, RequestMessage, RequestType, Requests, ResponseMessage, SearchAnswer, SearchRequest } from './protocol.js';
import { rank, snippetOf } from './search/rank.js';
import { ShardedSearch } from './search/sharded.js';

const scope = globalThis as unknown as { onmessage: ((event: MessageEvent) => void) | null; postMessage(message: unknown): void };
const packr = new Packr({ useRecords: false, variableMapSize: true });

let base = '';
let full: Promise<KddIndex> | null = null;
let searcher: Promise<ShardedSearch | null> | null = null;

/** The full bundle once it has arrived: search then answers from it (same ranking, richer snippets, offline). */
let loaded: KddIndex | null = null;
/** Bundles up to this size are fetched in the background after the first answer, so the site works offline. */
const PREFETCH_BYTES = 8 * 1024 * 1024;
let bundleBytes = Infinity;

function fullIndex(): Promise<KddIndex> {
  return (full ??= fetchIndex(base).then(
    (index) => (loaded = index),
    (error: unknown) => {
      full = null;
      throw error;
    },
  ));
}

async function fetchOk(url: string): Promise<Response> {
  const response = await fetch(url);
  if (!response.ok) throw Object.assign(new Error(`cannot fetch ${url} (HTTP ${response.status})`), { code: 'INDEX_UNAVAILABLE' });
  return response;
}

/** The sharded searcher, or null when there is no sub-bundle for the current bundle. */
function shardedSearch(): Promise<ShardedSearch | null> {
  return (searcher ??= (async () => {
    const [pointer, site] = await Promise.all([
      fetchOk(`${base}${POINTER_FILE}`).then(async (r) => parsePointer(await r.json(), POINTER_FILE)),
      fetch(`${base}${SITE_POINTER_FILE}`)
        .then((r) => (r.ok ? (r.json() as Promise<SitePointer>) : null))
        .catch(() => null),
    ]);
    bundleBytes = pointer.bytes;
    // A stale sub-bundle (an older build) would rank against the wrong nodes: use the full bundle.
    if (!site || site.format !== SITE_FORMAT || site.source !== pointer.bundle) return null;
    const fetchFile = async <T>(name: string): Promise<T> => packr.unpack(new Uint8Array(await (await fetchOk(`${base}${name}`)).arrayBuffer())) as T;
    return new ShardedSearch(await fetchFile<SearchMeta>(site.meta), fetchFile);
  })());
}

async function search(request: SearchRequest): Promise<SearchAnswer> {
  const started = performance.now();
  const sharded = loaded ? null : await shardedSearch();
  if (sharded) {
    const { result, fetched } = await sharded.run((index) => rank(index, request));
    const rows = await Promise.all(
      result.hits.map(async (hit) => {
        const doc = await sharded.summary(hit.node);
        const node = { ...sharded.index.bundle.nodes[hit.node]!, title: doc.title, sections: doc.section === null ? [] : [{ heading: doc.section, depth: 2, field: null, text: doc.text }] };
        const snippet = snippetOf(node, result.groups, sharded.index);
        return { id: doc.id, title: doc.title, kind: doc.kind, layer: doc.layer, status: doc.status, source_file: doc.source_file, score: hit.score, section: snippet.section, snippet: snippet.segments };
      }),
    );
    if (bundleBytes <= PREFETCH_BYTES) setTimeout(() => void fullIndex().catch(() => undefined), 0);
    return { q: request.q, rows, source: 'sharded', fetched, ms: performance.now() - started };
  }
  const index = await fullIndex();
  const result = rank(index, request);
  const rows = result.hits.map((hit) => {
    const node = index.bundle.nodes[hit.node]!;
    const snippet = snippetOf(node, result.groups, index);
    return { id: node.id, title: node.title, kind: node.kind, layer: node.layer, status: node.status, source_file: node.source_file, score: hit.score, section: snippet.section, snippet: snippet.segments };
  });
  return { q: request.q, rows, source: 'bundle', fetched: 0, ms: performance.now() - started };
}

async function info(): Promise<Info> {
  const sharded = await shardedSearch();
  if (sharded) {
    const { meta } = sharded;
    const present = (names: readonly string[], codes: Uint8Array) => names.filter((_, i) => codes.includes(i));
    return { source: 'sharded', nodes: meta.stats.nodes, edges: meta.stats.edges, index_level: meta.index_level, kinds: present(meta.kind_names, meta.kinds), layers: present(meta.layer_names, meta.layers) };
  }
  const { bundle } = await fullIndex();
  const kinds = new Set<string>(bundle.nodes.map((n) => n.kind));
  const layers = new Set<string>(bundle.nodes.map((n) => n.layer));
  return {
    source: 'bundle',
    nodes: bundle.nodes.length,
    edges: bundle.edges.length,
    index_level: bundle.manifest.index_level,
    kinds: KINDS.filter((k) => kinds.has(k)),
    layers: LAYERS.filter((l) => layers.has(l)),
  };
}

async function nodeView(id: string): Promise<NodeView> {
  const index = await fullIndex();
  const position = index.nodeIndex.get(id);
  if (position === undefined) throw Object.assign(new Error(`Node not found: ${id}`), { code: 'NODE_NOT_FOUND' });
  const { nodes, edges, outgoing, incoming, dangling } = index.bundle;
  const view = (edge: GraphEdge, otherId: string): EdgeView => {
    const other = nodes[index.nodeIndex.get(otherId) ?? -1];
    return {
      edge_type: edge.edge_type,
      other: other ? { id: other.id, title: other.title, kind: other.kind, layer: other.layer } : { id: otherId, title: otherId, kind: '', layer: '' },
      layer_violation: edge.layer_violation,
      section: edge.metadata.section ?? null,
    };
  };
  const out = (outgoing[position] ?? []).map((e) => view(edges[e]!, edges[e]!.to_node));
  const inc = (incoming[position] ?? []).map((e) => view(edges[e]!, edges[e]!.from_node));
  const links: Record<string, string> = {};
  for (const e of out) {
    const target = nodes[index.nodeIndex.get(e.other.id) ?? -1];
    if (!target) continue;
    for (const label of [target.id, target.doc_id, target.title, baseName(target.source_file), ...target.aliases]) links[label] ??= target.id;
  }
  return { node: nodes[position]!, outgoing: out, incoming: inc, links, dangling: dangling.filter((d) => d.from_node === id).map((d) => d.target) };
}

const registry = () => import('../../runtime/queries/registry.js');
const docs = createDocLoader(() => base);

const handlers: { [K in RequestType]: (params: Requests[K][0]) => Promise<Requests[K][1]> } = {
  info: () => info(),
  search: (params) => search(params),
  node: (params) => nodeView(params.id),
  // Graph queries (the registry's, as every door runs them) load on first use: the first search
  // downloads only what search needs.
  graph: async (params) => (await registry()).runQuery('graph', await fullIndex(), { root_node: params.id, depth: params.depth, respect_layers: false }),
  impact: async (params) => (await registry()).runQuery('impact', await fullIndex(), { node_id: params.id }),
  violations: async () => (await registry()).runQuery('violations', await fullIndex(), {}),
  health: async () => (await registry()).runQuery('health', await fullIndex(), {}),
  doc: (params) => docs.load(params.id),
  layers: async () => (await import('./layer-map.js')).layerMap(await fullIndex()),
};

scope.onmessage = (event: MessageEvent) => {
  const data = event.data as InitMessage | RequestMessage;
  if ('base' in data) {
    base = data.base;
    return;
  }
  const handler = handlers[data.type] as (params: unknown) => Promise<unknown>;
  handler(data.params).then(
    (result) => scope.postMessage({ id: data.id, ok: true, result } satisfies ResponseMessage),
    (error: unknown) => {
      const e = error as { code?: string; message?: string };
      scope.postMessage({ id: data.id, ok: false, error: { code: e.code ?? 'INTERNAL', message: e.message ?? String(error) } } satisfies ResponseMessage);
    },
  );
};
