/**
 * Package root (`import { openKnowledgeBase } from 'kdd-index'`): re-exports only.
 * Node-side: the compiler entry points and the library facade. The isomorphic runtime (pure,
 * synchronous queries over a loaded index) is re-exported for types and browser-safe loaders.
 */
export { build, compile, packCompiled, packIndexDir } from './compiler/pipeline.js';
export type { BuildOptions, BuildReport, CompileOptions, CompileResult } from './compiler/pipeline.js';
export { buildIndex } from './compiler/pipeline.js';
export type { IndexBuildOptions, IndexBuildReport } from './compiler/pipeline.js';
export type { Embedder } from './compiler/embed/embedder.js';
export { openKnowledgeBase } from './library/knowledge-base.js';
export type { ChunksCallOptions, KnowledgeBase, KnowledgeBaseOptions, KnowledgeBaseStats } from './library/knowledge-base.js';
export { loadBundle } from './library/load-bundle.js';
export { runCheck } from './library/check.js';
export type { CheckOptions } from './library/check.js';
export { formatReport, sarifLog } from './compiler/check/formats.js';
export type { CheckFormat, CheckReport } from './compiler/check/formats.js';
export type { Problem } from './compiler/check/problems.js';
export { fetchIndex, loadIndex } from './runtime/load.js';
export type { KddIndex } from './runtime/kdd-index.js';
export type { Bundle, BundleChunk, BundleVectors } from './formats/bundle/types.js';
export type * from './model/graph.js';
export { ERROR_CODES, ERRORS, EXIT, KddError, createError, isKddError, toKddError } from './model/errors.js';
export type { ErrorCode, KddWarning } from './model/errors.js';
export type { ChunksEnv, ChunksParams, ChunksResult, RetrievedChunk } from './runtime/queries/chunks.js';
export type { ContextHit, ContextParams, ContextResult } from './runtime/queries/context.js';
export type { CoverageParams, CoverageResult } from './runtime/queries/coverage.js';
export type { GraphParams, GraphResult } from './runtime/queries/graph.js';
export type { HealthResult } from './runtime/queries/health.js';
export type { HintsParams, HintsResult } from './runtime/queries/hints.js';
export type { ImpactParams, ImpactResult } from './runtime/queries/impact.js';
export type { SearchHit, SearchParams, SearchResult } from './runtime/queries/search.js';
export type { ViolationsParams, ViolationsResult } from './runtime/queries/violations.js';
export type { FindResult, ListResult, ReadSectionResult } from './runtime/queries/lookup.js';
export { QUERIES, QUERY_LIST, runQuery } from './runtime/queries/registry.js';
export type { QueryDef, QueryEnv, QueryName, QueryResult } from './runtime/queries/registry.js';
export { resolveNodeRef } from './runtime/queries/resolve.js';
