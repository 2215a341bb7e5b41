import { resolve } from 'node:path';
import { mergeAndWrite, type MergeWriteReport } from '../../compiler/team/merge-write.js';
import { CONFLICT_STRATEGIES, type ConflictStrategy } from '../../compiler/team/merge.js';
import { parseFlags, UsageError, type Command, type FlagTable } from '../command.js';

/** Every `kdd merge` flag: what it parses and what `kdd merge --help` prints. */
const MERGE_FLAGS = {
  out: { type: 'string', short: 'o', value: 'OUT', description: 'Where the merged bundle and kdd.json are written (required)' },
  'index-dir': { type: 'string', value: 'DIR', description: 'Also write the merged .kdd-index/ artifacts here' },
  strategy: { type: 'string', default: 'last_write_wins', value: CONFLICT_STRATEGIES.join('|'), description: 'What to do when two inputs changed the same node: newest commit time wins, or fail' },
  'from-git': { type: 'string', multiple: true, value: 'REF…', description: 'Read .kdd-index/ from these git refs instead of folders (no checkout)' },
  repo: { type: 'string', default: '.', value: 'DIR', description: 'The git repository --from-git reads from' },
  'index-path': { type: 'string', default: '.kdd-index', value: 'PATH', description: 'Where the index lives inside each git ref' },
  'requested-by': { type: 'string', value: 'NAME', description: 'Who asked for the merge (recorded in the merge event)' },
  // L2 inputs: only needed when a winner's chunk is in no input's vector cache.
  'models-dir': { type: 'string', value: 'DIR', description: 'Local model store, for L2 inputs whose vectors must be recomputed (default $KDD_MODELS_DIR)' },
  // The merge's pack memo (default OUT/.cache): repeated merges only tokenise what changed.
  cache: { type: 'string', value: 'DIR', description: 'Merge caches (pack memo, git blob cache); default OUT/.cache, never served' },
  'no-cache': { type: 'boolean', default: false, description: 'Use and write no merge cache (same bytes, slower repeated merges)' },
  json: { type: 'boolean', default: false, description: 'Print the merge report as JSON' },
} as const satisfies FlagTable;

export const mergeCommand: Command = {
  name: 'merge',
  summary: 'Merge several indexes (.kdd-index/ folders, bundles or git refs) into one bundle (BR-MERGE-001)',
  usage: 'kdd merge INDEX_OR_BUNDLE… -o OUT [options]\n       kdd merge --from-git REF… -o OUT [options]',
  flags: MERGE_FLAGS,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, MERGE_FLAGS);
    if (!values.out) throw new UsageError('-o/--out OUT is required');
    if (values.cache !== undefined && values['no-cache']) throw new UsageError('--cache DIR and --no-cache exclude each other');
    if (!CONFLICT_STRATEGIES.includes(values.strategy as ConflictStrategy)) throw new UsageError(`--strategy must be one of ${CONFLICT_STRATEGIES.join(', ')}`);
    // `--from-git a b` : parseArgs takes one value per flag, so extra positionals after it are refs too.
    const refs = values['from-git'] ? [...values['from-git'], ...positionals] : [];
    const report = await mergeAndWrite({
      paths: refs.length ? [] : positionals.map((path) => resolve(io.cwd, path)),
      refs,
      repo: resolve(io.cwd, values.repo),
      indexPath: values['index-path'],
      outDir: resolve(io.cwd, values.out),
      indexDir: values['index-dir'] ? resolve(io.cwd, values['index-dir']) : undefined,
      strategy: values.strategy as ConflictStrategy,
      requestedBy: values['requested-by'] ?? null,
      modelsDir: values['models-dir'] ? resolve(io.cwd, values['models-dir']) : undefined,
      cacheDir: values['no-cache'] ? false : values.cache !== undefined ? resolve(io.cwd, values.cache) : undefined,
    });
    io.stdout(values.json ? `${JSON.stringify(report, null, 2)}\n` : summary(report));
    return 0;
  },
};

function summary(report: MergeWriteReport): string {
  const lines = [
    `kdd merge: ${report.sources.length} indexes → ${report.nodes} nodes, ${report.edges} edges in ${report.duration_ms} ms`,
    ...report.sources.map((source) => `  ${source.source}  ${source.nodes} nodes, ${source.tombstones} tombstones  (${source.manifest_id})`),
    `  conflicts resolved: ${report.conflicts_resolved}   tombstones applied (delete-wins): ${report.tombstones_applied}   dangling links: ${report.dangling_links}   layer violations: ${report.layer_violations}`,
  ];
  for (const conflict of report.conflicts) {
    lines.push(`    ${conflict.node_id}: ${conflict.winner.source} (${conflict.winner.source_hash.slice(0, 12)}, ${conflict.winner.indexed_at ?? 'no commit time'}) wins over ${conflict.others.map((other) => other.source).join(', ')} (${conflict.reason})`);
  }
  for (const warning of report.warnings) lines.push(`  warning: ${warning}`);
  lines.push(`  bundle: ${report.bundle.bundle} (${report.bundle.bytes} bytes)${report.index_dir ? `   .kdd-index: ${report.index_dir.written} written, ${report.index_dir.removed} removed` : ''}`);
  const { cache } = report;
  const blobs = cache.git_blob_hits + cache.git_blob_misses > 0 ? `; git node files from the blob cache: ${cache.git_blob_hits}, read: ${cache.git_blob_misses}` : '';
  if (cache.dir) lines.push(`  cache: ${cache.dir} (nodes packed from the memo: ${cache.memo_hits}, computed: ${cache.memo_misses}; inputs read from their record cache: ${cache.record_caches.length} of ${report.sources.length}${blobs})`);
  return `${lines.join('\n')}\n`;
}
