/**
 * The four ways `kdd check` prints its problems: readable text, JSON, SARIF 2.1.0 (GitHub code
 * scanning) and GitHub workflow commands (`::error file=…::` annotations). Pure: problems in,
 * text out.
 */
import { CATEGORIES, RULES, type Category, type Severity } from './rules.js';
import type { Problem } from './problems.js';

export const FORMATS = ['text', 'json', 'sarif', 'github'] as const;
export type CheckFormat = (typeof FORMATS)[number];

export interface CheckReport {
  /** Problems reported (after `--base`, when given), sorted by file and position. */
  problems: Problem[];
  /** Specs root the problem files are relative to, as given: SARIF and annotation paths start with it. */
  specs_root: string;
  /** Severity of each category in this run. */
  severities: Record<Category, Severity>;
  /** The base compared with, or null. */
  base: string | null;
  /** Problems the base already had (not in `problems`). */
  known_in_base: number;
  counts: { error: number; warning: number; note: number };
}

export function formatReport(report: CheckReport, format: CheckFormat): string {
  switch (format) {
    case 'text':
      return textReport(report);
    case 'json':
      return `${JSON.stringify(report, null, 2)}\n`;
    case 'sarif':
      return `${JSON.stringify(sarifLog(report), null, 2)}\n`;
    case 'github':
      return githubCommands(report);
  }
}

function textReport(report: CheckReport): string {
  const lines = report.problems.map((p) => `${p.file}:${p.line}:${p.column}  ${p.severity.padEnd(7)}  ${p.rule_id}  ${p.message}`);
  const { error, warning, note } = report.counts;
  const base = report.base === null ? '' : ` new since ${report.base} (${report.known_in_base} already there)`;
  lines.push(`kdd check: ${error} errors, ${warning} warnings, ${note} notes${base}`);
  return `${lines.join('\n')}\n`;
}

/** SARIF's file paths are URIs: each segment percent-encoded, `/` kept. */
function fileUri(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

/**
 * SARIF 2.1.0 with what GitHub code scanning reads: `tool.driver` with its rules (help text,
 * default level), one result per problem with a `physicalLocation` (the path as the repository
 * sees it: specs root as given, then the file) and a 1-based region, and
 * `partialFingerprints` built from the problem's identity so alerts follow a link when lines move.
 */
export function sarifLog(report: CheckReport) {
  const levelOf = (category: Category) => {
    const severity = report.severities[category];
    return severity === 'off' ? 'none' : severity;
  };
  const ruleIndex = new Map(RULES.map((rule, i) => [rule.id, i]));
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'kdd-index',
            informationUri: 'https://www.npmjs.com/package/kdd-index',
            rules: RULES.map((rule) => ({
              id: rule.id,
              name: rule.name,
              shortDescription: { text: rule.description },
              fullDescription: { text: rule.description },
              help: { text: rule.help, markdown: rule.help },
              defaultConfiguration: { level: levelOf(rule.category) },
              properties: { category: rule.category, tags: ['kdd', rule.category] },
            })),
          },
        },
        originalUriBaseIds: { SRCROOT: { description: { text: 'The directory kdd check ran in (the repository root in CI)' } } },
        columnKind: 'utf16CodeUnits',
        results: report.problems.map((p) => ({
          ruleId: p.rule_id,
          ruleIndex: ruleIndex.get(p.rule_id)!,
          level: p.severity,
          message: { text: p.message },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: fileUri(joinRoot(report.specs_root, p.file)), uriBaseId: 'SRCROOT' },
                region: { startLine: p.line, startColumn: p.column },
              },
            },
          ],
          partialFingerprints: { 'kddProblem/v1': p.key },
        })),
      },
    ],
  };
}

/** GitHub workflow commands: properties and message escaped as the runner expects. */
function githubCommands(report: CheckReport): string {
  const command = { error: 'error', warning: 'warning', note: 'notice' } as const;
  const escapeData = (text: string) => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  const escapeProperty = (text: string) => escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
  const lines = report.problems.map(
    (p) => `::${command[p.severity]} file=${escapeProperty(joinRoot(report.specs_root, p.file))},line=${p.line},col=${p.column},title=${escapeProperty(p.rule_id)}::${escapeData(p.message)}`,
  );
  return lines.length ? `${lines.join('\n')}\n` : '';
}

/** Annotations need paths relative to the repository root: the specs root as given, then the file. */
function joinRoot(root: string, file: string): string {
  const prefix = root.replace(/\\/g, '/').replace(/^\.\/?/, '').replace(/\/+$/, '');
  return prefix ? `${prefix}/${file}` : file;
}

export function countSeverities(problems: readonly Problem[]): CheckReport['counts'] {
  const counts = { error: 0, warning: 0, note: 0 };
  for (const problem of problems) counts[problem.severity]++;
  return counts;
}

/** Parses `violations,dangling` into categories; throws naming the unknown one. */
export function parseCategories(list: string): Category[] {
  const names = list.split(',').map((name) => name.trim()).filter(Boolean);
  for (const name of names) if (!(CATEGORIES as readonly string[]).includes(name)) throw new Error(`unknown category '${name}' (expected ${CATEGORIES.join(', ')})`);
  return names as Category[];
}
