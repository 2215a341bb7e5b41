/**
 * Every problem an index knows, as `kdd check` reports it: pure functions from a loaded index, the
 * build warnings and the source texts to a sorted list of located problems, and the difference
 * with a base (only what a change introduced). The graph problems come from the runtime's own
 * queries (violations, health, coverage), so `kdd check` and `kdd violations` never disagree.
 */
import type { BuildWarning } from '../diagnostics.js';
import type { KddIndex } from '../../runtime/kdd-index.js';
import type { GraphNode } from '../../model/graph.js';
import { kindSpec } from '../../model/kinds.js';
import { compareCodeUnits } from '../../model/order.js';
import { coverage } from '../../runtime/queries/coverage.js';
import { health } from '../../runtime/queries/health.js';
import { violations } from '../../runtime/queries/violations.js';
import { locateField, locateLink, type Position } from './locate.js';
import { DEFAULT_SEVERITY, RULE_BY_ID, ruleForWarning, type Category, type Severity } from './rules.js';

export interface Problem {
  rule_id: string;
  category: Category;
  severity: Exclude<Severity, 'off'>;
  /** Spec file relative to the specs root. */
  file: string;
  line: number;
  column: number;
  message: string;
  /** The node the problem belongs to, when there is one. */
  node_id: string | null;
  /** What it points at: the link target, the other node, the missing coverage category. */
  target: string | null;
  /** Identity across builds, `rule|node|target` (never the line): `--base` matching and SARIF fingerprints. */
  key: string;
}

/** Where to look for a finding in its source file. */
export type Anchor = { link: readonly string[]; section: string | null } | { field: string; fallback: readonly string[] } | { at: Position } | null;

export type Severities = Readonly<Record<Category, Severity>>;

export interface ProblemInputs {
  index: KddIndex;
  /** Build warnings of the specs (empty when only a bundle is at hand). */
  warnings: readonly BuildWarning[];
  severities?: Severities;
}

/** A problem before it is located in its file. */
export interface Finding {
  rule_id: string;
  severity: Exclude<Severity, 'off'>;
  file: string;
  node_id: string | null;
  target: string | null;
  message: string;
  anchor: Anchor;
  /** From a build warning (not in an index): compared with a base by file content, see {@link newProblems}. */
  fromWarning: boolean;
}

/** Every problem the index and the warnings hold, with its severity; `off` ones dropped. */
export function findProblems({ index, warnings, severities = DEFAULT_SEVERITY }: ProblemInputs): Finding[] {
  const found: Finding[] = [];
  for (const finding of [...graphFindings(index), ...warnings.flatMap(warningFinding)]) {
    const severity = severities[RULE_BY_ID.get(finding.rule_id)!.category];
    if (severity !== 'off') found.push({ ...finding, severity });
  }
  return found;
}

/**
 * Each finding at its line and column in `sources` (spec path → text; a file missing there points
 * at line 1). Sorted by file, line, column, rule, key.
 */
export function locateProblems(findings: readonly Finding[], sources: ReadonlyMap<string, string>): Problem[] {
  return findings
    .map((finding) => {
      const text = sources.get(finding.file);
      const at = (text === undefined ? null : locate(text, finding.anchor)) ?? { line: 1, column: 1 };
      return {
        rule_id: finding.rule_id,
        category: RULE_BY_ID.get(finding.rule_id)!.category,
        severity: finding.severity,
        file: finding.file,
        line: at.line,
        column: at.column,
        message: finding.message,
        node_id: finding.node_id,
        target: finding.target,
        key: problemKey(finding),
      };
    })
    .sort(compareProblems);
}

function problemKey(finding: Pick<Finding, 'rule_id' | 'node_id' | 'target' | 'file' | 'fromWarning'>): string {
  // Warnings name no node: their file stands for it.
  return [finding.rule_id, finding.fromWarning ? finding.file : finding.node_id ?? finding.file, finding.target ?? ''].join('|');
}

function compareProblems(a: Problem, b: Problem): number {
  return compareCodeUnits(a.file, b.file) || a.line - b.line || a.column - b.column || compareCodeUnits(a.rule_id, b.rule_id) || compareCodeUnits(a.key, b.key);
}

function locate(text: string, anchor: Anchor): Position | null {
  if (anchor === null) return null;
  if ('at' in anchor) return anchor.at;
  if ('link' in anchor) return locateLink(text, anchor.link, anchor.section);
  return locateField(text, anchor.field) ?? locateLink(text, anchor.fallback);
}

/** The names a link to `node` may be written with (resolution order: id, file name, title, alias). */
function namesOf(node: GraphNode | undefined, id: string): string[] {
  if (!node) return [id];
  const file = node.source_file.split('/').pop()!.replace(/\.(md|feature)$/, '');
  return [node.doc_id, file, node.title, ...node.aliases, node.id];
}

