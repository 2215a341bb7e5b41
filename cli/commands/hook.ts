import { resolve } from 'node:path';
import { installHook, uninstallHook, type HookChange, type HookKind } from '../../compiler/hooks.js';
import { parseFlags, UsageError, type Command } from '../command.js';

export const hookCommand: Command = {
  name: 'hook',
  summary: 'Install or remove the git hook that keeps .kdd-index/ up to date (incremental build)',
  usage:
    'kdd hook install [--pre-commit|--post-commit] [--specs specs] [--index-dir .kdd-index] [--out dist] [--strict] [--check] [--repo .] | kdd hook uninstall [--pre-commit|--post-commit] [--repo .]',
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, {
      'pre-commit': { type: 'boolean', default: false },
      'post-commit': { type: 'boolean', default: false },
      specs: { type: 'string', default: 'specs' },
      'index-dir': { type: 'string', default: '.kdd-index' },
      out: { type: 'string', default: 'dist' },
      strict: { type: 'boolean', default: false },
      // Run `kdd check` before the build and block the commit on an error (pre-commit only).
      check: { type: 'boolean', default: false },
      repo: { type: 'string', default: '.' },
      json: { type: 'boolean', default: false },
    });
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
