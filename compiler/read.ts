/**
 * Read stage: list spec files under the specs root and load their bytes. Everything downstream
 * sees POSIX paths relative to the root, sorted, so the walk order of the file system never
 * reaches an artifact.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { fileState, folderPrefix, isStamped, NOTHING_CHECKED, type StampCheck } from './cache/stamps.js';
import { warning, type BuildWarning } from './diagnostics.js';
import { faultPoint } from './fault.js';
import { compareCodeUnits } from '../model/order.js';

/** Spec files: Markdown documents and Gherkin features. */
export const SPEC_EXTENSIONS = ['.md', '.feature'];
/** Folders never indexed: tooling output and hidden folders. */
export const SKIPPED_DIRS = new Set(['node_modules', '.kdd-index', 'dist']);
/** Specs are prose; anything over this is a mistake (a pasted log, a generated dump). */
export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;

export interface SourceFile {
  /** Path relative to the specs root, POSIX separators. */
  path: string;
  text: string;
  /** SHA-256 hex of the raw bytes. */
  hash: string;
}

export interface ReadResult {
  files: SourceFile[];
  warnings: BuildWarning[];
}

// Listing, stat-ing and reading are synchronous on purpose: on a 10k-file tree listing and stat-ing
// take a third of the time the promise API takes (no per-call round trip through the thread pool),
// and reading 1,080 specs takes 60 ms of CPU instead of 160 ms (docs/decisions/build-speed.md);
// nothing else runs during a build that a blocked event loop would delay.
export async function listSpecPaths(root: string): Promise<string[]> {
  return walkSpecs(root).paths;
}

/**
 * Spec paths under `root`, sorted, and one SYMLINK_OUTSIDE_ROOT warning per link whose target lies
 * outside the root (file or folder): a link must never pull a file from elsewhere on the machine
 * into an index that is committed, served and shared. Links inside the root are kept as files
 * (folders are never followed: no cycles, no file listed twice).
 */
function walkSpecs(root: string): { paths: string[]; warnings: BuildWarning[] } {
  const paths: string[] = [];
  const warnings: BuildWarning[] = [];
  const realRoot = realpathSync(root);
  // `rel`: the folder's path under the root, POSIX separators, built as the walk descends (a
  // `path.relative` per file was a tenth of a one-edit build's read stage at 10,800 specs).
  function walk(dir: string, rel: string): void {
    const entries = readdirSync(dir, { withFileTypes: true });
    for (const entry of entries) {
      if (entry.name.startsWith('.') || SKIPPED_DIRS.has(entry.name)) continue;
      const path = rel + entry.name;
      if (entry.isDirectory()) walk(join(dir, entry.name), `${path}/`);
      else if (entry.isSymbolicLink()) {
        const target = linkTarget(join(dir, entry.name));
        // A dangling link is listed: the read reports it as UNREADABLE_FILE instead of it vanishing.
        if (target !== null && !insideRoot(realRoot, target)) warnings.push(warning('SYMLINK_OUTSIDE_ROOT', { file: path, target }));
        else if (isSpecName(entry.name)) paths.push(path);
      } else if (entry.isFile() && isSpecName(entry.name)) paths.push(path);
    }
  }
  walk(root, '');
  return { paths: paths.sort(), warnings: warnings.sort((a, b) => compareCodeUnits(a.file, b.file)) };
}

const isSpecName = (name: string) => SPEC_EXTENSIONS.some((ext) => name.endsWith(ext));

