/**
 * Git hooks that keep `.kdd-index/` in step with the specs (UC-002: the hook runs the incremental
 * build). The hook is a marked shell block, so it lives next to whatever else the hook does:
 * appended to an existing `.git/hooks/<kind>` or `.husky/<kind>`, added as a lefthook command, and
 * removed again without touching anything outside the markers. It calls the project-local CLI
 * (`$KDD_BIN`, else `node_modules/.bin/kdd`, else `kdd` on the PATH; none of them: a message that
 * says the index was not rebuilt and how to fix it), works offline, and never blocks a commit on
 * an index failure unless installed with `--strict`.
 */
import { chmod, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';
import { git } from '../git.js';


export type HookKind = 'pre-commit' | 'post-commit';
export type HookManager = 'git' | 'husky' | 'lefthook';

export const BLOCK_START = '# >>> kdd-index >>>';
export const BLOCK_END = '# <<< kdd-index <<<';

export interface HookOptions {
  /** Repository (or any folder inside it). */
  repo: string;
  /** Default `pre-commit`: build, then stage `.kdd-index/` into the commit being made. */
  kind?: HookKind;
  /** Paths relative to the repository root. Defaults: `specs`, `.kdd-index`, `dist`. */
  specsDir?: string;
  indexDir?: string;
  outDir?: string;
  /** Fail the commit when the index build fails. Default false. */
  strict?: boolean;
  /** pre-commit only: run `kdd check` first and block the commit on an error-level problem (the CI gate, locally). */
  check?: boolean;
}

export interface HookChange {
  manager: HookManager;
  /** File written (or that would be written, for a printed snippet). */
  target: string;
  action: 'created' | 'updated' | 'unchanged' | 'removed' | 'absent' | 'snippet';
  /** For `snippet`: what to paste, because the file could not be edited safely. */
  snippet?: string;
  /** Something the user should know (an earlier `exit` that would skip the block). */
  note?: string;
}

const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/** The shell block the hook runs (POSIX sh). */
export function hookBlock(options: Omit<HookOptions, 'repo'>): string {
  const kind = options.kind ?? 'pre-commit';
  const index = options.indexDir ?? '.kdd-index';
  const build = `kdd_index build ${quote(options.specsDir ?? 'specs')} --incremental --index-dir ${quote(index)} --out ${quote(options.outDir ?? 'dist')}`;
  const onFailure = options.strict
    ? `  echo "kdd-index: index build failed; commit blocked (--strict)" >&2\n  exit 1`
    : `  echo "kdd-index: index build failed; commit not blocked, but ${index} may be stale (run 'kdd build' to see why; 'kdd hook install --strict' blocks such commits)" >&2`;
  const onSuccess = kind === 'pre-commit' ? `  git add -A -- ${quote(index)}` : '  :';
  const gate =
    options.check && kind === 'pre-commit'
      ? [
          `if ! kdd_index check ${quote(options.specsDir ?? 'specs')} 1>&2; then`,
          `  echo "kdd-index: kdd check found errors; commit blocked (fix them, or commit with --no-verify)" >&2`,
          '  exit 1',
          'fi',
        ]
      : [];
  return [
    BLOCK_START,
    `# Installed by \`kdd hook install\`; \`kdd hook uninstall\` removes this block. KDD_BIN overrides the CLI.`,
    'kdd_index() {',
    '  if [ -n "${KDD_BIN:-}" ]; then $KDD_BIN "$@"',
    '  elif [ -x ./node_modules/.bin/kdd ]; then ./node_modules/.bin/kdd "$@"',
    '  elif command -v kdd >/dev/null 2>&1; then kdd "$@"',
    '  else',
    `    echo "kdd-index: kdd CLI not found (no \\$KDD_BIN, no ./node_modules/.bin/kdd, no kdd on PATH): ${index} was NOT rebuilt and may now be stale." >&2`,
    `    echo "kdd-index: fix: run 'npm install' (kdd-index as a dev dependency), or set KDD_BIN to the CLI, then run 'kdd build'." >&2`,
    '    return 127',
    '  fi',
    '}',
    ...gate,
    `if ${build} 1>&2; then`,
    onSuccess,
    'else',
    onFailure,
    'fi',
    BLOCK_END,
  ].join('\n');
}

/** Existing hook text + block → new text: replaces our previous block, or appends (shebang if new). */
export function addBlock(existing: string | null, block: string): string {
  if (existing === null || existing.trim() === '') return `#!/bin/sh\n${block}\n`;
  const stripped = removeBlock(existing);
  if (stripped !== existing) {
    const start = existing.indexOf(BLOCK_START);
    return `${existing.slice(0, start)}${block}${existing.slice(existing.indexOf(BLOCK_END) + BLOCK_END.length)}`;
  }
  return `${existing.replace(/\n*$/, '\n')}\n${block}\n`;
}

/** Removes our marked block (and the blank line before it); text outside the markers is kept. */
export function removeBlock(text: string): string {
  const start = text.indexOf(BLOCK_START);
  const end = text.indexOf(BLOCK_END);
  if (start < 0 || end < start) return text;
  const before = text.slice(0, start).replace(/\n\n$/, '\n');
  const after = text.slice(end + BLOCK_END.length).replace(/^\n/, '');
  return before + after;
}

/** True when a hook body has a top-level `exit` before our block would run. */
function exitsEarly(text: string): boolean {
  return /^exit\b/m.test(removeBlock(text));
}

async function repoRoot(dir: string): Promise<string> {
  return (await git(dir, ['rev-parse', '--show-toplevel'])).trim();
}

async function readText(path: string): Promise<string | null> {
  return readFile(path, 'utf8').catch(() => null);
}

async function isDir(path: string): Promise<boolean> {
  return stat(path).then(
    (info) => info.isDirectory(),
    () => false,
  );
}

/** Which hook runner the repository uses: lefthook (config file), husky (`.husky/`), or plain git. */
export async function detectManager(root: string): Promise<{ manager: HookManager; config?: string }> {
  for (const name of ['lefthook.yml', '.lefthook.yml', 'lefthook.yaml']) {
    if ((await readText(join(root, name))) !== null) return { manager: 'lefthook', config: join(root, name) };
  }
  if (await isDir(join(root, '.husky'))) return { manager: 'husky' };
  return { manager: 'git' };
}

/** The hook file git runs (honours `core.hooksPath`). */
async function gitHookPath(root: string, kind: HookKind): Promise<string> {
  const path = (await git(root, ['rev-parse', '--git-path', `hooks/${kind}`])).trim();
  return isAbsolute(path) ? path : join(root, path);
}

/** lefthook: a command entry inside our markers when the hook key is not there yet, else a snippet. */
function lefthookEntry(kind: HookKind, block: string): string {
  const body = block
    .split('\n')
    .filter((line) => line !== BLOCK_START && line !== BLOCK_END)
    .map((line) => `        ${line}`)
    .join('\n');
  return `${BLOCK_START}\n${kind}:\n  commands:\n    kdd-index:\n      run: |\n${body}\n${BLOCK_END}`;
}

export async function installHook(options: HookOptions): Promise<HookChange> {
  const kind = options.kind ?? 'pre-commit';
  const root = await repoRoot(options.repo);
  const block = hookBlock(options);
  const { manager, config } = await detectManager(root);
  if (manager === 'lefthook') {
    const text = (await readText(config!))!;
    const entry = lefthookEntry(kind, block);
    const ours = removeBlock(text);
    // Adding keys under an existing `pre-commit:` needs a YAML editor; print the entry instead.
    if (new RegExp(`^${kind}:`, 'm').test(ours)) {
      return { manager, target: config!, action: 'snippet', snippet: entry.split('\n').slice(2, -1).join('\n').replace(/^ {2}/gm, '') };
    }
    const next = addBlock(ours === text ? text : ours, entry);
    if (next === text) return { manager, target: config!, action: 'unchanged' };
    await writeFile(config!, next);
    return { manager, target: config!, action: 'updated', note: 'run `npx lefthook install` if lefthook is not installed in .git/hooks yet' };
  }
  const target = manager === 'husky' ? join(root, '.husky', kind) : await gitHookPath(root, kind);
  const existing = await readText(target);
  const next = addBlock(existing, block);
  if (next !== existing) {
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, next);
  }
  await chmod(target, 0o755);
  const change: HookChange = { manager, target, action: existing === null ? 'created' : next === existing ? 'unchanged' : 'updated' };
  if (exitsEarly(next)) change.note = `${target} has an 'exit' before the kdd-index block, which will not run`;
  return change;
}

/** Removes our block from every place `installHook` may have put it; other content stays. */
export async function uninstallHook(options: Pick<HookOptions, 'repo' | 'kind'>): Promise<HookChange[]> {
  const root = await repoRoot(options.repo);
  const kinds: HookKind[] = options.kind ? [options.kind] : ['pre-commit', 'post-commit'];
  const places: { manager: HookManager; target: string }[] = [];
  for (const kind of kinds) {
    places.push({ manager: 'git', target: await gitHookPath(root, kind) }, { manager: 'husky', target: join(root, '.husky', kind) });
  }
  for (const name of ['lefthook.yml', '.lefthook.yml', 'lefthook.yaml']) places.push({ manager: 'lefthook', target: join(root, name) });
  const changes: HookChange[] = [];
  for (const { manager, target } of places) {
    const text = await readText(target);
    if (text === null || !text.includes(BLOCK_START)) continue;
    const next = removeBlock(text);
    // A hook file that only ever held our block goes away entirely.
    if (next.trim() === '' || next.trim() === '#!/bin/sh') {
      await rm(target, { force: true });
      changes.push({ manager, target, action: 'removed' });
    } else {
      await writeFile(target, next);
      changes.push({ manager, target, action: 'updated' });
    }
  }
  return changes;
}
