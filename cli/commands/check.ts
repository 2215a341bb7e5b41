import { readFile, stat } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { FORMATS, formatReport, parseCategories, type CheckFormat } from '../../compiler/check/formats.js';
import { runCheck } from '../../library/check.js';
import { CATEGORIES, DEFAULT_SEVERITY, SEVERITIES, type Category, type Severity } from '../../compiler/check/rules.js';
import { parseFlags, UsageError, type Command } from '../command.js';

const CONFIG_FILE = '.kddcheck.json';

export const checkCommand: Command = {
  name: 'check',
  summary: 'Report every problem of a specs tree with file, line and rule (CI gate; text, json, sarif, github)',
  usage:
    'kdd check [SPECS_DIR=specs] [--bundle DIR] [--format text|json|sarif|github] [--error-on CATEGORIES] [--config .kddcheck.json] [--base DIR|REF] [--repo .] [--index-path .kdd-index]',
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, {
      bundle: { type: 'string' },
      format: { type: 'string', default: 'text' },
      'error-on': { type: 'string' },
      config: { type: 'string' },
      base: { type: 'string' },
      repo: { type: 'string' },
      'index-path': { type: 'string', default: '.kdd-index' },
    });
    if (positionals.length > 1) throw new UsageError(`unexpected argument '${positionals[1]}'`);
    if (!(FORMATS as readonly string[]).includes(values.format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')} (got '${values.format}')`);
    const severities = await readSeverities(values.config === undefined ? resolve(io.cwd, CONFIG_FILE) : resolve(io.cwd, values.config), values.config !== undefined);
    if (values['error-on'] !== undefined) applyErrorOn(severities, usage(() => parseCategories(values['error-on']!)));
    const specs = positionals[0] ?? 'specs';
    if (values.bundle === undefined && !(await isPath(resolve(io.cwd, specs)))) throw new UsageError(`no specs folder at ${specs} (give SPECS_DIR, or --bundle DIR)`);
    const report = await runCheck({
      specsDir: resolve(io.cwd, specs),
      specsLabel: relative(io.cwd, resolve(io.cwd, specs)) || '.',
      bundle: values.bundle === undefined ? undefined : resolve(io.cwd, values.bundle),
      base: values.base === undefined ? undefined : (await isPath(resolve(io.cwd, values.base))) ? resolve(io.cwd, values.base) : values.base,
      repo: resolve(io.cwd, values.repo ?? '.'),
      indexPath: values['index-path'],
      severities,
    });
    io.stdout(formatReport(report, values.format as CheckFormat));
    return report.counts.error > 0 ? 1 : 0;
  },
};

async function isPath(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

function usage<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** `--error-on a,b`: exactly these categories fail the job; the others that would have are warnings. */
function applyErrorOn(severities: Record<Category, Severity>, errors: readonly Category[]): void {
  for (const category of CATEGORIES) {
    if (errors.includes(category)) severities[category] = 'error';
    else if (severities[category] === 'error') severities[category] = 'warning';
  }
}

/**
 * `.kddcheck.json`: `{ "severity": { "orphans": "off", "coverage": "warning" } }`. Absent (and not
 * named by --config): the defaults. Anything malformed is a usage error naming the file.
 */
async function readSeverities(path: string, required: boolean): Promise<Record<Category, Severity>> {
  const severities: Record<Category, Severity> = { ...DEFAULT_SEVERITY };
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (required || error.code !== 'ENOENT') throw new UsageError(`cannot read ${path}: ${error.code ?? error.message}`);
    return null;
  });
  if (text === null) return severities;
  const config = usage(() => JSON.parse(text) as unknown);
  const table = (config as { severity?: unknown } | null)?.severity;
  if (typeof config !== 'object' || config === null || Array.isArray(config) || (table !== undefined && (typeof table !== 'object' || table === null || Array.isArray(table)))) {
    throw new UsageError(`${path}: expected { "severity": { CATEGORY: ${SEVERITIES.join('|')} } }`);
  }
  for (const [category, severity] of Object.entries((table ?? {}) as Record<string, unknown>)) {
    if (!(CATEGORIES as readonly string[]).includes(category)) throw new UsageError(`${path}: unknown category '${category}' (expected ${CATEGORIES.join(', ')})`);
    if (!(SEVERITIES as readonly unknown[]).includes(severity)) throw new UsageError(`${path}: severity of '${category}' must be one of ${SEVERITIES.join(', ')}`);
    severities[category as Category] = severity as Severity;
  }
  return severities;
}
