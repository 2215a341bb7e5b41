/**
 * `kdd sync push|pull` (UC-007, CMD-005): share this developer's `.kdd-index/` and get the team's
 * merged index back, over two transports.
 *
 * - **Folder** (`--to DIR` / `--from DIR`): a shared folder or a mounted server path. Push copies
 *   the index artifacts (an allow-list: manifest, nodes, edges, tombstones, vector shards,
 *   enrichments; never `.cache/`, never a dot-file, never anything else) into
 *   `DIR/indexes/<developer>/`, swapped in whole. Pull merges every `DIR/indexes/<developer>/`
 *   with the pure merge (BR-MERGE-001) and writes the bundle (and optionally the merged index).
 * - **Git** (UC-007 FA-3): push commits only the index path ("kdd: update index", when it changed)
 *   and pushes the current branch; pull fetches and merges the `.kdd-index/` committed on refs.
 *
 * The spec's API transport (`POST /v1/index/push`) is not built. Every refusal carries a CMD-005
 * code; reports list every file that travelled with its size, so callers (and tests) can check
 * that no spec file did (REQ-003 CA-3).
 */
import { copyFile, mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { createError, isKddError, type KddError } from '../../model/errors.js';
import type { IndexManifest } from '../../model/graph.js';
import { git } from '../git.js';
import { mergeAndWrite, type MergeWriteReport } from './merge-write.js';
import { checkCompatible, manifestId } from './merge.js';
import { INDEX_FORMAT_VERSION } from '../manifest.js';


/** Where developers' indexes live inside a shared folder. */
export const INDEXES_DIR = 'indexes';
/** Message of the commit a git push makes (UC-007 FA-3). */
export const SYNC_COMMIT_MESSAGE = 'kdd: update index';

export interface SyncFile {
  /** Path relative to the index folder (folder transport) or to the repository root (git). */
  path: string;
  bytes: number;
}

export interface SyncPushReport {
  direction: 'push';
  transport: 'folder' | 'git';
  /** The shared folder, or the git remote's name. */
  remote: string;
  /** Folder transport: the developer folder written (`DIR/indexes/<developer>`). */
  destination: string | null;
  developer: string | null;
  index_path: string;
  manifest_id: string;
  /** What travelled: index artifacts only. */
  files: SyncFile[];
  bytes: number;
  /** Files of the index folder that were not sent (`.cache/`, dot-files, anything not an artifact). */
  skipped: string[];
  /** Git transport: the commit made (null when the index had not changed), the branch pushed. */
  git: { branch: string; commit: string | null; pushed_commits: number; other_files: string[] } | null;
  warnings: string[];
  duration_ms: number;
}

export interface SyncPullReport {
  direction: 'pull';
  transport: 'folder' | 'git';
  remote: string;
  /** Developer folders (folder transport) or refs (git) that were merged. */
  developers: string[];
  merge: MergeWriteReport;
  duration_ms: number;
}

// ── What an index artifact is ──────────────────────────────────────────────────────────────

const ARTIFACT = [
  /^manifest\.json$/,
  /^tombstones\.jsonl$/,
  /^nodes\/(?:[^/]+\/)+[^/]+\.json$/,
  /^edges\/[^/]+\.jsonl$/,
  /^embeddings\/[^/]+\/(?:[0-9a-f]{2}\.bin|model\.json)$/,
  /^enrichments\/[^/]+\.enrichment\.json$/,
];

/** True for a path (relative to `.kdd-index/`, POSIX) that push may transmit. */
export function isIndexArtifact(path: string): boolean {
  if (path.split('/').some((part) => part.startsWith('.') || part === '')) return false;
  return ARTIFACT.some((pattern) => pattern.test(path));
}

/** Regular files of the index folder split into artifacts to send and everything else. Symlinks are never followed. */
export async function listIndexArtifacts(indexDir: string): Promise<{ files: SyncFile[]; skipped: string[] }> {
  const files: SyncFile[] = [];
  const skipped: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    for (const entry of entries) {
      const full = join(dir, entry.name);
      const rel = relative(indexDir, full).split(sep).join('/');
      if (entry.isDirectory()) {
        if (entry.name.startsWith('.')) skipped.push(`${rel}/`);
        else await walk(full);
      } else if (entry.isFile() && isIndexArtifact(rel)) {
        files.push({ path: rel, bytes: (await stat(full)).size });
      } else {
        skipped.push(rel);
      }
    }
  };
  await walk(indexDir);
  const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  files.sort((a, b) => order(a.path, b.path));
  skipped.sort(order);
  return { files, skipped };
}

