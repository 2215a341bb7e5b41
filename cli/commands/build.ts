import { resolve } from 'node:path';
import { buildIndex, type IndexBuildReport } from '../../compiler/incremental.js';
import { isModelDtype, type ModelDtype } from '../../compiler/embed/embedder.js';
import { writeSite } from '../../library/site.js';
import { parseFlags, UsageError, type Command, type CliIO } from '../command.js';

export const buildCommand: Command = {
  name: 'build',
  summary: 'Index a specs tree into .kdd-index/ and a content-hashed bundle in dist/',
  usage:
    'kdd build [SPECS_DIR=specs] [--out dist] [--index-dir .kdd-index] [--incremental|--full] [--since REF [--head REF]] [--level auto|L1|L2] [--embedder MODEL] [--dtype q8] [--models-dir DIR] [--site] [--json] [--strict] [--fail-on-violations] [--allow-mass-delete] [--indexed-by NAME]',
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, {
      out: { type: 'string', default: 'dist' },
      'index-dir': { type: 'string', default: '.kdd-index' },
      'indexed-by': { type: 'string' },
      'max-file-bytes': { type: 'string' },
      json: { type: 'boolean', default: false },
      strict: { type: 'boolean', default: false },
      // CI gate (CMD-001): layer violations are reported, never rejected, unless this is given.
      'fail-on-violations': { type: 'boolean', default: false },
      // Incremental is the default whenever a compatible .kdd-index/ exists (UC-002); --full forces a rebuild.
      incremental: { type: 'boolean', default: false },
      full: { type: 'boolean', default: false },
      // CMD-002 base_commit/head_commit: the changed files come from `git diff` instead of hashing every file.
      since: { type: 'string' },
      head: { type: 'string' },
      // The mass-delete guard (docs/integrity.md) refuses a build that would wipe the index; this lifts it.
      'allow-mass-delete': { type: 'boolean', default: false },
      // BR-INDEX-001: auto = L2 when a model is available locally (named, or the default one pulled).
      level: { type: 'string', default: 'auto' },
      embedder: { type: 'string' },
      dtype: { type: 'string' },
      'models-dir': { type: 'string' },
      // Also write the static docs site (and its search sub-bundle) next to the bundle (#7).
      site: { type: 'boolean', default: false },
    });
    if (!['auto', 'L1', 'L2'].includes(values.level)) throw new UsageError(`--level must be auto, L1 or L2 (got '${values.level}')`);
    if (values.dtype !== undefined && !isModelDtype(values.dtype)) throw new UsageError(`unknown --dtype '${values.dtype}'`);
    if (values.incremental && values.full) throw new UsageError('--incremental and --full exclude each other');
    if (values.since !== undefined && values.full) throw new UsageError('--since and --full exclude each other');
    if (values.head !== undefined && values.since === undefined) throw new UsageError('--head needs --since');
    const progress = io.isTTY && !values.json ? progressLine(io) : undefined;
    const report = await buildIndex({
      mode: values.full ? 'full' : values.incremental ? 'incremental' : 'auto',
      specsDir: resolve(io.cwd, positionals[0] ?? 'specs'),
      outDir: resolve(io.cwd, values.out),
      indexDir: resolve(io.cwd, values['index-dir']),
      indexedBy: values['indexed-by'] ?? null,
      allowMassDelete: values['allow-mass-delete'],
      maxFileBytes: values['max-file-bytes'] ? Number(values['max-file-bytes']) : undefined,
      since: values.since === undefined ? undefined : { base: values.since, head: values.head },
      onProgress: progress,
      level: values.level as 'auto' | 'L1' | 'L2',
      embedder: values.embedder,
      dtype: values.dtype as ModelDtype | undefined,
      modelsDir: values['models-dir'] ? resolve(io.cwd, values['models-dir']) : undefined,
    });
    if (progress) io.stderr('\r\x1b[K');
    const site = values.site ? await writeSite(resolve(io.cwd, values.out), { specsDir: resolve(io.cwd, positionals[0] ?? 'specs') }) : null;
    if (values.json) io.stdout(`${JSON.stringify(site ? { ...report, site } : report, null, 2)}\n`);
    else io.stdout(summary(report) + (site ? `  site: ${site.app_files.length} app files, search sub-bundle ${site.search?.total_bytes ?? 0} bytes, ${site.documents?.documents ?? 0} documents rendered\n` : ''));
    if (values.strict && report.warnings.length > 0) return 1;
    return values['fail-on-violations'] && report.layer_violations > 0 ? 1 : 0;
  },
};

/** Redraws one line at most every 100 files: cheap enough for 10k-file trees. */
function progressLine(io: CliIO) {
  return (done: number, total: number) => {
    if (total >= 200 && (done % 100 === 0 || done === total)) io.stderr(`\r\x1b[Kindexing ${done}/${total} files`);
  };
}

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
