/**
 * `kdd-index/runtime`: the isomorphic part (Node and browsers, no `node:` imports). Load a bundle's
 * bytes, then call the pure, synchronous queries on the index. Re-exports only.
 */
export { decodeBundle } from '../formats/bundle/bundle.js';
export { BUNDLE_FORMAT_VERSION, POINTER_FILE } from '../formats/bundle/types.js';
export type { Bundle, BundleChunk, BundlePointer, BundleVectors } from '../formats/bundle/types.js';
export { fetchIndex, loadIndex } from './load.js';
export type { KddIndex } from './kdd-index.js';
export type * from '../model/graph.js';
export { ERROR_CODES, ERRORS, EXIT, KddError, createError, isKddError, toKddError } from '../model/errors.js';
export type { ErrorCode, KddWarning } from '../model/errors.js';
export { chunks } from './queries/chunks.js';
export { context } from './queries/context.js';
export { coverage } from './queries/coverage.js';
export { graph } from './queries/graph.js';
export { health } from './queries/health.js';
export { hints } from './queries/hints.js';
export { impact } from './queries/impact.js';
export { search } from './queries/search.js';
export { indexStats } from './queries/stats.js';
export { violations } from './queries/violations.js';
export { find, list, readSection } from './queries/lookup.js';
export { findNodes, resolveNodeRef } from './queries/resolve.js';
export { QUERIES, QUERY_LIST, inputSchema, isQueryName, prepareParams, runQuery } from './queries/registry.js';
export type { QueryDef, QueryEnv, QueryName, QueryResult } from './queries/registry.js';
export type { JsonSchema, ParamSpec, ParamsSpec } from './param-spec.js';