/**
 * An index without a single document is refused (docs/integrity.md): pushed, it would make every
 * teammate's merge lose what only this index held. `allowEmpty` (`--allow-empty`) lifts it.
 */
function refuseEmpty(manifest: IndexManifest, allowEmpty: boolean | undefined): void {
  if (!allowEmpty && Object.keys(manifest.sources).length === 0) {
    throw createError('PUSH_REJECTED', { reason: 'the local index holds no documents (build it from the specs first, or pass --allow-empty)' });
  }
}

async function readLocalManifest(indexDir: string): Promise<IndexManifest> {
  let text: string;
  try {
    text = await readFile(join(indexDir, 'manifest.json'), 'utf8');
  } catch {
    throw createError('NO_LOCAL_INDEX', { index_path: indexDir });
  }
  try {
    const manifest = JSON.parse(text) as IndexManifest;
    if (typeof manifest?.version !== 'string' || typeof manifest.sources !== 'object') throw new Error('not an IndexManifest');
    return manifest;
  } catch (error) {
    throw createError('NO_LOCAL_INDEX', { index_path: indexDir, detail: `manifest.json is not valid: ${(error as Error).message}` });
  }
}

const major = (version: string) => version.split('.')[0];

/** A folder name for a developer: characters outside `[A-Za-z0-9_.-]` become `_`, no leading dot. */
export function developerName(name: string): string {
  const safe = name.trim().replace(/[^A-Za-z0-9_.-]/g, '_').replace(/^\.+/, '');
  if (!safe) throw createError('INVALID_PARAMS', { field: 'as', reason: `'${name}' gives an empty developer name` });
  return safe;
}

// ── Folder transport ───────────────────────────────────────────────────────────────────────

export interface FolderPushOptions {
  indexDir: string;
  /** The shared folder; must exist (a missing mount is REMOTE_UNREACHABLE, never created). */
  to: string;
  /** Developer folder name; default the manifest's `indexed_by`, else the OS user name. */
  as?: string;
  /** Push an index without documents anyway (refused by default). */
  allowEmpty?: boolean;
}

