/**
 * The one error table (STYLE 3): code → message template, HTTP status, CLI exit code.
 * The library throws {@link KddError}; the CLI, the HTTP server and the MCP adapter look the code
 * up here and never keep an if-chain of their own.
 *
 * Codes and messages follow the `## Possible Errors` tables of the spec (QRY-001…QRY-007,
 * CMD-001, CMD-003, CMD-004, CMD-005); `INVALID_PARAMS` and the HTTP-only codes are ours.
 * Templates use `{placeholders}`; the params a code needs are checked by the type system.
 *
 * Isomorphic: no Node-only imports.
 */

/** CLI exit codes, one per family of failure (stable: scripts may test them). */
export const EXIT = {
  OK: 0,
  /** Unexpected failure, build or merge failure. */
  FAILURE: 1,
  /** Invalid arguments or parameters. */
  USAGE: 2,
  /** The node (or resource) named does not exist. */
  NOT_FOUND: 3,
  /** No index could be loaded, or it lacks what the query needs (embeddings). */
  UNAVAILABLE: 4,
  /** The operation ran out of time. */
  TIMEOUT: 5,
} as const;

export interface ErrorSpec {
  /** Message template; `{name}` is replaced by `params.name`. */
  readonly message: string;
  /** Message used when the code is reported as a non-fatal warning (defaults to `message`). */
  readonly warning?: string;
  /** HTTP status for the server adapter. */
  readonly http: number;
  /** Process exit code for the CLI. */
  readonly exit: number;
}

