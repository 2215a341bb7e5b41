/**
 * A digest of this package's own compiler and runtime code. The local caches hold things this code
 * made (node bodies in the bundle's encoding, the linked graph, tokens), and a cache passes its own
 * checks just as well after the code changed: keyed by this digest, any upgrade or edit of the code
 * makes them stale, and the next build starts from the artifacts again.
 *
 * Every build needs the digest, and hashing ~170 files costs about 10 ms of a 54-document build. So
 * `npm run build:ts` leaves a memo beside the compiled code: the digest with the size and mtime of
 * every file it covers. A process takes the memo's digest when the same files still have the same
 * stamps and are all older than the memo (a file written in the memo's own clock tick could have
 * changed unseen, as with git's racily clean entries); otherwise it hashes the files, as without one.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root as seen from here: the repository (sources) or `build/` (compiled code). */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CODE_DIRS = ['model', 'formats', 'compiler', 'runtime'];
/** Where `npm run build:ts` leaves the memo, beside the code it describes. */
export const MEMO_FILE = 'code-fingerprint.json';

interface Memo {
  digest: string;
  /** `[path from ROOT, size, mtimeMs]` of every file covered, in hashing order. */
  files: [string, number, number][];
}

let digest: string | null = null;

export function codeFingerprint(): string {
  return (digest ??= fingerprintOf(ROOT));
}

/** The digest of the code under `root` (its memo's, when the memo holds). */
export function fingerprintOf(root: string): string {
  const files = codeFiles(root);
  return memoDigest(root, files) ?? hashFiles(root, files);
}

/** Writes the memo for the code under `root` as it is now (once the code is compiled; never by a build). */
export function writeCodeFingerprintMemo(root: string = ROOT): void {
  const files = codeFiles(root);
  const memo: Memo = { digest: hashFiles(root, files), files: files.map((file) => stamp(root, file)) };
  writeFileSync(join(root, MEMO_FILE), `${JSON.stringify(memo)}\n`);
}

/** The memo's digest when it describes exactly these files, unchanged since it was written; else null. */
function memoDigest(root: string, files: readonly string[]): string | null {
  let memo: Memo;
  let written: number;
  try {
    written = statSync(join(root, MEMO_FILE)).mtimeMs;
    memo = JSON.parse(readFileSync(join(root, MEMO_FILE), 'utf8')) as Memo;
  } catch {
    return null;
  }
  if (typeof memo.digest !== 'string' || !Array.isArray(memo.files) || memo.files.length !== files.length) return null;
  for (let i = 0; i < files.length; i++) {
    const [path, size, mtime] = stamp(root, files[i]!);
    const recorded = memo.files[i];
    if (!recorded || recorded[0] !== path || recorded[1] !== size || recorded[2] !== mtime || mtime >= written) return null;
  }
  return memo.digest;
}

function hashFiles(root: string, files: readonly string[]): string {
  const hash = createHash('sha256');
  for (const file of files) hash.update(relativePath(root, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

function stamp(root: string, file: string): [string, number, number] {
  const info = statSync(file);
  return [relativePath(root, file), info.size, info.mtimeMs];
}

const relativePath = (root: string, file: string) => relative(root, file).split(sep).join('/');

function codeFiles(root: string): string[] {
  return CODE_DIRS.flatMap((dir) => listFiles(join(root, dir))).sort();
}

/** Code files only: `.d.ts` and source maps follow the code and would only make this slower. */
const isCode = (name: string) => (name.endsWith('.js') || name.endsWith('.ts')) && !name.endsWith('.d.ts');

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(join(dir, entry.name)) : isCode(entry.name) ? [join(dir, entry.name)] : [],
  );
}
