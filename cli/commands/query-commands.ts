/**
 * `kdd graph|impact|coverage|violations|health …`: flags → params → one runtime query → print.
 * Every command takes `--bundle DIR` (default `dist`) and `--json` (the query's answer as pretty
 * JSON on stdout). Errors: message on stderr, exit code from runtime/errors.ts, and with `--json`
 * the `{error:{code,message}}` object on stdout as well.
 */
import { resolve } from 'node:path';
import type { ParseArgsConfig } from 'node:util';
import { openKnowledgeBase, type KnowledgeBase } from '../../library/knowledge-base.js';
import { createError, EXIT, toKddError } from '../../runtime/errors.js';
import type { KddIndex } from '../../runtime/kdd-index.js';
import { type ContextResult } from '../../runtime/queries/context.js';
import type { Why } from '../../runtime/search/explain.js';
import { coverage, type CoverageResult } from '../../runtime/queries/coverage.js';
import { graph, type GraphResult } from '../../runtime/queries/graph.js';
import { health, type HealthResult } from '../../runtime/queries/health.js';
import { hints, type HintsResult } from '../../runtime/queries/hints.js';
import { impact, type ImpactResult } from '../../runtime/queries/impact.js';
import { type SearchResult } from '../../runtime/queries/search.js';
import { violations, type ViolationsResult } from '../../runtime/queries/violations.js';
import { resolveNodeRef } from '../../runtime/queries/_resolve.js';
import { parseFlags, UsageError, type CliIO, type Command } from '../command.js';
import { arrowPath, clip, json, pct, section, table, warnings } from '../format.js';

type Options = NonNullable<ParseArgsConfig['options']>;
type FlagValues = Record<string, string | boolean | undefined>;

/** Flags every query command accepts. */
const COMMON = {
  bundle: { type: 'string', default: 'dist' },
  json: { type: 'boolean', default: false },
} as const satisfies Options;

export interface QueryCommandSpec<R> {
  name: string;
  summary: string;
  usage: string;
  /** Extra flags (kebab-case); their values arrive as strings or booleans. */
  options?: Options;
  /**
   * Names positionals map to, in order (e.g. `['node_id']`); more positionals are a usage error.
   * A last name written `...name` collects the remaining positionals as a list.
   */
  positionals?: readonly string[];
  /** Flags + positionals → the query's params object (snake_case spec names; validation is the query's). */
  params(values: FlagValues, positionals: Record<string, string | string[]>): Record<string, unknown>;
  query?(index: KddIndex, params: Record<string, unknown>): R;
  /** Instead of `query`: through the library facade (text queries embed `query_text` at L2). */
  run?(kb: KnowledgeBase, params: Record<string, unknown>): Promise<R>;
  text(result: R): string;
}

/** Builds a {@link Command} around one query; all error handling and printing policy lives here. */
export function queryCommand<R>(spec: QueryCommandSpec<R>): Command {
  return {
    name: spec.name,
    summary: spec.summary,
    usage: spec.usage,
    async run(argv: string[], io: CliIO): Promise<number> {
      const wantsJson = argv.includes('--json');
      try {
        const { values, positionals } = parseFlags(argv, { ...COMMON, ...spec.options });
        const named = namePositionals(spec.positionals ?? [], positionals);
        const flags = values as FlagValues;
        const kb = await openKnowledgeBase(resolve(io.cwd, String(flags.bundle)));
        const params = spec.params(flags, named);
        const result = spec.run ? await spec.run(kb, params).finally(() => kb.close()) : spec.query!(kb.index, params);
        io.stdout(flags.json ? json(result) : spec.text(result));
        return EXIT.OK;
      } catch (error) {
        return report(spec, error, wantsJson, io);
      }
    },
  };
}

function namePositionals(names: readonly string[], positionals: readonly string[]): Record<string, string | string[]> {
  const named: Record<string, string | string[]> = {};
  for (const [i, name] of names.entries()) {
    if (name.startsWith('...')) {
      if (positionals.length > i) named[name.slice(3)] = positionals.slice(i);
      return named;
    }
    if (positionals[i] !== undefined) named[name] = positionals[i]!;
  }
  if (positionals.length > names.length) throw new UsageError(`unexpected argument '${positionals[names.length]}'`);
  return named;
}