export const ERRORS = {
  // ── Queries (QRY-001…QRY-007) ──────────────────────────────────────────────────────────────
  INDEX_UNAVAILABLE: { message: 'No index available for querying: {reason}', http: 503, exit: EXIT.UNAVAILABLE },
  NODE_NOT_FOUND: { message: 'Node not found: {node_id}', http: 404, exit: EXIT.NOT_FOUND },
  INVALID_DEPTH: { message: 'Depth must be an integer between {min} and {max} (got {value})', http: 400, exit: EXIT.USAGE },
  INVALID_EDGE_TYPE: { message: 'Unknown edge type: {edge_type}', http: 400, exit: EXIT.USAGE },
  INVALID_CHANGE_TYPE: { message: 'Unknown change type: {change_type} (expected one of: {allowed})', http: 400, exit: EXIT.USAGE },
  QUERY_TOO_SHORT: { message: 'Query text must be at least {min} characters', http: 400, exit: EXIT.USAGE },
  INVALID_SCORE_RANGE: { message: 'min_score must be between {min} and {max} (got {value})', http: 400, exit: EXIT.USAGE },
  EMPTY_HINTS: { message: 'At least one hint is required', http: 400, exit: EXIT.USAGE },
  /** QRY-005: the node's kind has no coverage rules; CMD-001: the front-matter kind is not recognised. */
  UNKNOWN_KIND: { message: "Unknown kind '{kind}': {detail}", http: 422, exit: EXIT.USAGE },
  /** QRY-002 fails without embeddings; QRY-003 degrades and reports the warning instead. */
  NO_EMBEDDINGS: {
    message: 'Semantic search requires index level L2 or higher (this index is {level})',
    warning: 'No embeddings available, falling back to graph + lexical search',
    http: 409,
    exit: EXIT.UNAVAILABLE,
  },
  /** QRY-003/QRY-007: usually a warning (results were cut to the budget). */
  TOKEN_LIMIT_EXCEEDED: { message: 'Results truncated at {max_tokens} tokens', http: 413, exit: EXIT.FAILURE },
  /** Any other out-of-range or wrongly typed parameter (`limit`, `include_kinds`, …); names the field. */
  INVALID_PARAMS: { message: "Invalid parameter '{field}': {reason}", http: 400, exit: EXIT.USAGE },

  // ── Build (CMD-001) and merge (CMD-004) ───────────────────────────────────────────────────
  DOCUMENT_NOT_FOUND: { message: 'Document not found: {source_path}', http: 404, exit: EXIT.NOT_FOUND },
  INVALID_FRONT_MATTER: { message: 'Invalid or missing front-matter in {source_path}', http: 422, exit: EXIT.FAILURE },
  EXTRACTION_FAILED: { message: 'Extraction failed for {source_path}: {detail}', http: 500, exit: EXIT.FAILURE },
  EMBEDDING_FAILED: { message: 'Embedding generation failed, falling back to L1: {detail}', http: 500, exit: EXIT.FAILURE },
  INDEX_WRITE_FAILED: { message: 'Cannot write to index path: {index_path}', http: 500, exit: EXIT.FAILURE },
  INSUFFICIENT_SOURCES: { message: 'Merge requires at least 2 source indices', http: 400, exit: EXIT.USAGE },
  MANIFEST_NOT_FOUND: { message: 'No manifest found in {path}', http: 404, exit: EXIT.NOT_FOUND },
  INCOMPATIBLE_VERSION: { message: 'Incompatible index versions: {v1} vs {v2}', http: 409, exit: EXIT.FAILURE },
  INCOMPATIBLE_EMBEDDING_MODEL: { message: 'Incompatible embedding models: {m1} vs {m2}', http: 409, exit: EXIT.FAILURE },
  INCOMPATIBLE_STRUCTURE: { message: 'Cannot merge single-domain with multi-domain indices', http: 409, exit: EXIT.FAILURE },
  CONFLICT_REJECTED: { message: 'Merge aborted: {n} conflicts detected', http: 409, exit: EXIT.FAILURE },
  OUTPUT_WRITE_FAILED: { message: 'Cannot write to output path: {output_path}', http: 500, exit: EXIT.FAILURE },
  /** CMD-002 with `--since`: the changed files come from git. */
  GIT_NOT_AVAILABLE: { message: 'Not a git repository: {path} ({detail})', http: 409, exit: EXIT.UNAVAILABLE },
  COMMIT_NOT_FOUND: { message: 'Commit not found: {commit}', http: 404, exit: EXIT.NOT_FOUND },
  // Integrity guards (docs/integrity.md): refusals that leave the previous index and bundle as they were.
  SPECS_NOT_FOUND: { message: 'Specs root {path} is not a readable folder ({detail})', http: 400, exit: EXIT.USAGE },
  INDEX_CORRUPT: { message: 'Unreadable index file {file}: {detail}', http: 422, exit: EXIT.FAILURE },
  MASS_DELETE_REFUSED: {
    message: 'Refusing to build: {deleted} of {total} indexed documents would be deleted ({rule}); nothing was written. Check the specs path, or pass --allow-mass-delete',
    http: 409,
    exit: EXIT.FAILURE,
  },

  // ── Sync (CMD-005; folder and git transports, see docs/distributed.md) ───────────────────
  NO_LOCAL_INDEX: { message: 'No local index found at {index_path}', http: 404, exit: EXIT.UNAVAILABLE },
  REMOTE_UNREACHABLE: { message: 'Cannot reach remote: {remote} ({detail})', http: 502, exit: EXIT.UNAVAILABLE },
  AUTH_FAILED: { message: 'Authentication failed for remote: {remote} ({detail})', http: 401, exit: EXIT.FAILURE },
  PUSH_REJECTED: { message: 'Push rejected: {reason}', http: 409, exit: EXIT.FAILURE },
  NO_REMOTE_INDEX: { message: 'No merged index available on remote', http: 404, exit: EXIT.UNAVAILABLE },
  TRANSPORT_ERROR: { message: 'Sync failed during {direction}: {detail}', http: 502, exit: EXIT.FAILURE },

  // ── Enrichment with an agent (CMD-003, L3; see docs/enrich.md) ─────────────────────────────
  API_KEY_MISSING: { message: 'No API key found: set {env_var} (or use --api-key-env NAME, or --agent-cmd for a local agent)', http: 401, exit: EXIT.USAGE },
  AGENT_ERROR: { message: 'Agent enrichment failed: {detail}', http: 502, exit: EXIT.FAILURE },
  AGENT_TIMEOUT: { message: 'Agent enrichment timed out after {timeout_ms}ms', http: 504, exit: EXIT.TIMEOUT },
  /** Our reading of BR-INDEX-001 here: enrichment needs a built index (≥ L1), not embeddings. */
  LOW_INDEX_LEVEL: { message: 'Enrichment requires index level ≥ {required} ({detail})', http: 409, exit: EXIT.UNAVAILABLE },

  // ── Server adapter (HTTP only; exit codes kept for completeness) ──────────────────────────
  NOT_FOUND: { message: 'No such endpoint: {path}', http: 404, exit: EXIT.NOT_FOUND },
  METHOD_NOT_ALLOWED: { message: 'Method {method} not allowed on {path}', http: 405, exit: EXIT.USAGE },
  PAYLOAD_TOO_LARGE: { message: 'Request body exceeds {limit} bytes', http: 413, exit: EXIT.USAGE },
  UNSUPPORTED_MEDIA_TYPE: { message: 'Unsupported content type: {content_type} (expected application/json)', http: 415, exit: EXIT.USAGE },
  TIMEOUT: { message: 'Request timed out after {timeout_ms} ms', http: 504, exit: EXIT.TIMEOUT },
  /** DNS-rebinding guard (docs/serve.md): a Host header that is neither loopback nor allowed. */
  HOST_NOT_ALLOWED: { message: "Host '{host}' is not served here: only loopback names, the --host address and --allowed-hosts", http: 421, exit: EXIT.USAGE },
  INTERNAL_ERROR: { message: 'Internal error: {detail}', http: 500, exit: EXIT.FAILURE },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof ERRORS;

/** Every code, sorted (for docs and exhaustive tests). */
export const ERROR_CODES = Object.keys(ERRORS).sort() as ErrorCode[];

type Placeholders<S extends string> = S extends `${string}{${infer P}}${infer Rest}` ? P | Placeholders<Rest> : never;
type ParamValue = string | number | boolean | null;

/**
 * The params a code's template needs (checked at compile time), plus any extra context.
 * @example createError('NODE_NOT_FOUND', { node_id: 'Entity:Pedido' })
 */
export type ErrorParams<C extends ErrorCode> = { readonly [K in Placeholders<(typeof ERRORS)[C]['message']>]: ParamValue } & {
  readonly [key: string]: unknown;
};
type WarningTemplate<C extends ErrorCode> = (typeof ERRORS)[C] extends { warning: infer W extends string } ? W : (typeof ERRORS)[C]['message'];
export type WarningParams<C extends ErrorCode> = { readonly [K in Placeholders<WarningTemplate<C>>]: ParamValue } & {
  readonly [key: string]: unknown;
};

/** Fills `{name}` placeholders; an unknown placeholder is left as written so a missing param shows. */
export function formatMessage(template: string, params: Readonly<Record<string, unknown>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole,
  );
}

