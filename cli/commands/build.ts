import { resolve } from 'node:path';
import { buildIndex, type IndexBuildReport } from '../../compiler/pipeline.js';
import { DEFAULT_DTYPE, DEFAULT_MODEL, DTYPE_FILE_SUFFIX, isModelDtype, type ModelDtype } from '../../compiler/embed/embedder.js';
import { DEFAULT_MAX_FILE_BYTES } from '../../compiler/read.js';
import { parseFlags, UsageError, type Command, type FlagTable } from '../command.js';
import { progressDisplay } from '../progress.js';
import { collectingAtStages } from '../stage-collection.js';

/** Every `kdd build` flag: what it parses and what `kdd build --help` prints. */
const BUILD_FLAGS = {
  out: { type: 'string', default: 'dist', value: 'DIR', description: 'Where the content-hashed bundle and kdd.json are written' },
  'index-dir': { type: 'string', default: '.kdd-index', value: 'DIR', description: 'The git-friendly index artifacts (nodes, edges, manifest, embeddings)' },
  // Incremental is the default whenever a compatible .kdd-index/ exists (UC-002); --full forces a rebuild.
  incremental: { type: 'boolean', default: false, description: 'Re-index only changed files (already the default whenever a compatible index exists)' },
  full: { type: 'boolean', default: false, description: 'Re-index every file, ignoring the previous index' },
  // CMD-002 base_commit/head_commit: the changed files come from `git diff` instead of hashing every file.
  since: { type: 'string', value: 'REF', description: 'Take the changed files from git (REF..head, plus uncommitted and untracked files) instead of checking every file' },
  head: { type: 'string', value: 'REF', description: 'With --since: the commit the range ends at (default HEAD; uncommitted and untracked files always count as changed)' },
  // The mass-delete guard (docs/integrity.md) refuses a build that would wipe the index; this lifts it.
  'allow-mass-delete': { type: 'boolean', default: false, description: 'Allow a build that deletes every document, or more than half of an index of 10 or more' },
  // BR-INDEX-001: auto = L2 when a model is available locally (named, or the default one pulled).
  level: { type: 'string', default: 'auto', value: 'auto|L1|L2', description: 'L1 = graph + lexical search; L2 adds embeddings; auto = L2 when the model is in the local store' },
  embedder: { type: 'string', value: 'MODEL', description: `Embedding model for L2: a hub id in the model store or a local folder (default ${DEFAULT_MODEL})` },
  dtype: { type: 'string', value: 'DTYPE', description: `Which ONNX weights of the model to load: ${Object.keys(DTYPE_FILE_SUFFIX).join(', ')} (default ${DEFAULT_DTYPE})` },
  'models-dir': { type: 'string', value: 'DIR', description: 'Local model store (default $KDD_MODELS_DIR or ~/.cache/kdd-index/models)' },
  // Also write the static docs site (and its search sub-bundle) next to the bundle (#7).
  site: { type: 'boolean', default: false, description: 'Also write the static search site next to the bundle (as kdd site does)' },
  json: { type: 'boolean', default: false, description: 'Print the machine report (counts, warnings, domain events) as JSON' },
  // Progress goes to stderr: one redrawn line on a terminal, a line per phase (and every few seconds within one) elsewhere.
  quiet: { type: 'boolean', default: false, description: 'Print no progress (the summary, warnings and errors are still printed)' },
  strict: { type: 'boolean', default: false, description: 'Exit with code 1 when the build reported any warning' },
  // CI gate (CMD-001): layer violations are reported, never rejected, unless this is given.
  'fail-on-violations': { type: 'boolean', default: false, description: 'Exit with code 1 when an edge breaks the layer rule (BR-LAYER-001); a CI gate' },
  'indexed-by': { type: 'string', value: 'NAME', description: "Developer name recorded in the manifest's indexed_by (merge and sync name inputs by it)" },
  'max-file-bytes': { type: 'string', value: 'N', description: `Files larger than this are skipped with a warning (default ${DEFAULT_MAX_FILE_BYTES})` },
} as const satisfies FlagTable;