function report(spec: QueryCommandSpec<unknown>, error: unknown, wantsJson: boolean, io: CliIO): number {
  const kdd =
    error instanceof UsageError ? createError('INVALID_PARAMS', { field: 'arguments', reason: error.message }) : toKddError(error);
  io.stderr(`kdd ${spec.name}: ${kdd.code}: ${kdd.message}\n`);
  if (error instanceof UsageError) io.stderr(`Usage: ${spec.usage}\n`);
  if (wantsJson) io.stdout(json(kdd.toJSON()));
  return kdd.exitCode;
}

/** `--edge-types a,b` → `'a,b'` (the runtime validators split lists on commas). */
const flag = (values: FlagValues, name: string) => values[name];
const defined = (entries: Record<string, unknown>) => Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== undefined));
const BUNDLE_USAGE = '[--bundle DIR=dist] [--json]';

/** People type `UC-005` or `Pedido`; the queries take `UC:UC-005`, `Entity:Pedido`. */
function resolved(index: KddIndex, params: Record<string, unknown>, field: string): Record<string, unknown> {
  const ref = params[field];
  return typeof ref === 'string' ? { ...params, [field]: resolveNodeRef(index, ref) } : params;
}

// ── graph ───────────────────────────────────────────────────────────────────────────────────

export const graphCommand = queryCommand<GraphResult>({
  name: 'graph',
  summary: 'Walk the graph around a node (QRY-001)',
  usage: `kdd graph NODE_ID [--depth 1-5] [--edge-types T,…] [--kinds K,…] [--direction both|out|in] [--ignore-layers] [--no-implicit] ${BUNDLE_USAGE}`,
  options: {
    depth: { type: 'string' },
    'edge-types': { type: 'string' },
    kinds: { type: 'string' },
    direction: { type: 'string' },
    'ignore-layers': { type: 'boolean', default: false },
    'no-implicit': { type: 'boolean', default: false },
  },
  positionals: ['root_node'],
  params: (values, positionals) =>
    defined({
      root_node: positionals.root_node,
      depth: flag(values, 'depth'),
      edge_types: flag(values, 'edge-types'),
      include_kinds: flag(values, 'kinds'),
      direction: flag(values, 'direction'),
      respect_layers: !values['ignore-layers'],
      include_implicit: !values['no-implicit'],
    }),
  query: (index, params) => graph(index, resolved(index, params, 'root_node') as never),
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

export const impactCommand = queryCommand<ImpactResult>({
  name: 'impact',
  summary: 'What a change to a node affects, and which scenarios to re-run (QRY-004)',
  usage: `kdd impact NODE_ID [--change-type modify_attribute|add_attribute|remove|rename] [--depth 1-5] [--ignore-layers] [--no-implicit] ${BUNDLE_USAGE}`,
  options: { depth: { type: 'string' }, 'change-type': { type: 'string' }, 'ignore-layers': { type: 'boolean', default: false }, 'no-implicit': { type: 'boolean', default: false } },
  positionals: ['node_id'],
  params: (values, positionals) =>
    defined({
      node_id: positionals.node_id,
      depth: flag(values, 'depth'),
      change_type: flag(values, 'change-type'),
      respect_layers: !values['ignore-layers'],
      include_implicit: !values['no-implicit'],
    }),
  query: (index, params) => impact(index, resolved(index, params, 'node_id') as never),
  text: (r) =>
    `Impact of ${r.change_type} on ${r.analyzed_node.id} (depth ${r.depth})\n` +
    section('Directly affected', ['NODE', 'KIND', 'EDGE', 'IMPACT'], r.directly_affected.map((n) => [n.id, n.kind, n.implicit ? `${n.edge_type} (implicit)` : n.edge_type, n.impact])) +
    section('Transitively affected', ['NODE', 'KIND', 'PATH'], r.transitively_affected.map((n) => [n.id, n.kind, arrowPath(n.path)])) +
    section('Scenarios to re-run', ['FEATURE', 'SCENARIO', 'REASON'], r.scenarios_to_rerun.map((s) => [s.feature, s.scenario ?? '(all)', s.reason])) +
    (r.layer_violations.length ? section('Layer violations met', ['FROM', 'TO', 'EDGE'], r.layer_violations.map((v) => [v.from_node, v.to_node, v.edge_type])) : '') +
    (r.truncated ? `More dependents exist beyond depth ${r.depth} (use --depth to widen).\n` : ''),
});

// ── coverage ────────────────────────────────────────────────────────────────────────────────

export const coverageCommand = queryCommand<CoverageResult>({
  name: 'coverage',
  summary: 'Which related artefacts a node should have, and which are missing (QRY-005)',
  usage: `kdd coverage NODE_ID ${BUNDLE_USAGE}`,
  positionals: ['node_id'],
  params: (_values, positionals) => defined({ node_id: positionals.node_id }),
  query: (index, params) => coverage(index, resolved(index, params, 'node_id') as never),
  text: (r) =>
    `Coverage of ${r.analyzed_node.id} (${r.analyzed_node.kind})\n` +
    table(['CATEGORY', 'STATUS', 'EDGE', 'FOUND'], r.required.map((item) => [item.category, item.status, item.edge_type, item.found.join(', ') || '-'])) +
    `${pct(r.coverage_percent)} covered (${r.present} of ${r.required.length}, ${r.missing} missing)\n`,
});

// ── violations ──────────────────────────────────────────────────────────────────────────────

export const violationsCommand = queryCommand<ViolationsResult>({
  name: 'violations',
  summary: 'Edges that break the layer dependency rule BR-LAYER-001 (QRY-006)',
  usage: `kdd violations [--kinds K,…] [--layers L,…] ${BUNDLE_USAGE}`,
  options: { kinds: { type: 'string' }, layers: { type: 'string' } },
  params: (values) => defined({ include_kinds: flag(values, 'kinds'), include_layers: flag(values, 'layers') }),
  query: (index, params) => violations(index, params as never),
  text: (r) =>
    table(
      ['FROM', 'FROM LAYER', 'TO', 'TO LAYER', 'EDGE', 'FILE'],
      r.violations.map((v) => [v.from_node, v.from_layer, v.to_node, v.to_layer, v.edge_type, v.source_file]),
    ) + `${r.total_violations} violations in ${r.total_edges_analyzed} edges (${pct(r.violation_rate)})\n`,
});

// ── health ──────────────────────────────────────────────────────────────────────────────────

export const healthCommand = queryCommand<HealthResult>({
  name: 'health',
  summary: 'Dangling wiki-links and orphan nodes (no edges at all)',
  usage: `kdd health ${BUNDLE_USAGE}`,
  params: () => ({}),
  query: (index) => health(index),
  text: (r) =>
    section('Dangling links', ['FROM', 'TARGET', 'FILE', 'SECTION'], r.dangling.map((d) => [d.from_node, d.target, d.source_file, d.section ?? '-'])) +
    section('Orphan nodes', ['NODE', 'KIND', 'FILE'], r.orphans.map((n) => [n.id, n.kind, n.source_file])) +
    `${r.total_nodes} nodes, ${r.total_edges} edges\n`,
});

// ── hints (QRY-007 context amplifier) ──────────────────────────────────────────────────────────

export const hintsCommand = queryCommand<HintsResult>({
  name: 'hints',
  summary: 'Context from hints (ids, file names, keywords): constraints before behaviour (QRY-007)',
  usage: `kdd hints HINT… [--depth 1-3] [--max-tokens N] ${BUNDLE_USAGE}`,
  options: { depth: { type: 'string' }, 'max-tokens': { type: 'string' } },
  positionals: ['...hints'],
  params: (values, positionals) => defined({ hints: positionals.hints ?? [], depth: flag(values, 'depth'), max_tokens: flag(values, 'max-tokens') }),
  query: (index, params) => hints(index, params as never),
  text: (r) =>
    section('Resolved hints', ['HINT', 'NODE', 'BY'], r.resolved_entities.map((h) => [h.matched_from, h.node_id, h.match_method])) +
    section('Constraints', ['NODE', 'KIND', 'VIA', 'TOKENS'], r.constraints.map((c) => [c.node_id, c.kind, clip(c.reached_via, 60), String(c.tokens)])) +
    section('Behaviour', ['NODE', 'KIND', 'VIA', 'TOKENS'], r.behavior.map((c) => [c.node_id, c.kind, clip(c.reached_via, 60), String(c.tokens)])) +
    warnings(r.warnings) +
    `${r.total_items} items, ${r.total_tokens} tokens\n`,
});

// ── context (QRY-003 hybrid retrieval) ──────────────────────────────────────────────────────

export const contextCommand = queryCommand<ContextResult>({
  name: 'context',
  summary: 'Hybrid retrieval: the specs an agent should read for a task (QRY-003)',
  usage: `kdd context QUERY TEXT… [--kinds K,…] [--layers L,…] [--depth 1-5] [--limit 1-100] [--min-score 0-1] [--max-tokens N] [--no-expand] [--ignore-layers] [--no-implicit] [--explain] ${BUNDLE_USAGE}`,
  options: {
    kinds: { type: 'string' },
    layers: { type: 'string' },
    depth: { type: 'string' },
    limit: { type: 'string' },
    'min-score': { type: 'string' },
    'max-tokens': { type: 'string' },
    'no-expand': { type: 'boolean', default: false },
    'ignore-layers': { type: 'boolean', default: false },
    'no-implicit': { type: 'boolean', default: false },
    explain: { type: 'boolean', default: false },
  },
  positionals: ['...query_text'],
  params: (values, positionals) =>
    defined({
      query_text: Array.isArray(positionals.query_text) ? positionals.query_text.join(' ') : undefined,
      include_kinds: flag(values, 'kinds'),
      include_layers: flag(values, 'layers'),
      depth: flag(values, 'depth'),
      limit: flag(values, 'limit'),
      min_score: flag(values, 'min-score'),
      max_tokens: flag(values, 'max-tokens'),
      expand_graph: !values['no-expand'],
      respect_layers: !values['ignore-layers'],
      include_implicit: !values['no-implicit'],
      ...(values.explain === true && { explain: true }),
    }),
  run: (kb, params) => kb.context(params),
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
  const blocks = hits.flatMap((hit, i) => {
    if (!hit.why) return [];
    const { matched, exact, kind_asked, graph_path } = hit.why;
    const lines = [`${i + 1}. ${hit.node_id}`];
    const terms = matched.map((m) => `${m.expanded_from ? `${m.expanded_from}→${m.term}` : m.term} (${m.fields.join(', ')})`);
    lines.push(`   matched: ${terms.length > 0 ? terms.join('; ') : 'no query term'}`);
    if (exact) lines.push(`   exact: "${exact}"`);
    if (kind_asked) lines.push('   kind: the one the query asks for');
    if (graph_path) lines.push(`   graph: ${graph_path.map((s) => `${s.from_node} -${s.edge_type}-> ${s.to_node}`).join(', ')}`);
    return [lines.join('\n')];
  });
  return blocks.length > 0 ? `\nWhy:\n${blocks.join('\n')}\n` : '';
}

// ── search (QRY-002 semantic retrieval; lexical without embeddings) ──────────────────────────

export const searchCommand = queryCommand<SearchResult>({
  name: 'search',
  summary: 'Semantic search over chunks at L2, lexical otherwise (QRY-002)',
  usage: `kdd search QUERY TEXT… [--kinds K,…] [--layers L,…] [--limit 1-100] [--min-score 0-1] ${BUNDLE_USAGE}`,
  options: { kinds: { type: 'string' }, layers: { type: 'string' }, limit: { type: 'string' }, 'min-score': { type: 'string' } },
  positionals: ['...query_text'],
  params: (values, positionals) =>
    defined({
      query_text: Array.isArray(positionals.query_text) ? positionals.query_text.join(' ') : undefined,
      include_kinds: flag(values, 'kinds'),
      include_layers: flag(values, 'layers'),
      limit: flag(values, 'limit'),
      min_score: flag(values, 'min-score'),
    }),
  run: (kb, params) => kb.search(params),
  text: (r) =>
    table(
      ['#', 'SCORE', 'NODE', 'KIND', 'SECTION', 'SNIPPET'],
      r.results.map((hit, i) => [String(i + 1), hit.score.toFixed(2), hit.node_id, hit.document_kind, hit.section_path ?? '-', clip(hit.snippet, 80)]),
    ) +
    warnings(r.warnings) +
    `${r.total_results} results (${r.retrieval_strategy}${r.embedding_model ? `, ${r.embedding_model}` : ''})\n`,
});

/** Every query command, in the order `kdd --help` lists them. */
export const QUERY_COMMANDS: readonly Command[] = [contextCommand, searchCommand, hintsCommand, graphCommand, impactCommand, coverageCommand, violationsCommand, healthCommand];