/** The node's own declaration: its `id:` field, else the first mention of its id. */
const declaration = (node: GraphNode): Anchor => ({ field: 'id', fallback: [node.doc_id] });

type Unrated = Omit<Finding, 'severity'>;

function graphFindings(index: KddIndex): Unrated[] {
  const { nodes } = index.bundle;
  const nodeById = (id: string) => nodes[index.nodeIndex.get(id) ?? -1];
  const findings: Unrated[] = [];
  for (const v of violations(index).violations) {
    findings.push({
      rule_id: 'BR-LAYER-001',
      file: v.source_file,
      node_id: v.from_node,
      target: `${v.to_node} ${v.edge_type}`,
      message: `${v.from_node} (${v.from_layer}) links up to ${v.to_node} (${v.to_layer}) via ${v.edge_type}: ${v.explanation}. Remove the link here and reference this document from ${v.to_node} instead.`,
      anchor: { link: namesOf(nodeById(v.to_node), v.to_node), section: v.section },
      fromWarning: false,
    });
  }
  const { dangling, orphans } = health(index);
  for (const d of dangling) {
    findings.push({
      rule_id: 'KDD-DANGLING-LINK',
      file: d.source_file,
      node_id: d.from_node,
      target: d.target,
      message: `[[${d.target}]] in ${d.from_node} names no document. Correct the target (an id, file name, title or alias) or write the missing spec.`,
      anchor: { link: [d.target], section: d.section },
      fromWarning: false,
    });
  }
  for (const orphan of orphans) {
    const node = nodeById(orphan.id)!;
    findings.push({
      rule_id: 'KDD-ORPHAN-NODE',
      file: node.source_file,
      node_id: node.id,
      target: null,
      message: `${node.id} (${node.kind}) has no link in or out. Link it from the specs that use it, or delete it if it is obsolete.`,
      anchor: declaration(node),
      fromWarning: false,
    });
  }
  for (const node of nodes) {
    if (!kindSpec(node.kind)?.coverage) continue;
    for (const item of coverage(index, { node_id: node.id }).required) {
      if (item.status !== 'missing') continue;
      const how = item.direction === 'out' ? `a link from it to a ${item.kinds.join('/')}` : `a link to it from a ${item.kinds.join('/')}`;
      findings.push({
        rule_id: 'QRY-005',
        file: node.source_file,
        node_id: node.id,
        target: item.category,
        message: `${node.id} (${node.kind}) misses ${item.category.replace(/_/g, ' ')}: ${item.description}. Add ${how}${item.edge_type === 'WIKI_LINK' ? '' : ` (${item.edge_type})`}.`,
        anchor: declaration(node),
        fromWarning: false,
      });
    }
  }
  return findings;
}

function warningFinding(warning: BuildWarning): Unrated[] {
  const rule = ruleForWarning(warning.code);
  if (!rule) return [];
  const link = /\[\[([^\]]*)\]\]/.exec(warning.message)?.[1];
  // The front-matter parser names the file line and column of a YAML error (compiler/parse/front-matter.ts).
  const yaml = /at line (\d+), column (\d+)/.exec(warning.message);
  const anchor: Anchor =
    warning.code === 'INVALID_FRONT_MATTER' && yaml
      ? { at: { line: Number(yaml[1]), column: Number(yaml[2]) } }
      : warning.code === 'AMBIGUOUS_LINK' && link !== undefined
      ? { link: [link], section: null }
      : warning.code === 'DUPLICATE_ID'
        ? { field: 'id', fallback: [] }
        : warning.code === 'UNKNOWN_KIND' || warning.code === 'KIND_LOCATION_MISMATCH'
          ? { field: 'kind', fallback: [] }
          : null;
  return [{ rule_id: rule.id, file: warning.file, node_id: null, target: warning.code, message: `${warning.code}: ${warning.message}. ${rule.help}`, anchor, fromWarning: true }];
}

/**
 * The problems of `head` that `base` did not have. Graph problems match by key (rule + node +
 * target): moving a link to another line is not a new problem. A problem from a build warning is
 * old when the base had it (same key) and its file is byte-identical in both (`sources`: path →
 * content hash, as manifests keep them). Files skipped by the base build are in no index, so
 * their problems count as new unless the base also reported them.
 */
export function newProblems(
  head: readonly Problem[],
  base: readonly Problem[],
  sources: { head: Readonly<Record<string, string>>; base: Readonly<Record<string, string>> },
): Problem[] {
  const before = new Set(base.map((problem) => problem.key));
  return head.filter((problem) => {
    if (before.has(problem.key)) return false;
    if (!isWarningRule(problem.rule_id)) return true;
    const hash = sources.head[problem.file];
    return hash === undefined || sources.base[problem.file] !== hash;
  });
}

function isWarningRule(ruleId: string): boolean {
  return RULE_BY_ID.get(ruleId)?.warnings !== undefined;
}
