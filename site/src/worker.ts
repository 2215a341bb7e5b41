/**
 * The query worker: every runtime call runs here, so typing never waits on a query.
 *
 * Search answers from the site sub-bundle (`kdd-site.json`, a few small shards per query) when it
 * was derived from the bundle `kdd.json` names; otherwise from the full bundle. Node, graph and
 * impact pages read the sub-bundle's graph pieces (a few small files per page, graph/store.ts).
 * The layer map, violations and health answer about the whole tree: the sub-bundle holds them
 * precomputed; without it the full bundle is fetched the first time one of them opens.
 */
import { Packr } from 'msgpackr';
import { fetchIndex, parsePointer, POINTER_FILE } from '../../runtime/load.js';
import type { KddIndex } from '../../runtime/kdd-index.js';
import { KINDS, LAYERS } from '../../model/graph.js';
import { createDocLoader } from './docs.js';
import { type GraphMeta, type NodeView, type ReportName, SITE_FORMAT, SITE_POINTER_FILE, type SearchMeta, type SitePointer } from '../../formats/site-bundle.js';
import { BundleGraph, ChunkedGraph, type GraphStore } from './graph/store.js';
import { neighbourhood } from './graph/walk.js';
import type { Info, InitMessage, RequestMessage, RequestType, Requests, ResponseMessage, SearchAnswer, SearchRequest } from './protocol.js';
import type { SerializedTextIndex } from '../../runtime/search/bm25f.js';
import { sortedVocabulary, type Vocabulary } from './search/prefix.js';
import { describeHit, rank, snippetOf } from './search/rank.js';
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

const fetchFile = async <T>(name: string): Promise<T> => packr.unpack(new Uint8Array(await (await fetchOk(`${base}${name}`)).arrayBuffer())) as T;

let pointerLoad: Promise<SitePointer | null> | null = null;

/** `kdd-site.json` when it was derived from the bundle `kdd.json` names, else null. */
function sitePointer(): Promise<SitePointer | null> {
  return (pointerLoad ??= (async () => {
    const [pointer, found] = await Promise.all([
      fetchOk(`${base}${POINTER_FILE}`).then(async (r) => parsePointer(await r.json(), POINTER_FILE)),
      fetch(`${base}${SITE_POINTER_FILE}`)
        .then((r) => (r.ok ? (r.json() as Promise<SitePointer>) : null))
        .catch(() => null),
    ]);
    bundleBytes = pointer.bytes;
    // A stale sub-bundle (an older build) would answer about the wrong nodes: use the full bundle.
    return found && found.format === SITE_FORMAT && found.source === pointer.bundle ? found : null;
  })().catch((error: unknown) => {
    pointerLoad = null;
    throw error;
  }));
}

/** The sharded searcher, or null when there is no sub-bundle for the current bundle. */
function shardedSearch(): Promise<ShardedSearch | null> {
  return (searcher ??= (async () => {
    const found = await sitePointer();
    return found ? new ShardedSearch(await fetchFile<SearchMeta>(found.meta), fetchFile) : null;
  })());
}

async function search(request: SearchRequest): Promise<SearchAnswer> {
  const started = performance.now();
  const sharded = loaded ? null : await shardedSearch();
  if (sharded) {
    const { result, fetched } = await sharded.run((index) => rank(index, request, sharded.vocabulary));
    const rows = await Promise.all(
      result.hits.map(async (hit) => {
        const doc = await sharded.summary(hit.node);
        const node = { ...sharded.index.bundle.nodes[hit.node]!, title: doc.title, sections: doc.section === null ? [] : [{ heading: doc.section, depth: 2, field: null, text: doc.text }] };
        const snippet = snippetOf(node, result.groups, sharded.index);
        return { id: doc.id, title: doc.title, kind: doc.kind, layer: doc.layer, status: doc.status, source_file: doc.source_file, score: hit.score, section: snippet.section, snippet: snippet.segments, why: describeHit(hit.why, request.q) };
      }),
    );
    if (bundleBytes <= PREFETCH_BYTES) setTimeout(() => void fullIndex().catch(() => undefined), 0);
    return { q: request.q, rows, source: 'sharded', fetched, ms: performance.now() - started };
  }
  const index = await fullIndex();
  const result = rank(index, request, vocabulary(index));
  const rows = result.hits.map((hit) => {
    const node = index.bundle.nodes[hit.node]!;
    const snippet = snippetOf(node, result.groups, index);
    return { id: node.id, title: node.title, kind: node.kind, layer: node.layer, status: node.status, source_file: node.source_file, score: hit.score, section: snippet.section, snippet: snippet.segments, why: describeHit(hit.why, request.q) };
  });
  return { q: request.q, rows, source: 'bundle', fetched: 0, ms: performance.now() - started };
}

