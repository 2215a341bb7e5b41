/**
 * The HTTP API as one table (#5): method + path → where the params come from → ONE runtime query.
 * Param names are the spec's snake_case names (QRY-001…QRY-007); the Appendix C draft spellings
 * (`node`, `query`, `kinds`, `layers`) are accepted as aliases. Validation, defaults and errors
 * are the queries' own (runtime/validate.ts): this file converts, it does not decide.
 */
import { createError } from '../runtime/errors.js';
import { chunks } from '../runtime/queries/chunks.js';
import { context } from '../runtime/queries/context.js';
import { coverage } from '../runtime/queries/coverage.js';
import { graph } from '../runtime/queries/graph.js';
import { health } from '../runtime/queries/health.js';
import { hints } from '../runtime/queries/hints.js';
import { impact } from '../runtime/queries/impact.js';
import { search } from '../runtime/queries/search.js';
import { indexStats, type IndexStats } from '../runtime/queries/stats.js';
import { violations } from '../runtime/queries/violations.js';
import type { LoadedBundle } from './bundle-holder.js';

export type Params = Record<string, unknown>;

export interface Route {
  method: 'GET' | 'POST';
  path: string;
  /** `query`: the URL query string; `body`: a JSON object body; `none`: no params. */
  source: 'query' | 'body' | 'none';
  /** Appendix C spelling → spec name. Giving both spellings is INVALID_PARAMS. */
  aliases?: Readonly<Record<string, string>>;
  /** `optional`: answers without a loaded bundle (liveness). Default `required` (503 otherwise). */
  index?: 'required' | 'optional';
  /** One runtime call. `loaded` is null only for `index: 'optional'` routes. */
  run(loaded: LoadedBundle | null, params: Params): unknown;
}

const NODE_ALIAS = (target: string) => ({ node: target });

/** Every endpoint. Order is documentation order (docs/serve.md lists them the same way). */
export const ROUTES: readonly Route[] = [
  {
    method: 'POST',
    path: '/v1/retrieve/search',
    source: 'body',
    aliases: { query: 'query_text', kinds: 'include_kinds', layers: 'include_layers' },
    run: (loaded, params) => search(loaded!.index, params as never),
  },
  {
    method: 'GET',
    path: '/v1/retrieve/graph',
    source: 'query',
    aliases: NODE_ALIAS('root_node'),
    run: (loaded, params) => graph(loaded!.index, params as never),
  },
  {
    method: 'POST',
    path: '/v1/retrieve/context',
    source: 'body',
    aliases: { query: 'query_text' },
    run: (loaded, params) => context(loaded!.index, params),
  },
  {
    method: 'GET',
    path: '/v1/retrieve/impact',
    source: 'query',
    aliases: NODE_ALIAS('node_id'),
    run: (loaded, params) => impact(loaded!.index, params as never),
  },
  {
    method: 'GET',
    path: '/v1/retrieve/coverage',
    source: 'query',
    aliases: NODE_ALIAS('node_id'),
    run: (loaded, params) => coverage(loaded!.index, params as never),
  },
  {
    method: 'GET',
    path: '/v1/retrieve/layer-violations',
    source: 'query',
    aliases: { kinds: 'include_kinds', layers: 'include_layers' },
    run: (loaded, params) => violations(loaded!.index, params as never),
  },
  {
    method: 'GET',
    path: '/v1/retrieve/hints',
    source: 'query',
    run: (loaded, params) => hints(loaded!.index, params as never),
  },
  {
    method: 'GET',
    path: '/v1/retrieve/health',
    source: 'none',
    run: (loaded) => health(loaded!.index),
  },
  {
    // Issue #10 chunk retrieval (docs/chunks.md): lexical scoring here (the server embeds no queries).
    method: 'POST',
    path: '/v1/query',
    source: 'body',
    run: (loaded, params) => chunks(loaded!.index, params, { now: new Date() }),
  },
  {
    method: 'GET',
    path: '/v1/stats',
    source: 'none',
    run: (loaded) => stats(loaded!),
  },
  {
    method: 'GET',
    path: '/healthz',
    source: 'none',
    index: 'optional',
    run: (loaded) => ({ status: 'ok', bundle: loaded?.hash ?? null }),
  },
];

/** What `GET /v1/stats` and the MCP tool `kdd_stats` answer: the index's stats plus what this process loaded. */
export interface BundleStats extends IndexStats {
  bundle: string;
  git_commit: string | null;
  /** When this process loaded the bundle (wall clock). */
  loaded_at: string;
}

export function stats(loaded: LoadedBundle): BundleStats {
  return { bundle: loaded.file, ...indexStats(loaded.index), git_commit: loaded.index.bundle.manifest.git_commit, loaded_at: loaded.loadedAt };
}

export type RouteMatch = { route: Route } | { allowed: Route['method'][] } | null;

/** The route for `method path`; `{allowed}` when the path exists under other methods; null when unknown. */
export function findRoute(method: string, path: string): RouteMatch {
  const onPath = ROUTES.filter((route) => route.path === path);
  if (onPath.length === 0) return null;
  const route = onPath.find((candidate) => candidate.method === method);
  return route ? { route } : { allowed: onPath.map((candidate) => candidate.method) };
}

/** True for paths the API owns (anything else is a static file of DIR). */
export function isApiPath(path: string): boolean {
  return path === '/healthz' || path === '/v1' || path.startsWith('/v1/');
}

/** URL query string → params: a repeated key becomes a list (`?hints=a&hints=b`). */
export function queryParams(search: URLSearchParams): Params {
  const params: Params = {};
  for (const key of new Set(search.keys())) {
    const values = search.getAll(key);
    params[key] = values.length === 1 ? values[0] : values;
  }
  return params;
}

/**
 * Renames Appendix C aliases to spec names. A non-object body is passed through unchanged so the
 * query reports it (`INVALID_PARAMS`, field `params`).
 */
export function applyAliases(route: Route, raw: unknown): unknown {
  if (!route.aliases || raw === null || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const params: Params = { ...(raw as Params) };
  for (const [alias, name] of Object.entries(route.aliases)) {
    if (!Object.prototype.hasOwnProperty.call(params, alias)) continue;
    if (Object.prototype.hasOwnProperty.call(params, name)) {
      throw createError('INVALID_PARAMS', { field: alias, reason: `is an alias of '${name}'; give only one of them` });
    }
    params[name] = params[alias];
    delete params[alias];
  }
  return params;
}