export const buildCommand: Command = {
  name: 'build',
  summary: 'Index a specs tree into .kdd-index/ and a content-hashed bundle in dist/',
  usage: 'kdd build [SPECS_DIR=specs] [options]',
  flags: BUILD_FLAGS,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, BUILD_FLAGS);
    if (!['auto', 'L1', 'L2'].includes(values.level)) throw new UsageError(`--level must be auto, L1 or L2 (got '${values.level}')`);
    if (values.dtype !== undefined && !isModelDtype(values.dtype)) throw new UsageError(`unknown --dtype '${values.dtype}'`);
    if (values.incremental && values.full) throw new UsageError('--incremental and --full exclude each other');
    if (values.since !== undefined && values.full) throw new UsageError('--since and --full exclude each other');
    if (values.head !== undefined && values.since === undefined) throw new UsageError('--head needs --since');
    const progress = values.quiet ? undefined : progressDisplay(io.stderr, io.isTTY);
    const report = await buildIndex({
      mode: values.full ? 'full' : values.incremental ? 'incremental' : 'auto',
      specsDir: resolve(io.cwd, positionals[0] ?? 'specs'),
      outDir: resolve(io.cwd, values.out),
      indexDir: resolve(io.cwd, values['index-dir']),
      indexedBy: values['indexed-by'] ?? null,
      allowMassDelete: values['allow-mass-delete'],
      maxFileBytes: values['max-file-bytes'] ? Number(values['max-file-bytes']) : undefined,
      since: values.since === undefined ? undefined : { base: values.since, head: values.head },
      onProgress: collectingAtStages(progress?.listener, io.collectGarbage),
      level: values.level as 'auto' | 'L1' | 'L2',
      embedder: values.embedder,
      dtype: values.dtype as ModelDtype | undefined,
      modelsDir: values['models-dir'] ? resolve(io.cwd, values['models-dir']) : undefined,
    }).finally(() => progress?.finish()); // a failed build leaves no half-drawn line either
    // The site writer (renderer, compressors) loads only for --site: a plain build must not pay for it.
    const site = values.site ? await (await import('../../library/site.js')).writeSite(resolve(io.cwd, values.out), { specsDir: resolve(io.cwd, positionals[0] ?? 'specs') }) : null;
    if (values.json) io.stdout(`${JSON.stringify(site ? { ...report, site } : report, null, 2)}\n`);
    else io.stdout(summary(report) + (site ? `  site: ${site.app_files.length} app files, search sub-bundle ${site.search?.total_bytes ?? 0} bytes, ${site.documents?.documents ?? 0} documents rendered\n` : ''));
    if (values.strict && report.warnings.length > 0) return 1;
    return values['fail-on-violations'] && report.layer_violations > 0 ? 1 : 0;
  },
};

function table(counts: Record<string, number>): string {
  const width = Math.max(0, ...Object.keys(counts).map((key) => key.length));
  return Object.entries(counts)
    .map(([key, count]) => `    ${key.padEnd(width)}  ${String(count).padStart(6)}`)
    .join('\n');
}

function summary(report: IndexBuildReport): string {
  const lines = [
    `kdd build: ${report.files} files → ${report.nodes} nodes, ${report.edges} edges (${report.index_level}, ${report.structure}) in ${report.duration_ms} ms`,
    `  nodes by kind:\n${table(report.nodes_by_kind)}`,
    `  edges by type:\n${table(report.edges_by_type)}`,
    `  layer violations: ${report.layer_violations}   dangling links: ${report.dangling_links}   skipped files: ${report.skipped.length}`,
    changeLine(report),
    `  bundle: ${report.bundle.bundle} (${report.bundle.bytes} bytes)   .kdd-index: ${report.index_dir.written} written, ${report.index_dir.removed} removed`,
    `  sizes: specs ${report.sizes.spec_bytes} bytes   .kdd-index ${report.sizes.index_bytes} (${report.sizes.index_ratio}× the specs)   bundle ${report.sizes.bundle_bytes} (${report.sizes.bundle_ratio}×)`,
  ];
  if (report.warnings.length > 0) {
    lines.push(`  warnings (${report.warnings.length}):`);
    for (const warning of report.warnings) lines.push(`    ${warning.code}  ${warning.message}`);
  }
  return `${lines.join('\n')}\n`;
}

function changeLine(report: IndexBuildReport): string {
  const { changes } = report;
  const how = report.mode === 'incremental' ? 'incremental' : `full (${report.full_reason})`;
  const listed = changes.reindexed.length > 0 && changes.reindexed.length <= 10 ? `: ${changes.reindexed.join(', ')}` : '';
  return `  ${how}: re-indexed ${changes.reindexed.length} files${listed}   added ${changes.added.length}, modified ${changes.modified.length}, deleted ${changes.deleted.length}   tombstones: ${report.tombstones}`;
}
