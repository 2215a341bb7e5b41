/**
 * `kdd enrich NODE_ID… | --all`: flags → options → `enrich()` (compiler/enrich/enrich.ts) → print.
 * Exit code: 0 when no node failed, else the table's code for the first failure (AGENT_TIMEOUT 5,
 * DOCUMENT_NOT_FOUND 3, AGENT_ERROR 1…); whole-command errors (LOW_INDEX_LEVEL, NODE_NOT_FOUND,
 * API_KEY_MISSING) exit with their own code. The API key is never a flag: only the NAME of the
 * variable holding it (`--api-key-env`), so it never lands in shell history or process lists.
 */
import { resolve } from 'node:path';
import { enrich, type EnrichReport } from '../../compiler/enrich/enrich.js';
import { PROVIDERS } from '../../compiler/enrich/resolve-agent.js';
import type { EnrichProvider } from '../../compiler/enrich/artifact.js';
import { createError, ERRORS, EXIT, toKddError } from '../../model/errors.js';
import { parseFlags, UsageError, type CliIO, type Command, type FlagTable } from '../command.js';

const USAGE = 'kdd enrich NODE_ID… [options]\n       kdd enrich --all [--changed] [options]';

/** Every `kdd enrich` flag: what it parses and what `kdd enrich --help` prints. */
const ENRICH_FLAGS = {
  all: { type: 'boolean', default: false, description: 'Enrich every node instead of the NODE_IDs given' },
  changed: { type: 'boolean', default: false, description: 'Only refresh existing enrichments whose node changed since' },
  force: { type: 'boolean', default: false, description: 'Ask the agent again even when the cached enrichment is current' },
  'dry-run': { type: 'boolean', default: false, description: 'List what would be sent, send nothing' },
  specs: { type: 'string', default: 'specs', value: 'DIR', description: 'The specs tree the index was built from' },
  'index-dir': { type: 'string', default: '.kdd-index', value: 'DIR', description: 'The index to enrich (enrichments are written under it)' },
  bundle: { type: 'string', default: 'dist', value: 'DIR', description: 'Where the rebuilt bundle is written' },
  provider: { type: 'string', value: PROVIDERS.join('|'), description: 'Who answers: a local command, or the Anthropic / OpenAI API (default: command with --agent-cmd, else the API whose key is set)' },
  'agent-cmd': { type: 'string', value: 'CMD', description: 'The local agent command that reads the prompt on stdin (e.g. "claude -p")' },
  model: { type: 'string', value: 'M', description: "The API provider's model" },
  'base-url': { type: 'string', value: 'URL', description: "The API provider's base URL (proxies, compatible servers)" },
  'api-key-env': { type: 'string', value: 'NAME', description: 'Name of the environment variable holding the API key (the key itself is never a flag)' },
  'timeout-ms': { type: 'string', value: 'N', description: 'Per-request time limit in milliseconds (default 300000 for a command, 120000 for an API)' },
  concurrency: { type: 'string', value: 'N', description: 'Requests in flight at once (default 4)' },
  retries: { type: 'string', value: 'N', description: 'Retries of a failed API request (default 3)' },
  'no-build': { type: 'boolean', default: false, description: 'Write the enrichments but do not rebuild the bundle' },
  json: { type: 'boolean', default: false, description: 'Print the report as JSON' },
} as const satisfies FlagTable;

