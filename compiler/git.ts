/**
 * Git facts used instead of the wall clock: `indexed_at` of a node is the commit time of the last
 * commit that touched its source, so two builds of the same tree agree byte for byte and merges
 * can order versions (BR-MERGE-001 last-write-wins).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface GitFacts {
  /**
   * Newest commit that touched the specs root (not HEAD: a commit outside the specs leaves the
   * manifest untouched, UC-002), or null outside a repository / before the specs' first commit.
   */
  commit: string | null;
  /** Path relative to the specs root → ISO commit time of the newest commit touching it. */
  commitTimes: ReadonlyMap<string, string>;
  /** Commit time (ISO) of HEAD: when deletions recorded now happened. Null outside git. */
  headTime: string | null;
  /** Path relative to the specs root → ISO commit time of the oldest commit touching it (duplicate ids: the older file keeps the id). */
  firstCommitTimes: ReadonlyMap<string, string>;
}

const NO_GIT: GitFacts = { commit: null, commitTimes: new Map(), headTime: null, firstCommitTimes: new Map() };

async function git(cwd: string, args: string[]): Promise<string | null> {
  try {
    const { stdout } = await run('git', args, { cwd, maxBuffer: 256 * 1024 * 1024 });
    return stdout;
  } catch {
    return null;
  }
}

/** One `git log` pass over the specs root; files never committed simply have no entry. */
export async function readGitFacts(specsRoot: string): Promise<GitFacts> {
  // Spawning git costs tens of milliseconds: not at all where no repository can be.
  if (!process.env.GIT_DIR && !insideWorkTree(specsRoot)) return NO_GIT;
  const head = await git(specsRoot, ['log', '-1', '--format=%cI', 'HEAD']);
  if (head === null) return NO_GIT;
  const headTime = head.trim() ? new Date(head.trim()).toISOString() : null;
  // --relative makes paths relative to the specs root even when it is a sub-folder of the repo.
  // The same pass gives the newest commit touching the specs (its first `@` line).
  const log = await git(specsRoot, ['log', '--format=@%H %cI', '--name-only', '--relative', '--no-renames', '--', '.']);
  const commitTimes = new Map<string, string>();
  const firstCommitTimes = new Map<string, string>();
  let commit: string | null = null;
  let current = '';
  for (const line of (log ?? '').split('\n')) {
    if (line.startsWith('@')) {
      const [hash, time] = line.slice(1).split(' ');
      commit ??= hash!;
      current = new Date(time!).toISOString();
    } else if (line) {
      // Newest first: the first time a path shows is its newest commit, the last its oldest.
      if (!commitTimes.has(line)) commitTimes.set(line, current);
      firstCommitTimes.set(line, current);
    }
  }
  return { commit, commitTimes, headTime, firstCommitTimes };
}

/** Whether `dir` or a folder above it holds `.git` (a folder, or a file in worktrees and submodules). */
function insideWorkTree(dir: string): boolean {
  for (let at = resolve(dir); ; at = dirname(at)) {
    if (existsSync(join(at, '.git'))) return true;
    if (dirname(at) === at) return false;
  }
}
