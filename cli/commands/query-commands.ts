/**
 * `kdd context|search|hints|graph|impact|coverage|violations|health …`: one command per query of
 * the registry (runtime/queries/registry.ts), its flags, usage and `--help` generated from the
 * query's declared parameters (runtime/param-spec.ts); only the readable table is written here.
 * Flags and positionals → params → {@link answerQuery} (the library's path: node references
 * resolved, `query_text` embedded at L2) → print. Every command takes `--bundle DIR` (default
 * `dist`) and `--json` (the query's answer as pretty JSON on stdout); text queries also take
 * `--models-dir DIR`. Errors: message on stderr, exit code from model/errors.ts, and with
 * `--json` the `{error:{code,message}}` object on stdout as well.
 */
import { resolve } from 'node:path';
import type { ParseArgsConfig } from 'node:util';
import { loadBundle } from '../../library/load-bundle.js';
import { answerQuery, createQueryVectors } from '../../library/query-vectors.js';
import { createError, EXIT, toKddError } from '../../model/errors.js';
import type { ParamSpec } from '../../runtime/param-spec.js';
import { QUERIES, type QueryDef, type QueryEnv, type QueryName, type QueryResult } from '../../runtime/queries/registry.js';
import { describeWhy, type Why } from '../../runtime/search/explain.js';
import { parseFlags, UsageError, type CliIO, type Command, type FlagSpec, type FlagTable } from '../command.js';
import { arrowPath, clip, json, pct, section, table, warnings } from '../format.js';

type Options = NonNullable<ParseArgsConfig['options']>;
type FlagValues = Record<string, string | boolean | undefined>;

/** Flags every query command accepts (not query parameters). */
const COMMON = {
  bundle: { type: 'string', default: 'dist', value: 'DIR', description: 'The folder with kdd.json' },
  json: { type: 'boolean', default: false, description: 'Print the answer as JSON (the HTTP and MCP shape)' },
} as const satisfies FlagTable;
/** The flag of text queries (`embeds`), whose query is embedded at L2. */
const MODELS_DIR = {
  'models-dir': { type: 'string', value: 'DIR', description: 'Model store for embedding the query at L2 (default $KDD_MODELS_DIR or ~/.cache/kdd-index/models)' },
} as const satisfies FlagTable;

export interface QueryCommandSpec<N extends QueryName> {
  query: N;
  /** The readable answer (without `--json`). */
  text(result: QueryResult<N>): string;
  /** Flags that are not query parameters but set the query's environment (e.g. `--base-url`). */
  env?: { flags: FlagTable; usage: string; read(values: FlagValues): QueryEnv };
}

interface Flag {
  param: string;
  spec: ParamSpec;
  flag: string;
}

const kebab = (name: string) => name.replace(/_/g, '-');

/** The command-line flags of a query's parameters (positional and hidden ones excluded). */
function flagsOf(def: QueryDef): Flag[] {
  return Object.entries(def.params)
    .filter(([, spec]) => !spec.cli?.positional && !spec.cli?.hidden)
    .map(([param, spec]) => ({ param, spec, flag: spec.cli?.flag ?? kebab(param) }));
}

function positionalsOf(def: QueryDef): [string, ParamSpec][] {
  return Object.entries(def.params).filter(([, spec]) => spec.cli?.positional);
}

/** `1-5`, `both|out|in`, `K,…`: what a flag takes, for usage lines. */
function valueHint(spec: ParamSpec, flag: string): string {
  switch (spec.type) {
    case 'integer':
    case 'number':
      return spec.max !== undefined ? `${spec.min ?? 0}-${spec.max}` : 'N';
    case 'enum':
      return spec.values.join('|');
    case 'list':
      return `${flag[0]!.toUpperCase()},…`;
    default:
      return 'TEXT';
  }
}