// A registry symbol, not a module-local one, so two copies of this module (e.g. the library and a
// bundled site) still recognise each other's errors.
const BRAND: unique symbol = Symbol.for('kdd-index.KddError') as never;

export class KddError extends Error {
  override readonly name = 'KddError';
  readonly code: ErrorCode;
  readonly params: Readonly<Record<string, unknown>>;
  /** HTTP status from the table. */
  readonly status: number;
  /** CLI exit code from the table. */
  readonly exitCode: number;
  readonly [BRAND] = true;

  constructor(code: ErrorCode, params: Readonly<Record<string, unknown>> = {}, options?: { cause?: unknown }) {
    const spec: ErrorSpec = ERRORS[code];
    super(formatMessage(spec.message, params), options);
    this.code = code;
    this.params = params;
    this.status = spec.http;
    this.exitCode = spec.exit;
  }

  /** The wire shape shared by HTTP, MCP and `--json` CLI output. */
  toJSON(): { error: { code: ErrorCode; message: string } } {
    return { error: { code: this.code, message: this.message } };
  }
}

export function createError<C extends ErrorCode>(code: C, params: ErrorParams<C>, options?: { cause?: unknown }): KddError {
  return new KddError(code, params, options);
}

/** True for any KddError, including one thrown by another copy of this module. */
export function isKddError(value: unknown): value is KddError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
}

/** A non-fatal condition reported inside a result (`NO_EMBEDDINGS`, `TOKEN_LIMIT_EXCEEDED`). */
export interface KddWarning {
  code: ErrorCode;
  message: string;
}

export function warning<C extends ErrorCode>(code: C, params: WarningParams<C>): KddWarning {
  const spec: ErrorSpec = ERRORS[code];
  return { code, message: formatMessage(spec.warning ?? spec.message, params) };
}

/**
 * Turns anything thrown into a KddError, so adapters have one shape to print.
 * Unknown errors become `INTERNAL_ERROR` (the original is kept as `cause`).
 */
export function toKddError(error: unknown): KddError {
  if (isKddError(error)) return error;
  const detail = error instanceof Error ? error.message : String(error);
  return createError('INTERNAL_ERROR', { detail }, { cause: error });
}
