/**
 * What `kdd check` knows how to report: one table of rules. Each rule belongs to a category (the
 * unit severities are configured by), has a default severity, a one-line description and the help
 * text SARIF viewers and `--format text` show. The build warnings a rule covers are listed with it.
 */
import type { WarningCode } from '../diagnostics.js';

/** Groups of rules that share a severity (`--error-on violations,dangling`, `.kddcheck.json`). */
export const CATEGORIES = ['violations', 'dangling', 'duplicates', 'skipped', 'warnings', 'orphans', 'coverage'] as const;
export type Category = (typeof CATEGORIES)[number];

/** `off` drops the rule's problems; the other three are SARIF's levels. */
export const SEVERITIES = ['error', 'warning', 'note', 'off'] as const;
export type Severity = (typeof SEVERITIES)[number];

export interface CheckRule {
  id: string;
  /** PascalCase name (SARIF `name`). */
  name: string;
  category: Category;
  description: string;
  /** How to fix it (SARIF `help.text`). */
  help: string;
  /** The build warning codes reported under this rule. */
  warnings?: readonly WarningCode[];
}

/**
 * Default severity per category: what breaks the graph fails the job; what only makes it thinner
 * (orphans, missing coverage, a kind filed in an odd folder) is reported without failing.
 */
export const DEFAULT_SEVERITY: Readonly<Record<Category, Severity>> = {
  violations: 'error',
  dangling: 'error',
  duplicates: 'error',
  skipped: 'error',
  warnings: 'warning',
  orphans: 'warning',
  coverage: 'note',
};

export const RULES: readonly CheckRule[] = [
  {
    id: 'BR-LAYER-001',
    name: 'LayerViolation',
    category: 'violations',
    description: 'A link goes up the layer hierarchy (00-requirements → 01-domain → 02-behavior → 03-experience → 04-verification).',
    help: 'A spec may only reference its own layer or the layers below it. Move the reference to the higher-layer document (link from it down to this one), or move the document to the layer it belongs to.',
  },
  {
    id: 'KDD-DANGLING-LINK',
    name: 'DanglingLink',
    category: 'dangling',
    description: 'A wiki-link names no known document.',
    help: 'Fix the target of the [[link]] so it names an existing id, file name, title or alias, or write the missing spec.',
  },
  {
    id: 'KDD-DUPLICATE-ID',
    name: 'DuplicateId',
    category: 'duplicates',
    description: 'Two documents declare the same node id; the one whose path sorts first wins, the other is ignored.',
    help: 'Give one of the documents another `id:` in its front-matter, or delete the copy.',
    warnings: ['DUPLICATE_ID'],
  },
  {
    id: 'KDD-SKIPPED-DOCUMENT',
    name: 'SkippedDocument',
    category: 'skipped',
    description: 'A spec file could not be indexed and was skipped.',
    help: 'Fix the front-matter (valid YAML between `---` lines, with a known `kind:`), or make the file a UTF-8 text spec under the size limit.',
    warnings: ['INVALID_FRONT_MATTER', 'UNKNOWN_KIND', 'EXTRACTION_FAILED', 'BINARY_FILE', 'FILE_TOO_LARGE', 'UNREADABLE_FILE'],
  },
  {
    id: 'KDD-KIND-LOCATION',
    name: 'KindLocationMismatch',
    category: 'warnings',
    description: 'A document of a kind lives outside the folder its kind is expected in.',
    help: 'Move the file to the folder of its kind, or correct its `kind:`.',
    warnings: ['KIND_LOCATION_MISMATCH'],
  },
  {
    id: 'KDD-AMBIGUOUS-LINK',
    name: 'AmbiguousLink',
    category: 'warnings',
    description: 'A wiki-link matches several documents; the first by id was used.',
    help: 'Write the target as an id, or qualify it with its domain (`[[domain::Target]]`).',
    warnings: ['AMBIGUOUS_LINK'],
  },
  {
    id: 'KDD-ENRICHMENT-IGNORED',
    name: 'EnrichmentIgnored',
    category: 'warnings',
    description: 'An enrichment file or relation could not be used.',
    help: 'Run `kdd enrich` again for the node, or delete the stale enrichment file.',
    warnings: ['ENRICHMENT_IGNORED'],
  },
  {
    id: 'KDD-ORPHAN-NODE',
    name: 'OrphanNode',
    category: 'orphans',
    description: 'A document neither links to nor is linked from any other document.',
    help: 'Link the document from the specs that use it (or link it to what it depends on), or delete it if it is obsolete.',
  },
  {
    id: 'QRY-005',
    name: 'CoverageGap',
    category: 'coverage',
    description: "A relation KDD governance expects for the document's kind is missing (QRY-005).",
    help: 'Add the missing relation: a [[link]] to (or from) an artefact of the expected kind, as `kdd coverage NODE` lists them.',
  },
];

export const RULE_BY_ID: ReadonlyMap<string, CheckRule> = new Map(RULES.map((rule) => [rule.id, rule]));

/** The rule that reports a build warning code, or undefined (e.g. EMBEDDING_FAILED: not a spec problem). */
export function ruleForWarning(code: WarningCode): CheckRule | undefined {
  return RULES.find((rule) => rule.warnings?.includes(code));
}
