/**
 * The one way the compiler runs git, and the git facts a build uses instead of the wall clock:
 * `indexed_at` of a node is the commit time of the last commit that touched its source, so two
 * builds of the same tree agree byte for byte and merges can order versions (BR-MERGE-001
 * last-write-wins).
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';

/**
 * `node:child_process` is imported when git first runs: it loads the network and stream modules
 * too, a few milliseconds that a build outside a repository (no git to run) need not pay.
 */
const childProcess = () => import('node:child_process');

/** Never wait for a password: a prompt would hang `kdd sync`, hooks and builds alike. */
const NON_INTERACTIVE = { GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: 'echo', SSH_ASKPASS: 'echo', GCM_INTERACTIVE: 'never' };
const MAX_OUTPUT = 256 * 1024 * 1024;

/**
 * stdout of `git args` in `cwd`; throws execFile's error (it carries `stderr`) when git fails.
 * The environment is read per call, so a `GIT_DIR` or `HOME` set after import still reaches git.
 */
export async function git(cwd: string, args: readonly string[]): Promise<string> {
  const execFileAsync = promisify((await childProcess()).execFile);
  return (await execFileAsync('git', args, { cwd, env: { ...process.env, ...NON_INTERACTIVE }, maxBuffer: MAX_OUTPUT })).stdout;
}

/** {@link git}, or null when git fails (no repository, no commits). */
export const gitOrNull = (cwd: string, args: readonly string[]): Promise<string | null> => git(cwd, args).catch(() => null);

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


/** One `git log` pass over the specs root; files never committed simply have no entry. */
export async function readGitFacts(specsRoot: string): Promise<GitFacts> {
  // Spawning git costs tens of milliseconds: not at all where no repository can be.
  if (!process.env.GIT_DIR && !insideWorkTree(specsRoot)) return NO_GIT;
  const head = await gitOrNull(specsRoot, ['log', '-1', '--format=%cI', 'HEAD']);
  if (head === null) return NO_GIT;
  const headTime = head.trim() ? new Date(head.trim()).toISOString() : null;
  // --relative makes paths relative to the specs root even when it is a sub-folder of the repo.
  // The same pass gives the newest commit touching the specs (its first `@` line).
  const log = await gitOrNull(specsRoot, ['log', '--format=@%H %cI', '--name-only', '--relative', '--no-renames', '--', '.']);
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

/** Object contents for object names (blob ids, `rev:path`), in order, through one `git cat-file --batch` process. */
export async function catFiles(repo: string, specs: readonly string[]): Promise<string[]> {
  const { spawn } = await childProcess();
  return new Promise((resolvePromise, reject) => {
    const child = spawn('git', ['cat-file', '--batch'], { cwd: repo, stdio: ['pipe', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`git cat-file failed (${code}): ${stderr}`));
      const out = Buffer.concat(chunks);
      const texts: string[] = [];
      let offset = 0;
      for (const spec of specs) {
        const end = out.indexOf(0x0a, offset);
        const header = out.subarray(offset, end).toString();
        const match = /^[0-9a-f]+ blob (\d+)$/.exec(header);
        if (!match) return reject(new Error(`git cat-file: unexpected answer for ${spec}: ${header}`));
        const size = Number(match[1]);
        texts.push(out.subarray(end + 1, end + 1 + size).toString('utf8'));
        offset = end + 1 + size + 1; // contents are followed by a newline
      }
      resolvePromise(texts);
    });
    child.stdin.end(specs.map((spec) => `${spec}\n`).join(''));
  });
}