function positionalHint(name: string, spec: ParamSpec): string {
  if (spec.type === 'string' && spec.node) return 'NODE';
  const word = spec.type === 'list' ? name.replace(/s$/, '').toUpperCase() : 'TEXT';
  return spec.cli?.positional === 'rest' ? `${word}…` : word;
}

function usageOf(def: QueryDef, extra: string): string {
  const positionals = positionalsOf(def).map(([name, spec]) => positionalHint(name, spec));
  const flags = flagsOf(def).map(({ spec, flag }) => (spec.type === 'boolean' ? `[--${flag}]` : `[--${flag} ${valueHint(spec, flag)}]`));
  const tail = `${def.embeds ? '[--models-dir DIR] ' : ''}[--bundle DIR=dist] [--json]`;
  return ['kdd', def.doors.cli!, ...positionals, ...flags, ...(extra ? [extra] : []), tail].join(' ');
}

/** A query parameter as a row of the flag table: its range and default, as the query declares them. */
function flagSpecOf({ spec, flag }: Flag): FlagSpec {
  if (spec.type === 'boolean') {
    return { type: 'boolean', description: spec.cli?.negate ? `${spec.description} On by default; this flag turns it off.` : spec.description };
  }
  const dflt = 'default' in spec && spec.default !== undefined ? { default: String(spec.default) } : {};
  return { type: 'string', value: valueHint(spec, flag), description: spec.description, ...dflt };
}

