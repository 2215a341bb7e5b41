/**
 * Parameter declarations several queries share (one wording, one range). Each query module lists
 * its own parameters from these and its own (runtime/param-spec.ts explains the format).
 */
import { KINDS, LAYERS } from '../../model/graph.js';
import type { BooleanSpec, IntegerSpec, ListSpec, StringSpec } from '../param-spec.js';

export const QUERY_TEXT_MIN = 3;

export const queryTextParam: StringSpec = {
  type: 'string',
  required: true,
  minLength: QUERY_TEXT_MIN,
  code: 'QUERY_TOO_SHORT',
  aliases: ['query'],
  description: `What you are looking for, in natural language or keywords (Spanish or English), at least ${QUERY_TEXT_MIN} characters.`,
  cli: { positional: 'rest' },
};

export const kindsParam: ListSpec = {
  type: 'list',
  allowed: KINDS,
  aliases: ['kinds'],
  description: 'Only specs of these kinds (e.g. use-case, business-rule). Default: all.',
  cli: { flag: 'kinds' },
};

export const layersParam: ListSpec = {
  type: 'list',
  allowed: LAYERS,
  aliases: ['layers'],
  description: 'Only specs in these KDD layers (e.g. 01-domain, 02-behavior). Default: all.',
  cli: { flag: 'layers' },
};

export const respectLayersParam: BooleanSpec = {
  type: 'boolean',
  default: true,
  description: 'Never walk edges that break the layer rule BR-LAYER-001.',
  cli: { flag: 'ignore-layers', negate: true },
};

export const includeImplicitParam: BooleanSpec = {
  type: 'boolean',
  default: true,
  description: 'Also walk the IMPLICIT_* relations an enrichment agent proposed (L3).',
  cli: { flag: 'no-implicit', negate: true },
};

/** `why` on each result: matched terms and fields, expansions, graph path. Off by default: it counts in the token budget. */
export const explainParam: BooleanSpec = {
  type: 'boolean',
  default: false,
  description: 'Add a `why` to each result: the matched terms and fields, the translations used, the graph path from a matched node.',
};

export const limitParam: IntegerSpec = { type: 'integer', min: 1, max: 100, default: 10, description: 'Maximum number of results.' };

export const depthParam = (max: number, dflt: number, description: string): IntegerSpec => ({
  type: 'integer',
  min: 1,
  max,
  default: dflt,
  code: 'INVALID_DEPTH',
  description,
});

/** A node the query starts from: an id, or anything the registry resolves to one (`UC-001`, a title, a file name). */
export const nodeRefParam = (description: string, aliases: readonly string[] = ['node']): StringSpec => ({
  type: 'string',
  required: true,
  node: true,
  aliases,
  description: `${description} A node id (Entity:Pedido, UC:UC-001) or a document id, title, alias or file name that names one node.`,
  cli: { positional: 'one' },
});
