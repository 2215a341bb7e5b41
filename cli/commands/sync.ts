import { resolve } from 'node:path';
import { pullFromFolder, pullWithGit, pushToFolder, pushWithGit, type SyncPullReport, type SyncPushReport } from '../../compiler/team/sync.js';
import { parseFlags, UsageError, type Command, type FlagTable } from '../command.js';

const USAGE = [
  'kdd sync push (--to DIR [--as NAME] | --git [--remote origin]) [options]',
  '       kdd sync pull (--from DIR | --git [REF…]) [-o dist] [options]',
  '',
  'Transports: a shared folder (--to/--from DIR: DIR/indexes/<developer>/) or git (--git: commit .kdd-index/ and push;',
  'fetch and merge the .kdd-index/ of the remote branches). The API transport of CMD-005 (POST /v1/index/push) is not built.',
].join('\n');

/** Every `kdd sync` flag: what it parses and what `kdd sync --help` prints. */
const SYNC_FLAGS = {
  to: { type: 'string', value: 'DIR', description: 'push: the shared folder (the index lands in DIR/indexes/<developer>/)' },
  from: { type: 'string', value: 'DIR', description: 'pull: the shared folder to merge every developer\'s index from' },
  git: { type: 'boolean', default: false, description: 'Use git as the transport (push commits .kdd-index/; pull fetches the remote branches)' },
  transport: { type: 'string', value: 'folder|git', description: 'The transport by name (same as --to/--from or --git)' },
  as: { type: 'string', value: 'NAME', description: "push: the developer folder name (default the manifest's indexed_by, else the OS user)" },
  remote: { type: 'string', default: 'origin', value: 'NAME', description: 'The git remote (--git)' },
  'index-dir': { type: 'string', value: 'DIR', description: 'push: the index to send (default .kdd-index); pull: also write the merged index here' },
  repo: { type: 'string', default: '.', value: 'DIR', description: 'pull --git: the git repository' },
  'index-path': { type: 'string', default: '.kdd-index', value: 'PATH', description: 'pull --git: where the index lives inside each ref' },
  out: { type: 'string', short: 'o', default: 'dist', value: 'DIR', description: 'pull: where the merged bundle is written' },
  'models-dir': { type: 'string', value: 'DIR', description: 'pull: local model store for L2 inputs (default $KDD_MODELS_DIR)' },
  json: { type: 'boolean', default: false, description: 'Print the report as JSON' },
  // An index with no document is not pushed unless this says so (docs/integrity.md).
  'allow-empty': { type: 'boolean', default: false, description: 'push: send an index that holds no document (refused by default: it would empty the team index)' },
} as const satisfies FlagTable;

export const syncCommand: Command = {
  name: 'sync',
  summary: 'Push this index to a shared folder or git remote, pull the team\'s merged index (UC-007); never sends spec files',
  usage: USAGE,
  flags: SYNC_FLAGS,
  async run(argv, io) {
    const [direction, ...rest] = argv;
    if (direction !== 'push' && direction !== 'pull') throw new UsageError(`expected 'push' or 'pull' (got ${direction ? `'${direction}'` : 'nothing'})`);
    const { values, positionals } = parseFlags(rest, SYNC_FLAGS);
    if (values.transport === 'api') throw new UsageError('the API transport (POST /v1/index/push, GET /v1/index/pull) is not built: use --to/--from DIR or --git');
    if (values.transport !== undefined && values.transport !== 'git' && values.transport !== 'folder') throw new UsageError(`unknown --transport '${values.transport}'`);
    const git = values.git || values.transport === 'git';
    const folder = direction === 'push' ? values.to : values.from;
    if (direction === 'push' && values.from) throw new UsageError('push takes --to DIR, not --from');
    if (direction === 'pull' && values.to) throw new UsageError('pull takes --from DIR, not --to');
    if (git === Boolean(folder)) throw new UsageError(`choose one transport: ${direction === 'push' ? '--to DIR' : '--from DIR'} or --git`);
    if (positionals.length > 0 && !(git && direction === 'pull')) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const at = (path: string) => resolve(io.cwd, path);

    let report: SyncPushReport | SyncPullReport;
    if (direction === 'push') {
      const indexDir = at(values['index-dir'] ?? '.kdd-index');
      report = git ? await pushWithGit({ indexDir, remote: values.remote, allowEmpty: values['allow-empty'] }) : await pushToFolder({ indexDir, to: at(folder!), as: values.as, allowEmpty: values['allow-empty'] });
    } else {
      const output = { outDir: at(values.out), indexDir: values['index-dir'] ? at(values['index-dir']) : undefined, modelsDir: values['models-dir'] ? at(values['models-dir']) : undefined };
      report = git
        ? await pullWithGit({ ...output, repo: at(values.repo), remote: values.remote, refs: positionals, indexPath: values['index-path'] })
        : await pullFromFolder({ ...output, from: at(folder!) });
    }
    io.stdout(values.json ? `${JSON.stringify(report, null, 2)}\n` : summary(report));
    return 0;
  },
};

function summary(report: SyncPushReport | SyncPullReport): string {
  if (report.direction === 'pull') {
    const { merge } = report;
    return [
      `kdd sync pull (${report.transport}): ${report.developers.length} index(es) from ${report.remote} → ${merge.nodes} nodes, ${merge.edges} edges in ${report.duration_ms} ms`,
      ...report.developers.map((developer) => `  ${developer}`),
      `  conflicts resolved: ${merge.conflicts_resolved}   tombstones applied: ${merge.tombstones_applied}   dangling links: ${merge.dangling_links}`,
      ...merge.warnings.map((warning) => `  warning: ${warning}`),
      `  bundle: ${merge.bundle.bundle} (${merge.bundle.bytes} bytes)${merge.index_dir ? `   .kdd-index: ${merge.index_dir.written} written, ${merge.index_dir.removed} removed` : ''}`,
      '',
    ].join('\n');
  }
  const where = report.transport === 'folder' ? report.destination : `${report.remote} (${report.git!.branch}${report.git!.commit ? `, commit ${report.git!.commit.slice(0, 12)}` : ', index unchanged'})`;
  return [
    `kdd sync push (${report.transport}): ${report.files.length} artifact(s), ${report.bytes} bytes → ${where} in ${report.duration_ms} ms`,
    ...(report.skipped.length ? [`  not sent: ${report.skipped.join(', ')}`] : []),
    ...report.warnings.map((warning) => `  warning: ${warning}`),
    '',
  ].join('\n');
}