export async function pushToFolder(options: FolderPushOptions): Promise<SyncPushReport> {
  const started = performance.now();
  const manifest = await readLocalManifest(options.indexDir);
  refuseEmpty(manifest, options.allowEmpty);
  await requireFolder(options.to);
  const developer = developerName(options.as ?? manifest.indexed_by ?? userInfo().username);
  const indexes = join(options.to, INDEXES_DIR);
  if (major(manifest.version) !== major(INDEX_FORMAT_VERSION)) {
    throw createError('PUSH_REJECTED', { reason: `index format ${manifest.version} is not ${INDEX_FORMAT_VERSION}: rebuild with kdd build --full` });
  }
  for (const other of await developerFolders(options.to)) {
    if (other.name === developer) continue;
    const theirs = await readFile(join(other.path, 'manifest.json'), 'utf8').then((text) => JSON.parse(text) as IndexManifest, () => null);
    if (!theirs) continue;
    try {
      checkCompatible([{ manifest }, { manifest: theirs }]);
    } catch (error) {
      if (!isKddError(error)) throw error;
      throw createError('PUSH_REJECTED', { reason: `not mergeable with ${other.name}'s index (${error.code}: ${error.message})` });
    }
  }
  const { files, skipped } = await listIndexArtifacts(options.indexDir);
  const destination = join(indexes, developer);
  const tag = `${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
  const incoming = join(indexes, `.incoming-${developer}-${tag}`);
  const outgoing = join(indexes, `.outgoing-${developer}-${tag}`);
  try {
    await mkdir(incoming, { recursive: true });
    for (const file of files) {
      const target = join(incoming, ...file.path.split('/'));
      await mkdir(dirname(target), { recursive: true });
      await copyFile(join(options.indexDir, ...file.path.split('/')), target);
    }
    // Swap: the previous copy steps aside, the new one takes its name, the old one is removed.
    const hadPrevious = await rename(destination, outgoing).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return false;
        throw error;
      },
    );
    await rename(incoming, destination);
    if (hadPrevious) await rm(outgoing, { recursive: true, force: true });
  } catch (error) {
    await rm(incoming, { recursive: true, force: true });
    throw createError('TRANSPORT_ERROR', { direction: 'push', detail: (error as Error).message }, { cause: error });
  }
  return {
    direction: 'push',
    transport: 'folder',
    remote: options.to,
    destination,
    developer,
    index_path: options.indexDir,
    manifest_id: manifestId(manifest),
    files,
    bytes: files.reduce((sum, file) => sum + file.bytes, 0),
    skipped,
    git: null,
    warnings: [],
    duration_ms: Math.round(performance.now() - started),
  };
}

async function requireFolder(path: string): Promise<void> {
  const info = await stat(path).catch(() => null);
  if (!info?.isDirectory()) throw createError('REMOTE_UNREACHABLE', { remote: path, detail: 'no such folder (is the share mounted?)' });
}

/** `DIR/indexes/<name>/` folders holding a manifest, sorted by name (dot-folders are swaps in progress). */
async function developerFolders(root: string): Promise<{ name: string; path: string }[]> {
  const entries = await readdir(join(root, INDEXES_DIR), { withFileTypes: true }).catch(() => []);
  const out: { name: string; path: string }[] = [];
  for (const entry of entries) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const path = join(root, INDEXES_DIR, entry.name);
    if (await stat(join(path, 'manifest.json')).then(() => true, () => false)) out.push({ name: entry.name, path });
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : 1));
}

export interface PullOutput {
  /** Where the merged bundle goes (`dist`-style: content-hashed bundle + `kdd.json`). */
  outDir: string;
  /** Also write the merged `.kdd-index/` here. */
  indexDir?: string;
  modelsDir?: string;
}

export async function pullFromFolder(options: PullOutput & { from: string }): Promise<SyncPullReport> {
  const started = performance.now();
  await requireFolder(options.from);
  const developers = await developerFolders(options.from);
  if (developers.length === 0) throw createError('NO_REMOTE_INDEX', { remote: options.from });
  const paths = developers.map((developer) => developer.path);
  const merge = await withRetry(() => mergeOf({ paths: paths.length === 1 ? [paths[0]!, paths[0]!] : paths }, options));
  return {
    direction: 'pull',
    transport: 'folder',
    remote: options.from,
    developers: developers.map((developer) => developer.name),
    merge,
    duration_ms: Math.round(performance.now() - started),
  };
}

/**
 * The merge of the inputs. A single index is merged with itself (merging is idempotent), so one
 * developer's pull still gives a bundle; the report lists that source once.
 */
async function mergeOf(inputs: { paths: string[]; refs?: string[]; repo?: string; indexPath?: string }, output: PullOutput): Promise<MergeWriteReport> {
  const report = await mergeAndWrite({ ...inputs, outDir: output.outDir, indexDir: output.indexDir, modelsDir: output.modelsDir, requestedBy: 'kdd sync pull' });
  const seen = new Set<string>();
  return { ...report, sources: report.sources.filter((source) => !seen.has(source.source) && seen.add(source.source)) };
}

/** A push may be swapping a developer folder while we read it: one retry after a short pause. */
async function withRetry<T>(task: () => Promise<T>): Promise<T> {
  try {
    return await task();
  } catch (error) {
    if (isKddError(error) && error.code !== 'MANIFEST_NOT_FOUND') throw error;
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 200));
    return task();
  }
}

// ── Git transport ──────────────────────────────────────────────────────────────────────────

/** A git failure talking to `remote` → the CMD-005 code its message points to. */
export function remoteError(direction: 'push' | 'pull', remote: string, error: unknown): KddError {
  const detail = ((error as { stderr?: string }).stderr || (error as Error).message || String(error)).trim();
  if (/authentication failed|permission denied|could not read (username|password)|\b40[13]\b|access denied|terminal prompts disabled/i.test(detail)) {
    return createError('AUTH_FAILED', { remote, detail }, { cause: error });
  }
  if (/\[rejected\]|\[remote rejected\]|non-fast-forward|fetch first|hook declined|failed to push some refs/i.test(detail)) {
    return createError('PUSH_REJECTED', { reason: detail.split('\n').find((line) => /rejected|hint|error/i.test(line)) ?? detail, remote }, { cause: error });
  }
  if (/could not resolve host|does not appear to be a git repository|unable to access|connection (refused|timed out)|no such (file|remote)|could not read from remote|not found/i.test(detail)) {
    return createError('REMOTE_UNREACHABLE', { remote, detail }, { cause: error });
  }
  return createError('TRANSPORT_ERROR', { direction, detail }, { cause: error });
}

async function repoRoot(cwd: string, direction: 'push' | 'pull'): Promise<string> {
  try {
    return (await git(cwd, ['rev-parse', '--show-toplevel'])).trim();
  } catch (error) {
    throw createError('TRANSPORT_ERROR', { direction, detail: `not a git repository: ${cwd}` }, { cause: error });
  }
}

async function requireRemote(root: string, remote: string): Promise<void> {
  try {
    await git(root, ['remote', 'get-url', remote]);
  } catch (error) {
    throw createError('REMOTE_UNREACHABLE', { remote, detail: `no git remote named '${remote}'` }, { cause: error });
  }
}

export interface GitPushOptions {
  indexDir: string;
  /** Default `origin`. */
  remote?: string;
  /** Push an index without documents anyway (refused by default). */
  allowEmpty?: boolean;
}

/**
 * `git add <index> && git commit -m "kdd: update index" -- <index>` (only when the index changed;
 * nothing else staged is committed), then `git push <remote> <branch>`.
 */
export async function pushWithGit(options: GitPushOptions): Promise<SyncPushReport> {
  const started = performance.now();
  const remote = options.remote ?? 'origin';
  const manifest = await readLocalManifest(options.indexDir);
  refuseEmpty(manifest, options.allowEmpty);
  const root = await repoRoot(options.indexDir, 'push');
  const rootReal = await realRoot(root);
  const indexPath = relative(rootReal, await realRoot(options.indexDir)).split(sep).join('/');
  if (!indexPath || indexPath.startsWith('..')) throw createError('TRANSPORT_ERROR', { direction: 'push', detail: `${options.indexDir} is not inside the repository ${root}` });
  await requireRemote(root, remote);
  const branch = (await git(root, ['symbolic-ref', '--short', 'HEAD']).catch(() => '')).trim();
  if (!branch) throw createError('TRANSPORT_ERROR', { direction: 'push', detail: 'HEAD is detached: check out a branch to push' });

  const { skipped } = await listIndexArtifacts(options.indexDir);
  let commit: string | null = null;
  try {
    await git(root, ['add', '--all', '--', indexPath]);
    const changed = await git(root, ['diff', '--cached', '--quiet', '--', indexPath]).then(
      () => false,
      () => true,
    );
    if (changed) {
      // With a pathspec, `git commit` records only those paths; other staged changes stay staged.
      await git(root, ['commit', '-q', '-m', SYNC_COMMIT_MESSAGE, '--', indexPath]);
      commit = (await git(root, ['rev-parse', 'HEAD'])).trim();
    }
  } catch (error) {
    throw createError('TRANSPORT_ERROR', { direction: 'push', detail: ((error as { stderr?: string }).stderr || (error as Error).message).trim() }, { cause: error });
  }

  // What the push will carry: every commit the remote does not have yet.
  const pending = (await git(root, ['rev-list', 'HEAD', '--not', `--remotes=${remote}`])).split('\n').filter(Boolean);
  const touched = new Set<string>();
  for (const sha of pending) {
    for (const path of (await git(root, ['diff-tree', '--no-commit-id', '--name-only', '-r', '--root', '-z', sha])).split('\0')) if (path) touched.add(path);
  }
  const inIndex = (path: string) => path.startsWith(`${indexPath}/`);
  const files: SyncFile[] = [];
  for (const path of [...touched].filter(inIndex).sort()) {
    files.push({ path, bytes: (await stat(join(root, path)).catch(() => null))?.size ?? 0 });
  }
  const otherFiles = [...touched].filter((path) => !inIndex(path)).sort();
  const warnings = otherFiles.length
    ? [`git pushes whole commits: ${pending.length} commit(s) not yet on ${remote} also carry ${otherFiles.length} file(s) outside ${indexPath}/ (see git.other_files)`]
    : [];

  try {
    await git(root, ['push', '--quiet', remote, `${branch}:${branch}`]);
  } catch (error) {
    throw remoteError('push', remote, error);
  }
  return {
    direction: 'push',
    transport: 'git',
    remote,
    destination: null,
    developer: null,
    index_path: indexPath,
    manifest_id: manifestId(manifest),
    files,
    bytes: files.reduce((sum, file) => sum + file.bytes, 0),
    skipped,
    git: { branch, commit, pushed_commits: pending.length, other_files: otherFiles },
    warnings,
    duration_ms: Math.round(performance.now() - started),
  };
}

async function realRoot(path: string): Promise<string> {
  const { realpath } = await import('node:fs/promises');
  return realpath(resolve(path));
}

export interface GitPullOptions extends PullOutput {
  /** The repository to fetch into (default `.`). */
  repo: string;
  remote?: string;
  /** Refs to merge; default every `<remote>/*` branch that holds `<indexPath>/manifest.json`. */
  refs?: string[];
  indexPath?: string;
}

