/**
 * Parameter validators shared by every query. Each reads one field of the params object, applies
 * the default, and throws a typed {@link KddError} naming the field when the value is wrong.
 *
 * Strings are coerced where the intent is unambiguous (`"3"` → 3, `"true"` → true,
 * `"a,b"` → `["a","b"]`) so HTTP query strings and CLI flags can be passed through unchanged.
 *
 * @example
 * const depth = intParam(params, 'depth', { min: 1, max: 5, default: 2, code: 'INVALID_DEPTH' });
 * const kinds = stringListParam(params, 'include_kinds', { allowed: KINDS });
 */
import type { KddIndex } from './kdd-index.js';
import { createError, ERRORS, type ErrorCode, type KddError } from '../model/errors.js';

/** What queries receive from adapters: an object of unknown shape. */
export type RawParams = Readonly<Record<string, unknown>> | undefined | null;

interface Common {
  /** Error code to throw instead of `INVALID_PARAMS` (e.g. `INVALID_DEPTH` for `depth`). */
  code?: ErrorCode;
  /** What the parameter means: queries pass their declared parameters (runtime/param-spec.ts) as the options. */
  description?: string;
}

/**
 * Builds the error for a bad field. Every code's template draws what it needs from one rich bag:
 * `field`, `value`, `reason`, `min`, `max`, `allowed`, and the field's own name (`change_type: 'x'`).
 */
function fieldError(field: string, value: unknown, reason: string, code: ErrorCode = 'INVALID_PARAMS', extra: Record<string, unknown> = {}): KddError {
  const shown = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  const params: Record<string, unknown> = { field, value: shown, reason, [field]: shown, ...extra };
  // A field's own code describes a bad value of the right type (a depth of 9, a two-letter query);
  // when its template needs something this error does not have — a number where text was
  // expected — the error is a type error, and says so as INVALID_PARAMS.
  const fits = [...ERRORS[code].message.matchAll(/\{(\w+)\}/g)].every((m) => Object.prototype.hasOwnProperty.call(params, m[1]!));
  return createError(fits ? (code as 'INVALID_PARAMS') : 'INVALID_PARAMS', params as { field: string; reason: string });
}

/** Returns the params as an object (`undefined`/`null` → `{}`); anything else is INVALID_PARAMS. */
export function paramsObject(params: unknown): Readonly<Record<string, unknown>> {
  if (params === undefined || params === null) return {};
  if (typeof params !== 'object' || Array.isArray(params)) {
    throw fieldError('params', params, 'expected an object of named parameters');
  }
  return params as Record<string, unknown>;
}

/** Throws INDEX_UNAVAILABLE when a JavaScript caller passes no index. */
export function requireIndex(index: KddIndex | null | undefined): KddIndex {
  if (!index || typeof index !== 'object' || !index.bundle || !index.nodeIndex) {
    throw createError('INDEX_UNAVAILABLE', { reason: 'no index was loaded' });
  }
  return index;
}

const present = (value: unknown): boolean => value !== undefined && value !== null && value !== '';

export interface IntOptions extends Common {
  min?: number;
  max?: number;
  default: number;
}

/** An integer in `[min, max]`; absent → `default`. Integer strings are accepted. */
export function intParam(params: RawParams, field: string, options: IntOptions): number {
  const raw = paramsObject(params)[field];
  if (!present(raw)) return options.default;
  const value = typeof raw === 'string' && /^\s*-?\d+\s*$/.test(raw) ? Number(raw) : raw;
  const { min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER } = options;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw fieldError(field, raw, `must be an integer between ${min} and ${max}`, options.code, { min, max });
  }
  return value;
}

export interface NumberOptions extends Common {
  min?: number;
  max?: number;
  default: number;
}

/** A finite number in `[min, max]`; absent → `default`. Numeric strings are accepted. */
export function numberParam(params: RawParams, field: string, options: NumberOptions): number {
  const raw = paramsObject(params)[field];
  if (!present(raw)) return options.default;
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  const { min = -Infinity, max = Infinity } = options;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw fieldError(field, raw, `must be a number between ${min} and ${max}`, options.code, { min, max });
  }
  return value;
}

