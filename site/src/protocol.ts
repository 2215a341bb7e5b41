/**
 * Messages between the page (site/src/main.ts) and the query worker (site/src/worker.ts), and the
 * view models the worker answers with. The page never runs a query itself: it posts one request,
 * the worker answers `{ id, ok, result | error }`.
 */
import type { ImpactResult } from '../../runtime/queries/impact.js';
import type { HealthResult } from '../../runtime/queries/health.js';
import type { ViolationsResult } from '../../runtime/queries/violations.js';
import type { LayerMap, NodeView } from '../../formats/site-bundle.js';
import type { DocPiece } from '../../formats/site-docs.js';

export interface SearchRequest {
  q: string;
  kinds?: string[];
  layers?: string[];
  limit?: number;
}

/** A run of snippet text; `hit` marks a word that matches the query. */
export type Segment = [text: string, hit: boolean];

export interface SearchRow {
  id: string;
  title: string;
  kind: string;
  layer: string;
  status: string;
  source_file: string;
  score: number;
  section: string | null;
  snippet: Segment[];
  /** Why it ranked, as phrases (matched words and fields, translations used, exact id or title, kind asked for). */
  why: string[];
}

export interface SearchAnswer {
  q: string;
  rows: SearchRow[];
  /** `sharded` (site sub-bundle) or `bundle` (the full bundle, when no sub-bundle matches). */
  source: 'sharded' | 'bundle';
  /** Files fetched to answer this query (0 once the shards are cached). */
  fetched: number;
  ms: number;
}

/** A node of the graph page, `distance` hops from the centre. */
export interface NeighbourhoodNode {
  id: string;
  title: string;
  kind: string;
  layer: string;
  distance: number;
}

export interface NeighbourhoodEdge {
  from: string;
  to: string;
  type: string;
  violation: boolean;
}

/** The graph page's data: every node within `depth` hops (edges walked either way) and the edges between them. */
export interface Neighbourhood {
  center: string;
  depth: number;
  /** Sorted by (distance, id); the centre first. */
  nodes: NeighbourhoodNode[];
  edges: NeighbourhoodEdge[];
  /** True when more nodes lie within `depth` than a neighbourhood holds (walk.ts MAX_GRAPH_NODES). */
  truncated: boolean;
}

export interface Info {
  source: 'sharded' | 'bundle';
  nodes: number;
  edges: number;
  index_level: string;
  kinds: string[];
  layers: string[];
}

export interface Requests {
  info: [Record<string, never>, Info];
  search: [SearchRequest, SearchAnswer];
  node: [{ id: string }, NodeView];
  graph: [{ id: string; depth: number }, Neighbourhood];
  impact: [{ id: string }, ImpactResult];
  violations: [Record<string, never>, ViolationsResult];
  health: [Record<string, never>, HealthResult];
  /** The node's spec rendered as written (formats/site-docs.ts), or null when the site has none. */
  doc: [{ id: string }, DocPiece | null];
  layers: [Record<string, never>, LayerMap];
}
export type RequestType = keyof Requests;

export interface RequestMessage<K extends RequestType = RequestType> {
  id: number;
  type: K;
  params: Requests[K][0];
}

export type ResponseMessage =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: { code: string; message: string } };

/** First message the page sends: where `kdd.json` lives (the page's own folder). */
export interface InitMessage {
  base: string;
}
