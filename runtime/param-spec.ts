/**
 * How a query declares its parameters, once, for every door (docs/queries.md): the type, range,
 * default, aliases and description of each. The query validates with these same objects (they are
 * the option objects of runtime/validate.ts), the registry turns them into the JSON Schema that
 * HTTP and MCP clients see, and the CLI turns them into flags and help. A range or a default
 * written anywhere else is a bug.
 *
 * Isomorphic: plain data and pure functions.
 */
import type { ErrorCode } from '../model/errors.js';

/** How the CLI spells a parameter (`kdd context` flags); absent: `--<name-in-kebab-case>`. */
export interface CliSpelling {
  /** Flag name without dashes (`kinds` for `include_kinds`). */
  flag?: string;
  /** `one`: the first positional argument; `rest`: every positional argument (joined for strings). */
  positional?: 'one' | 'rest';
  /** A boolean that defaults to true, switched off by `--<flag>` (`--no-expand` for `expand_graph`). */
  negate?: boolean;
  /** Not offered by the CLI (e.g. a raw-file path only the MCP server can read). */
  hidden?: boolean;
}

interface SpecBase {
  /** One sentence for help text and JSON Schema `description`. */
  description: string;
  /** Other names accepted for it (the PRD's Appendix C spellings: `query`, `kinds`, `node`). Giving two is INVALID_PARAMS. */
  aliases?: readonly string[];
  /** Error code for a value out of range (e.g. `INVALID_DEPTH`); type errors are always `INVALID_PARAMS`. */
  code?: ErrorCode;
  cli?: CliSpelling;
}

export interface IntegerSpec extends SpecBase {
  type: 'integer';
  min?: number;
  max?: number;
  default: number;
}

export interface NumberSpec extends SpecBase {
  type: 'number';
  min?: number;
  max?: number;
  default: number;
}

export interface BooleanSpec extends SpecBase {
  type: 'boolean';
  default: boolean;
}

export interface StringSpec extends SpecBase {
  type: 'string';
  required: boolean;
  /** Minimum length after trimming. */
  minLength?: number;
  /** A node reference (`UC-001`, a title, a file name): the registry resolves it to a node id before the query runs. */
  node?: boolean;
  default?: string;
}

export interface EnumSpec<T extends string = string> extends SpecBase {
  type: 'enum';
  values: readonly T[];
  required: boolean;
  caseInsensitive?: boolean;
  default?: T;
}

export interface ListSpec extends SpecBase {
  type: 'list';
  /** Items must be one of these (compared ignoring case). */
  allowed?: readonly string[];
  minItems?: number;
  required?: boolean;
  default?: readonly string[];
}

export type ParamSpec = IntegerSpec | NumberSpec | BooleanSpec | StringSpec | EnumSpec | ListSpec;
export type ParamsSpec = Readonly<Record<string, ParamSpec>>;

/** A JSON Schema (draft 2020-12 subset) as plain data: what `inputSchema`/`outputSchema` carry. */
export type JsonSchema = { readonly [key: string]: unknown };

/** True when the caller must give the parameter. */
export function isRequired(spec: ParamSpec): boolean {
  return 'required' in spec && spec.required === true;
}

/** The JSON Schema of one parameter (defaults and ranges exactly as the query applies them). */
export function paramSchema(spec: ParamSpec): JsonSchema {
  const base = { description: spec.description };
  switch (spec.type) {
    case 'integer':
    case 'number':
      return { type: spec.type, ...base, ...bounds('minimum', spec.min, 'maximum', spec.max), default: spec.default };
    case 'boolean':
      return { type: 'boolean', ...base, default: spec.default };
    case 'string':
      return { type: 'string', ...base, minLength: spec.minLength ?? 1, ...(spec.default !== undefined ? { default: spec.default } : {}) };
    case 'enum':
      return { type: 'string', ...base, enum: [...spec.values], ...(spec.default !== undefined ? { default: spec.default } : {}) };
    case 'list':
      return {
        type: 'array',
        ...base,
        items: spec.allowed ? { type: 'string', enum: [...spec.allowed] } : { type: 'string', minLength: 1 },
        ...bounds('minItems', spec.minItems, 'maxItems', undefined),
      };
  }
}

/** `inputSchema` of a query: an object of its parameters (aliases are accepted but not listed). */
export function paramsSchema(params: ParamsSpec): JsonSchema {
  const required = Object.entries(params).filter(([, spec]) => isRequired(spec)).map(([name]) => name);
  return {
    type: 'object',
    properties: Object.fromEntries(Object.entries(params).map(([name, spec]) => [name, paramSchema(spec)])),
    ...(required.length ? { required } : {}),
  };
}

function bounds(minKey: string, min: number | undefined, maxKey: string, max: number | undefined): Record<string, number> {
  return { ...(min !== undefined ? { [minKey]: min } : {}), ...(max !== undefined ? { [maxKey]: max } : {}) };
}

/** Builders for result schemas (`outputSchema`), so each query's answer is described in a few lines. */
export const schema = {
  string: (description?: string): JsonSchema => ({ type: 'string', ...(description ? { description } : {}) }),
  number: (description?: string): JsonSchema => ({ type: 'number', ...(description ? { description } : {}) }),
  integer: (description?: string): JsonSchema => ({ type: 'integer', ...(description ? { description } : {}) }),
  boolean: (description?: string): JsonSchema => ({ type: 'boolean', ...(description ? { description } : {}) }),
  nullable: (inner: JsonSchema): JsonSchema => ({ ...inner, type: [inner.type as string, 'null'] }),
  enum: (values: readonly string[]): JsonSchema => ({ type: 'string', enum: [...values] }),
  array: (items: JsonSchema, description?: string): JsonSchema => ({ type: 'array', items, ...(description ? { description } : {}) }),
  /** Every listed property is required unless named in `optional`; other properties are allowed. */
  object: (properties: Record<string, JsonSchema>, optional: readonly string[] = []): JsonSchema => ({
    type: 'object',
    properties,
    required: Object.keys(properties).filter((name) => !optional.includes(name)),
  }),
  /** An object whose keys are free (`indexed_fields`). */
  record: (description?: string): JsonSchema => ({ type: 'object', ...(description ? { description } : {}) }),
};
