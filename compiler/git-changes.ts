/**
 * Git-aware change detection for incremental builds (CMD-002 `base_commit`/`head_commit`): the spec
 * files that may differ from commit `base`, from `git diff` instead of hashing every file. The set
 * is a superset on purpose — committed changes up to `head`, uncommitted ones (staged or not) and
 * every untracked file (ignored ones too: the specs walk does not read `.gitignore`) — so a file
 * outside it is byte-identical to its version at `base`.
 */
import { createError } from '../model/errors.js';
import { git } from './git.js';
import type { DocumentRecord } from '../model/records.js';

export interface GitRange {
  /** Commit the previous `.kdd-index/` was built from. */
  base: string;
  /** Default `HEAD`. */
  head?: string;
}

/** Paths relative to `specsRoot` that may have changed since `range.base`. GIT_NOT_AVAILABLE / COMMIT_NOT_FOUND when git, the repository or a commit is missing. */
export async function changedSince(specsRoot: string, range: GitRange): Promise<Set<string>> {
  try {
    await git(specsRoot, ['rev-parse', '--is-inside-work-tree']);
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { stderr?: string };
    const detail = failure.code === 'ENOENT' ? 'git is not installed' : (failure.stderr ?? failure.message).trim().split('\n')[0]!;
    throw createError('GIT_NOT_AVAILABLE', { path: specsRoot, detail }, { cause: error });
  }
  const head = range.head ?? 'HEAD';
  const [base, tip] = await Promise.all([range.base, head].map((ref) => commitOf(specsRoot, ref)));
  const lists = await Promise.all([
    git(specsRoot, ['diff', '--name-only', '-z', '--no-renames', '--relative', base!, tip!, '--', '.']),
    git(specsRoot, ['diff', '--name-only', '-z', '--no-renames', '--relative', tip!, '--', '.']),
    git(specsRoot, ['ls-files', '--others', '-z', '--', '.']),
  ]);
  return new Set(lists.flatMap((list) => list.split('\0').filter(Boolean)));
}

async function commitOf(cwd: string, ref: string): Promise<string> {
  // `--end-of-options` keeps a ref such as `--output=x` from being read as an option.
  const resolved = await git(cwd, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]).catch(() => '');
  if (!resolved.trim()) throw createError('COMMIT_NOT_FOUND', { commit: ref });
  return resolved.trim();
}

/**
 * Content hash per path for the files a build may take from the previous index unread: every
 * previous record whose file is not in `changed`.
 */
export function trustedSources(prior: ReadonlyMap<string, DocumentRecord>, changed: ReadonlySet<string>): Map<string, string> {
  const trusted = new Map<string, string>();
  for (const [path, record] of prior) if (!changed.has(path)) trusted.set(path, record.node.source_hash);
  return trusted;
}
