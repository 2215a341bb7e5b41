import { resolve } from 'node:path';
import { installHook, uninstallHook, type HookChange, type HookKind } from '../../compiler/team/hooks.js';
import { parseFlags, UsageError, type Command, type FlagTable } from '../command.js';

/** Every `kdd hook` flag: what it parses and what `kdd hook --help` prints. */
const HOOK_FLAGS = {
  'pre-commit': { type: 'boolean', default: false, description: 'Build before each commit and stage .kdd-index/ with it (the default)' },
  'post-commit': { type: 'boolean', default: false, description: 'Build after each commit instead (the index changes land in the next commit)' },
  specs: { type: 'string', default: 'specs', value: 'DIR', description: 'install: the specs tree the hook builds' },
  'index-dir': { type: 'string', default: '.kdd-index', value: 'DIR', description: 'install: the index the hook writes and stages' },
  out: { type: 'string', default: 'dist', value: 'DIR', description: 'install: where the hook writes the bundle' },
  strict: { type: 'boolean', default: false, description: 'install: a failed index build blocks the commit (by default it is reported, not blocking)' },
  // Run `kdd check` before the build and block the commit on an error (pre-commit only).
  check: { type: 'boolean', default: false, description: 'install: run kdd check first and block the commit when it finds an error-level problem (pre-commit only)' },
  repo: { type: 'string', default: '.', value: 'DIR', description: 'The git repository (or husky / lefthook / pre-commit set-up) to change' },
  json: { type: 'boolean', default: false, description: 'Print what was changed as JSON' },
} as const satisfies FlagTable;

export const hookCommand: Command = {
  name: 'hook',
  summary: 'Install or remove the git hook that keeps .kdd-index/ up to date (incremental build)',
  usage: 'kdd hook install [options]\n       kdd hook uninstall [--pre-commit|--post-commit] [--repo .]',
  flags: HOOK_FLAGS,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, HOOK_FLAGS);
    const [action] = positionals;
    if (action !== 'install' && action !== 'uninstall') throw new UsageError("expected 'install' or 'uninstall'");
    if (values['pre-commit'] && values['post-commit']) throw new UsageError('choose one of --pre-commit and --post-commit');
    if (values.check && values['post-commit']) throw new UsageError('--check needs a pre-commit hook (a post-commit hook cannot block the commit)');
    const kind: HookKind | undefined = values['post-commit'] ? 'post-commit' : values['pre-commit'] ? 'pre-commit' : undefined;
    const repo = resolve(io.cwd, values.repo);
    const changes =
      action === 'install'
        ? [await installHook({ repo, kind, specsDir: values.specs, indexDir: values['index-dir'], outDir: values.out, strict: values.strict, check: values.check })]
        : await uninstallHook({ repo, kind });
    io.stdout(values.json ? `${JSON.stringify(changes, null, 2)}\n` : describe(action, changes));
    return 0;
  },
};

function describe(action: string, changes: HookChange[]): string {
  if (changes.length === 0) return `kdd hook ${action}: no kdd-index block found\n`;
  return changes
    .map((change) => {
      const head = `kdd hook ${action}: ${change.action} ${change.target} (${change.manager})`;
      const snippet = change.snippet ? `\n  ${change.target} already defines this hook; add under it:\n\n${change.snippet}\n` : '';
      return `${head}${change.note ? `\n  note: ${change.note}` : ''}${snippet}`;
    })
    .join('\n')
    .concat('\n');
}