/** A boolean; absent → `default`. `"true"`/`"false"` are accepted. */
export function boolParam(params: RawParams, field: string, options: Common & { default: boolean }): boolean {
  const raw = paramsObject(params)[field];
  if (!present(raw)) return options.default;
  if (raw === true || raw === 'true') return true;
  if (raw === false || raw === 'false') return false;
  throw fieldError(field, raw, 'must be true or false', options.code);
}

export interface StringOptions extends Common {
  /** Minimum length after trimming (e.g. 3 for `query_text`). */
  minLength?: number;
  /** Absent → this value; without a default the field is required. */
  default?: string;
}

/** A string; required unless `default` is given. The value is trimmed. */
export function stringParam(params: RawParams, field: string, options: StringOptions = {}): string {
  const raw = paramsObject(params)[field];
  if (raw === undefined || raw === null) {
    if (options.default !== undefined) return options.default;
    throw fieldError(field, raw, 'is required', options.code, { min: options.minLength ?? 1 });
  }
  if (typeof raw !== 'string') throw fieldError(field, raw, 'must be a string');
  const value = raw.trim();
  const minLength = options.minLength ?? 1;
  if (value.length < minLength) {
    const reason = minLength === 1 ? 'must not be empty' : `must be at least ${minLength} characters`;
    throw fieldError(field, raw, reason, options.code, { min: minLength });
  }
  return value;
}

export interface EnumOptions<T extends string> extends Common {
  default?: T;
  /** Compare ignoring case (the canonical spelling from `allowed` is returned). */
  caseInsensitive?: boolean;
}

/** One of `allowed`; required unless `default` is given. */
export function enumParam<T extends string>(params: RawParams, field: string, allowed: readonly T[], options: EnumOptions<T> = {}): T {
  const raw = paramsObject(params)[field];
  if (!present(raw)) {
    if (options.default !== undefined) return options.default;
    throw fieldError(field, raw, `is required (one of: ${allowed.join(', ')})`, options.code, { allowed: allowed.join(', ') });
  }
  const match = typeof raw === 'string' ? findAllowed(raw.trim(), allowed, options.caseInsensitive ?? false) : undefined;
  if (match === undefined) {
    throw fieldError(field, raw, `must be one of: ${allowed.join(', ')}`, options.code, { allowed: allowed.join(', ') });
  }
  return match;
}

function findAllowed<T extends string>(value: string, allowed: readonly T[], caseInsensitive: boolean): T | undefined {
  if (!caseInsensitive) return allowed.find((a) => a === value);
  const lower = value.toLowerCase();
  return allowed.find((a) => a.toLowerCase() === lower);
}

export interface ListOptions extends Common {
  /** Minimum number of items (e.g. 1 for `hints`). Default 0. */
  minItems?: number;
  /** When given, every item must be one of these (compared ignoring case; canonical spelling returned). */
  allowed?: readonly string[];
  default?: readonly string[];
}

/**
 * A list of non-empty strings; absent → `default` (or `[]`). A single string is split on commas.
 * Duplicates are removed, first occurrence kept.
 */
export function stringListParam(params: RawParams, field: string, options: ListOptions = {}): string[] {
  const raw = paramsObject(params)[field];
  let items: unknown[];
  if (raw === undefined || raw === null) items = [...(options.default ?? [])];
  else if (typeof raw === 'string') items = raw.split(',');
  else if (Array.isArray(raw)) items = raw;
  else throw fieldError(field, raw, 'must be a list of strings', options.code);

  const out: string[] = [];
  for (const item of items) {
    if (typeof item !== 'string') throw fieldError(field, raw, 'must be a list of strings', options.code);
    const trimmed = item.trim();
    if (trimmed === '') continue;
    const value = options.allowed ? findAllowed(trimmed, options.allowed, true) : trimmed;
    if (value === undefined) {
      throw fieldError(field, item, `unknown value '${trimmed}' (allowed: ${options.allowed!.join(', ')})`, options.code, {
        allowed: options.allowed!.join(', '),
      });
    }
    if (!out.includes(value)) out.push(value);
  }
  const minItems = options.minItems ?? 0;
  if (out.length < minItems) {
    throw fieldError(field, raw, `needs at least ${minItems} item${minItems === 1 ? '' : 's'}`, options.code, { min: minItems });
  }
  return out;
}