const vocabularies = new WeakMap<KddIndex, Vocabulary>();

/** The full bundle's sorted terms, for completing a word being typed. */
function vocabulary(index: KddIndex): Vocabulary {
  let found = vocabularies.get(index);
  if (!found) {
    const terms = (index.bundle.search as SerializedTextIndex).terms;
    vocabularies.set(index, (found = sortedVocabulary(terms === '' ? [] : terms.split('\n'))));
  }
  return found;
}

async function info(): Promise<Info> {
  // From the pointer: a node page does not need the search meta.
  const site = await sitePointer();
  if (site) return { source: 'sharded', ...site.info };
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

/**
 * The graph the node, graph and impact pages read: a full bundle already in memory (small trees,
 * after the background fetch), else the sub-bundle's graph pieces, else the full bundle.
 */
async function graphStore(): Promise<GraphStore> {
  if (loaded) return new BundleGraph(loaded);
  const chunked = await chunkedGraph();
  return chunked ?? new BundleGraph(await fullIndex());
}

let graphLoad: Promise<ChunkedGraph | null> | null = null;

function chunkedGraph(): Promise<ChunkedGraph | null> {
  return (graphLoad ??= (async () => {
    const site = await sitePointer();
    return site ? new ChunkedGraph(await fetchFile<GraphMeta>(site.graph), fetchFile) : null;
  })().catch((error: unknown) => {
    graphLoad = null;
    throw error;
  }));
}

/**
 * A tree-wide answer (layer map, violations, health): from a full bundle already in memory, else the
 * sub-bundle's precomputed piece (a few kB instead of the whole bundle), else the full bundle.
 */
async function report<T>(name: ReportName, compute: (index: KddIndex) => T | Promise<T>): Promise<T> {
  if (!loaded) {
    const piece = (await chunkedGraph())?.report<T>(name);
    if (piece) return piece;
  }
  return compute(await fullIndex());
}

/** The store's slot for `id`, or NODE_NOT_FOUND. */
async function slotOf(store: GraphStore, id: string): Promise<number> {
  const slot = await store.slotOf(id);
  if (slot === null) throw Object.assign(new Error(`Node not found: ${id}`), { code: 'NODE_NOT_FOUND' });
  return slot;
}

/** The node page's one data call: the node, its edges both ways, its links (runtime/views/node-view.ts). */
async function nodeView(id: string): Promise<NodeView> {
  const store = await graphStore();
  return store.nodeView(await slotOf(store, id));
}

const registry = () => import('../../runtime/queries/registry.js');
const docs = createDocLoader(() => base);

const handlers: { [K in RequestType]: (params: Requests[K][0]) => Promise<Requests[K][1]> } = {
  info: () => info(),
  search: (params) => search(params),
  node: (params) => nodeView(params.id),
  graph: async (params) => neighbourhood(await graphStore(), params.id, params.depth),
  impact: async (params) => {
    const store = await graphStore();
    return store.impact(await slotOf(store, params.id));
  },
  // Report queries (the registry's, as every door runs them) load on first use: the first search
  // downloads only what search needs.
  violations: () => report('violations', async (index) => (await registry()).runQuery('violations', index, {})),
  health: () => report('health', async (index) => (await registry()).runQuery('health', index, {})),
  doc: (params) => docs.load(params.id),
  layers: () => report('layers', async (index) => (await import('../../runtime/views/layer-map.js')).layerMap(index)),
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