export const enrichCommand: Command = {
  name: 'enrich',
  summary: "Enrich nodes with your AI agent: summary, implicit relations, impact notes (CMD-003, L3)",
  usage: USAGE,
  flags: ENRICH_FLAGS,
  async run(argv, io) {
    const wantsJson = argv.includes('--json');
    try {
      const { values, positionals } = parseFlags(argv, ENRICH_FLAGS);
      if (!values.all && positionals.length === 0) throw new UsageError('give at least one NODE_ID, or --all');
      if (values.all && positionals.length > 0) throw new UsageError('NODE_IDs and --all exclude each other');
      if (values.changed && values.force) throw new UsageError('--changed and --force exclude each other');
      if (values.provider !== undefined && !(PROVIDERS as readonly string[]).includes(values.provider)) {
        throw new UsageError(`--provider must be one of ${PROVIDERS.join(', ')}`);
      }
      const progress = values.all && io.isTTY && !values.json ? progressBar(io) : undefined;
      const report = await enrich({
        nodeIds: positionals,
        all: values.all,
        changed: values.changed,
        force: values.force,
        dryRun: values['dry-run'],
        specsDir: resolve(io.cwd, values.specs),
        indexDir: resolve(io.cwd, values['index-dir']),
        outDir: resolve(io.cwd, values.bundle),
        provider: values.provider as EnrichProvider | undefined,
        agentCmd: values['agent-cmd'],
        model: values.model,
        baseUrl: values['base-url'],
        apiKeyEnv: values['api-key-env'],
        timeoutMs: positiveInt(values['timeout-ms'], 'timeout-ms'),
        concurrency: positiveInt(values.concurrency, 'concurrency'),
        maxRetries: nonNegativeInt(values.retries, 'retries'),
        rebuild: !values['no-build'],
        onProgress: progress,
      });
      if (progress) io.stderr('\r\x1b[K');
      if (values.json) io.stdout(`${JSON.stringify(report, null, 2)}\n`);
      else io.stdout(summary(report, values['dry-run']));
      for (const warning of report.warnings) io.stderr(`kdd enrich: warning: ${warning}\n`);
      const failure = report.nodes.find((node) => node.error);
      if (failure?.error) return ERRORS[failure.error.code].exit;
      return report.build_error ? EXIT.FAILURE : EXIT.OK;
    } catch (error) {
      const usage = error instanceof UsageError;
      const kdd = usage ? createError('INVALID_PARAMS', { field: 'arguments', reason: error.message }) : toKddError(error);
      io.stderr(`kdd enrich: ${kdd.code}: ${kdd.message}\n`);
      if (usage) io.stderr(`Usage: ${USAGE}\n`);
      if (wantsJson) io.stdout(`${JSON.stringify(kdd.toJSON(), null, 2)}\n`);
      return kdd.exitCode;
    }
  },
};

function positiveInt(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--${name} must be a positive integer (got ${value})`);
  return n;
}

function nonNegativeInt(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`--${name} must be an integer ≥ 0 (got ${value})`);
  return n;
}

/** `[#######.........] 12/40` on stderr, redrawn in place (TTY only). */
function progressBar(io: CliIO) {
  const width = 24;
  return (done: number, total: number) => {
    if (total === 0) return;
    const filled = Math.round((done / total) * width);
    io.stderr(`\r\x1b[Kenriching [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`);
  };
}

function summary(report: EnrichReport, dryRun: boolean): string {
  const lines: string[] = [];
  for (const node of report.nodes) {
    const detail =
      node.error ? `${node.error.code}: ${node.error.message}` :
      node.status === 'enriched' ? `${node.relations ?? 0} implicit relations → ${node.file}` :
      node.status === 'planned' ? `would be sent (${node.reason})` :
      node.status === 'cached' ? 'unchanged, not sent' :
      'no enrichment yet (--changed refreshes existing ones only)';
    lines.push(`  ${node.status.padEnd(8)}  ${node.node_id}  ${detail}`);
    for (const warning of node.warnings) lines.push(`            warning: ${warning}`);
    if (node.raw_excerpt) lines.push(`            reply: ${node.raw_excerpt.slice(0, 300)}`);
  }
  const head = `kdd enrich (${report.provider}, ${report.model}, ${report.prompt_version}): ${report.enriched} enriched, ${report.cached} cached, ${report.skipped} skipped, ${report.failed} failed, ${report.requests} requests${dryRun ? ' (dry run)' : ''}`;
  const build = report.build
    ? `  bundle: ${report.build.bundle} (${report.build.nodes} nodes, ${report.build.edges} edges, ${report.build.enrichments} enrichments)`
    : report.build_error
      ? `  rebuild failed (the enrichments are written; run kdd build): ${report.build_error.code}: ${report.build_error.message}`
      : null;
  return `${[head, ...lines, ...(build ? [build] : [])].join('\n')}\n`;
}