/** What `--help` says between the summary and the options: when to ask this query, and its arguments. */
function detailsOf(def: QueryDef): string {
  const args = positionalsOf(def).map(([name, spec]) => [positionalHint(name, spec), spec.description] as const);
  const width = Math.max(0, ...args.map(([left]) => left.length));
  return [def.guidance, ...(args.length ? ['', 'Arguments:', ...args.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`)] : [])].join('\n');
}

/** Builds the {@link Command} of one registered query; all error handling and printing policy lives here. */
export function queryCommand<N extends QueryName>(spec: QueryCommandSpec<N>): Command {
  const def = QUERIES[spec.query] as unknown as QueryDef<QueryResult<N>>;
  const flags = flagsOf(def);
  const table: FlagTable = {
    ...Object.fromEntries(flags.map((flag) => [flag.flag, flagSpecOf(flag)])),
    ...spec.env?.flags,
    ...(def.embeds ? MODELS_DIR : {}),
    ...COMMON,
  };
  // The parser must leave a parameter that was not given undefined: the query applies its own default.
  const options: Options = { ...table, ...Object.fromEntries(flags.map(({ flag }) => [flag, { type: table[flag]!.type }])) };
  const command: Command = {
    name: def.doors.cli!,
    summary: def.summary.replace(/\.$/, ''),
    usage: usageOf(def, spec.env?.usage ?? ''),
    details: detailsOf(def),
    flags: table,
    async run(argv: string[], io: CliIO): Promise<number> {
      const wantsJson = argv.includes('--json');
      try {
        const { values, positionals } = parseFlags(argv, options);
        const given = values as FlagValues;
        const params = paramsOf(def, flags, given, positionals);
        const index = await loadBundle(resolve(io.cwd, String(given.bundle)));
        const modelsDir = typeof given['models-dir'] === 'string' ? resolve(io.cwd, given['models-dir']) : undefined;
        const vectors = createQueryVectors({ modelsDir });
        const result = await answerQuery(spec.query, index, params, vectors, spec.env?.read(given) ?? {}).finally(() => vectors.close());
        io.stdout(given.json ? json(result) : spec.text(result));
        return EXIT.OK;
      } catch (error) {
        return report(command, error, wantsJson, io);
      }
    },
  };
  return command;
}

/** Flags + positionals → the query's params (snake_case names; validation is the query's). */
function paramsOf(def: QueryDef, flags: readonly Flag[], values: FlagValues, positionals: readonly string[]): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  let next = 0;
  for (const [name, spec] of positionalsOf(def)) {
    if (spec.cli?.positional === 'rest') {
      const rest = positionals.slice(next);
      next = positionals.length;
      if (rest.length > 0) params[name] = spec.type === 'list' ? rest : rest.join(' ');
    } else if (positionals[next] !== undefined) {
      params[name] = positionals[next++];
    }
  }
  if (positionals.length > next) throw new UsageError(`unexpected argument '${positionals[next]}'`);
  for (const { param, spec, flag } of flags) {
    const value = values[flag];
    if (value === undefined || value === false) continue;
    // A negated boolean (`--ignore-layers`) turns its default off; `--flag` alone turns one on.
    params[param] = spec.type === 'boolean' ? (spec.cli?.negate ? !spec.default : true) : value;
  }
  return params;
}

function report(command: Command, error: unknown, wantsJson: boolean, io: CliIO): number {
  const kdd =
    error instanceof UsageError ? createError('INVALID_PARAMS', { field: 'arguments', reason: error.message }) : toKddError(error);
  io.stderr(`kdd ${command.name}: ${kdd.code}: ${kdd.message}\n`);
  if (error instanceof UsageError) io.stderr(`Usage: ${command.usage}\n`);
  if (wantsJson) io.stdout(json(kdd.toJSON()));
  return kdd.exitCode;
}

// ── graph ───────────────────────────────────────────────────────────────────────────────────

export const graphCommand = queryCommand({
  query: 'graph',
  text: (r) =>
    `${r.center_node.id} (${r.center_node.kind}, ${r.center_node.layer}) ${r.center_node.title}\n` +
    section(
      'Related nodes',
      ['DIST', 'NODE', 'KIND', 'VIA'],
      r.related_nodes.map((n) => [String(n.distance), n.id, n.kind, `${n.reached_via.from_node} -${n.reached_via.edge_type}-> ${n.reached_via.to_node}${n.reached_via.implicit ? ' (implicit)' : ''}`]),
    ) +
    `${r.total_nodes} nodes, ${r.total_edges} edges\n`,
});

// ── impact ──────────────────────────────────────────────────────────────────────────────────

export const impactCommand = queryCommand({
  query: 'impact',
  text: (r) =>
    `Impact of ${r.change_type} on ${r.analyzed_node.id} (depth ${r.depth})\n` +
    section('Directly affected', ['NODE', 'KIND', 'EDGE', 'IMPACT'], r.directly_affected.map((n) => [n.id, n.kind, n.implicit ? `${n.edge_type} (implicit)` : n.edge_type, n.impact])) +
    section('Transitively affected', ['NODE', 'KIND', 'PATH'], r.transitively_affected.map((n) => [n.id, n.kind, arrowPath(n.path)])) +
    section('Scenarios to re-run', ['FEATURE', 'SCENARIO', 'REASON'], r.scenarios_to_rerun.map((s) => [s.feature, s.scenario ?? '(all)', s.reason])) +
    (r.layer_violations.length ? section('Layer violations met', ['FROM', 'TO', 'EDGE'], r.layer_violations.map((v) => [v.from_node, v.to_node, v.edge_type])) : '') +
    (r.truncated ? `More dependents exist beyond depth ${r.depth} (use --depth to widen).\n` : ''),
});

// ── coverage ────────────────────────────────────────────────────────────────────────────────

export const coverageCommand = queryCommand({
  query: 'coverage',
  text: (r) =>
    `Coverage of ${r.analyzed_node.id} (${r.analyzed_node.kind})\n` +
    table(['CATEGORY', 'STATUS', 'EDGE', 'FOUND'], r.required.map((item) => [item.category, item.status, item.edge_type, item.found.join(', ') || '-'])) +
    `${pct(r.coverage_percent)} covered (${r.present} of ${r.required.length}, ${r.missing} missing)\n`,
});

// ── violations ──────────────────────────────────────────────────────────────────────────────

export const violationsCommand = queryCommand({
  query: 'violations',
  text: (r) =>
    table(
      ['FROM', 'FROM LAYER', 'TO', 'TO LAYER', 'EDGE', 'FILE'],
      r.violations.map((v) => [v.from_node, v.from_layer, v.to_node, v.to_layer, v.edge_type, v.source_file]),
    ) + `${r.total_violations} violations in ${r.total_edges_analyzed} edges (${pct(r.violation_rate)})\n`,
});

// ── health ──────────────────────────────────────────────────────────────────────────────────

export const healthCommand = queryCommand({
  query: 'health',
  text: (r) =>
    section('Dangling links', ['FROM', 'TARGET', 'FILE', 'SECTION'], r.dangling.map((d) => [d.from_node, d.target, d.source_file, d.section ?? '-'])) +
    section('Orphan nodes', ['NODE', 'KIND', 'FILE'], r.orphans.map((n) => [n.id, n.kind, n.source_file])) +
    `${r.total_nodes} nodes, ${r.total_edges} edges\n`,
});

// ── hints (QRY-007 context amplifier) ──────────────────────────────────────────────────────────

export const hintsCommand = queryCommand({
  query: 'hints',
  text: (r) =>
    section('Resolved hints', ['HINT', 'NODE', 'BY'], r.resolved_entities.map((h) => [h.matched_from, h.node_id, h.match_method])) +
    section('Constraints', ['NODE', 'KIND', 'VIA', 'TOKENS'], r.constraints.map((c) => [c.node_id, c.kind, clip(c.reached_via, 60), String(c.tokens)])) +
    section('Behaviour', ['NODE', 'KIND', 'VIA', 'TOKENS'], r.behavior.map((c) => [c.node_id, c.kind, clip(c.reached_via, 60), String(c.tokens)])) +
    warnings(r.warnings) +
    `${r.total_items} items, ${r.total_tokens} tokens\n`,
});

// ── context (QRY-003 hybrid retrieval) ──────────────────────────────────────────────────────

export const contextCommand = queryCommand({
  query: 'context',
  text: (r) =>
    table(
      ['#', 'SCORE', 'NODE', 'KIND', 'VIA', 'SNIPPET'],
      r.results.map((hit, i) => [String(i + 1), hit.score.toFixed(2), hit.node_id, hit.kind, hit.match_source, clip(hit.snippet, 80)]),
    ) +
    explanations(r.results) +
    warnings(r.warnings) +
    `${r.total_results} results, ${r.graph_expansion.length} expansion edges, ~${r.total_tokens} tokens (${r.retrieval_strategy})\n`,
});

/** `--explain`: one block per result saying why it ranked (nothing when the results carry no `why`). */
function explanations(hits: readonly { node_id: string; why?: Why }[]): string {
  const blocks = hits.flatMap((hit, i) => (hit.why ? [[`${i + 1}. ${hit.node_id}`, ...describeWhy(hit.why).map((part) => `   ${part}`)].join('\n')] : []));
  return blocks.length > 0 ? `\nWhy:\n${blocks.join('\n')}\n` : '';
}

// ── search (QRY-002 semantic retrieval; lexical without embeddings) ──────────────────────────

export const searchCommand = queryCommand({
  query: 'search',
  text: (r) =>
    table(
      ['#', 'SCORE', 'NODE', 'KIND', 'SECTION', 'SNIPPET'],
      r.results.map((hit, i) => [String(i + 1), hit.score.toFixed(2), hit.node_id, hit.document_kind, hit.section_path ?? '-', clip(hit.snippet, 80)]),
    ) +
    explanations(r.results) +
    warnings(r.warnings) +
    `${r.total_results} results (${r.retrieval_strategy}${r.embedding_model ? `, ${r.embedding_model}` : ''})\n`,
});

/** Every query command, in the order `kdd --help` lists them. */
export const QUERY_COMMANDS: readonly Command[] = [contextCommand, searchCommand, hintsCommand, graphCommand, impactCommand, coverageCommand, violationsCommand, healthCommand];
