/**
 * The HTTP API as one table (#5), derived from the query registry (runtime/queries/registry.ts):
 * each query with an HTTP door becomes a route (GET: params from the query string; POST: a JSON
 * body), answered by {@link answerQuery} — the same preparation (the spec's snake_case names, the
 * Appendix C spellings `node`, `query`, `kinds`, `layers` as aliases, node references resolved),
 * the same query vector at L2 and the same validation as every other door. Nothing here decides.
 */
import { answerQuery, type QueryVectors } from '../library/query-vectors.js';
import { QUERY_LIST, type QueryName } from '../runtime/queries/registry.js';
import type { LoadedBundle } from './bundle-holder.js';

export type Params = Record<string, unknown>;

export interface Route {
  method: 'GET' | 'POST';
  path: string;
  /** `query`: the URL query string; `body`: a JSON object body. */
  source: 'query' | 'body';
  /** `optional`: answers without a loaded bundle (liveness). Default `required` (503 otherwise). */
  index?: 'required' | 'optional';
  /** One query. `loaded` is null only for `index: 'optional'` routes. */
  run(loaded: LoadedBundle | null, params: unknown, vectors: QueryVectors): unknown;
}

/** Every endpoint: the registry's queries in registry order, then the liveness probe. */
export const ROUTES: readonly Route[] = [
  ...QUERY_LIST.flatMap((def): Route[] => {
    const http = def.doors.http;
    if (!http) return [];
    return [
      {
        method: http.method,
        path: http.path,
        source: http.method === 'GET' ? 'query' : 'body',
        run: (loaded, params, vectors) =>
          answerQuery(def.name as QueryName, loaded!.index, params, vectors, { now: new Date(), loaded: { file: loaded!.file, loadedAt: loaded!.loadedAt } }),
      },
    ];
  }),
  {
    method: 'GET',
    path: '/healthz',
    source: 'query',
    index: 'optional',
    run: (loaded) => ({ status: 'ok', bundle: loaded?.hash ?? null }),
  },
];

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