/** `git fetch <remote>`, then `kdd merge --from-git` of the refs. */
export async function pullWithGit(options: GitPullOptions): Promise<SyncPullReport> {
  const started = performance.now();
  const remote = options.remote ?? 'origin';
  const indexPath = options.indexPath ?? '.kdd-index';
  const root = await repoRoot(options.repo, 'pull');
  await requireRemote(root, remote);
  try {
    await git(root, ['fetch', '--quiet', '--prune', remote]);
  } catch (error) {
    throw remoteError('pull', remote, error);
  }
  let refs = options.refs ?? [];
  if (refs.length === 0) {
    const branches = (await git(root, ['for-each-ref', '--format=%(refname:short)', `refs/remotes/${remote}/`])).split('\n').filter((ref) => ref && ref !== remote && !ref.endsWith('/HEAD'));
    const withIndex: string[] = [];
    for (const ref of branches) {
      if (await git(root, ['cat-file', '-e', `${ref}:${indexPath}/manifest.json`]).then(() => true, () => false)) withIndex.push(ref);
    }
    refs = withIndex;
  }
  if (refs.length === 0) throw createError('NO_REMOTE_INDEX', { remote });
  const merge = await mergeOf({ paths: [], refs: refs.length === 1 ? [refs[0]!, refs[0]!] : refs, repo: root, indexPath }, options);
  return { direction: 'pull', transport: 'git', remote, developers: refs, merge, duration_ms: Math.round(performance.now() - started) };
}