/** The real path a link leads to, or null when it leads nowhere. */
function linkTarget(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

function insideRoot(realRoot: string, path: string): boolean {
  const rel = relative(realRoot, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

export function hashBytes(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A NUL byte or invalid UTF-8 marks a binary file (images, archives renamed to .md). */
function decodeText(bytes: Buffer): string | null {
  if (bytes.includes(0)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

export async function readSource(root: string, path: string, maxBytes = DEFAULT_MAX_FILE_BYTES): Promise<SourceFile | BuildWarning> {
  const result = scanSource(root, path, maxBytes, 0);
  return 'hash' in result ? { path: result.path, text: result.text!, hash: result.hash } : result;
}

/** What a previous scan saw of a file: enough to trust its hash without reading it again. */
export interface SourceStamp {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  hash: string;
}

/** A spec file of a scan: `text` is null when its stamp matched and its bytes were not read. */
export interface ScannedFile {
  path: string;
  text: string | null;
  hash: string;
  /** Null when the file changed too recently for its stamp to be trusted next time (racy). */
  stamp: SourceStamp | null;
}

export interface ScanResult {
  files: ScannedFile[];
  warnings: BuildWarning[];
}

/**
 * A file modified this close to the scan may change again within the file system's timestamp
 * granularity without its size or times moving (git's "racily clean" entries): its stamp is not
 * kept, so the next scan reads and hashes it.
 */
const RACY_MS = 2_000;

/**
 * {@link readSpecs} for incremental builds: a file whose size, mtime and ctime equal its stamp in
 * `known` keeps the stamp's hash and is not read (`text` null). The content hash stays the truth:
 * any doubt (no stamp, a time or size moved, a recent change) reads and hashes the bytes.
 */
export async function scanSpecs(
  root: string,
  maxBytes = DEFAULT_MAX_FILE_BYTES,
  known: ReadonlyMap<string, SourceStamp> = new Map(),
  /** Path → hash of files known unchanged by other means (git, compiler/git-changes.ts): neither stat-ed nor read. */
  trusted: ReadonlyMap<string, string> = new Map(),
  /** Told how many files are done, of how many, as the reads finish. */
  onRead?: (done: number, total: number) => void,
  /** Stamps already checked (compiler/cache/stamps.ts `checkStamps`): a stamped file checked there is not stat-ed again. */
  statted: StampCheck = NOTHING_CHECKED,
): Promise<ScanResult> {
  const walked = walkSpecs(root);
  const { paths } = walked;
  const trustBefore = Date.now() - RACY_MS;
  const results = new Array<ScannedFile | BuildWarning>(paths.length);
  // First the stamps, synchronously: most files of an incremental build end there.
  const unread: number[] = [];
  const base = folderPrefix(root);
  paths.forEach((path, i) => {
    const hash = trusted.get(path);
    const stamp = known.get(path);
    const stamped = hash !== undefined ? { path, text: null, hash, stamp: stamp?.hash === hash ? stamp : null } : known.size > 0 ? unchangedFile(base + path, path, stamp, maxBytes, trustBefore, statted) : null;
    if (stamped) results[i] = stamped;
    else unread.push(i);
  });
  let done = paths.length - unread.length;
  onRead?.(done, paths.length);
  for (const i of unread) {
    results[i] = scanSource(root, paths[i]!, maxBytes, trustBefore);
    onRead?.(++done, paths.length);
  }
  const files: ScannedFile[] = [];
  const warnings: BuildWarning[] = [...walked.warnings];
  for (const result of results) {
    if ('hash' in result) files.push(result);
    else warnings.push(result);
  }
  return { files, warnings };
}

/** The scanned file when its stamp still matches `known` (bytes not read), else null. */
function unchangedFile(full: string, path: string, known: SourceStamp | undefined, maxBytes: number, trustBefore: number, statted: StampCheck): ScannedFile | null {
  if (!known || known.size > maxBytes) return null;
  // Moved, gone or not stat-able: the read path decides and reports.
  if (!(statted.has(path) ? statted.matches(path) : isStamped(fileState(full), known))) return null;
  // A match has the stamp's times.
  return { path, text: null, hash: known.hash, stamp: Math.max(known.mtimeMs, known.ctimeMs) < trustBefore ? known : null };
}

function scanSource(root: string, path: string, maxBytes: number, trustBefore: number): ScannedFile | BuildWarning {
  const full = join(root, path);
  faultPoint('read');
  try {
    const info = statSync(full);
    // A link to a FIFO or a device would block or never end: only regular files are read.
    if (!info.isFile()) return warning('UNREADABLE_FILE', { file: path, detail: 'not a regular file' });
    if (info.size > maxBytes) return warning('FILE_TOO_LARGE', { file: path, size: info.size, limit: maxBytes });
    const bytes = readFileSync(full);
    const text = decodeText(bytes);
    if (text === null) return warning('BINARY_FILE', { file: path });
    const hash = hashBytes(bytes);
    const stamp = Math.max(info.mtimeMs, info.ctimeMs) < trustBefore ? { size: info.size, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs, hash } : null;
    return { path, text, hash, stamp };
  } catch (error) {
    return warning('UNREADABLE_FILE', { file: path, detail: (error as NodeJS.ErrnoException).code ?? String(error) });
  }
}

/** What an earlier build lets the read stage skip (compiler/incremental/reuse.ts). */
export interface ReadSupply {
  /** Stamps a file may match to keep its hash unread. */
  known?: ReadonlyMap<string, SourceStamp>;
  /** Stamps already checked (compiler/cache/stamps.ts `checkStamps`): not stat-ed again. */
  statted?: StampCheck;
  /** Path → hash of files known unchanged (git): neither stat-ed nor read. */
  trusted?: ReadonlyMap<string, string>;
  /** Whether an unread file's previous record can be reused; when not, its bytes are read after all. */
  reusable?: (file: ScannedFile) => boolean;
}

/**
 * The read stage: every spec file under `root`, sorted, with its hash, and its text unless `supply`
 * lets it go unread. A file left unread whose record cannot be reused is read here after all, so
 * every file the extract stage must extract has its text.
 */
export async function readSources(root: string, maxBytes: number, supply: ReadSupply, onRead?: (done: number, total: number) => void): Promise<ScanResult> {
  const scan = await scanSpecs(root, maxBytes, supply.known, supply.trusted, onRead, supply.statted);
  const reusable = supply.reusable ?? (() => false);
  const missing = scan.files.filter((file) => file.text === null && !reusable(file));
  if (missing.length === 0) return scan;
  const loaded = new Map<string, ScannedFile | BuildWarning>();
  for (const file of missing) {
    const source = await readSource(root, file.path, maxBytes);
    loaded.set(file.path, 'hash' in source ? { ...source, stamp: source.hash === file.hash ? file.stamp : null } : source);
  }
  const files: ScannedFile[] = [];
  const warnings = [...scan.warnings];
  for (const file of scan.files) {
    const replaced = loaded.get(file.path) ?? file;
    if ('hash' in replaced) files.push(replaced);
    else warnings.push(replaced);
  }
  return { files, warnings };
}

/** Every spec file read and hashed: a {@link scanSpecs} that trusts no previous stamp. */
export async function readSpecs(root: string, maxBytes = DEFAULT_MAX_FILE_BYTES): Promise<ReadResult> {
  const { files, warnings } = await scanSpecs(root, maxBytes);
  return { files: files.map(({ path, text, hash }) => ({ path, text: text!, hash })), warnings };
}
