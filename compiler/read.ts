/**
 * Read stage: list spec files under the specs root and load their bytes. Everything downstream
 * sees POSIX paths relative to the root, sorted, so the walk order of the file system never
 * reaches an artifact.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { warning, type BuildWarning } from './diagnostics.js';

/** Spec files: Markdown documents and Gherkin features. */
const SPEC_EXTENSIONS = ['.md', '.feature'];
/** Folders never indexed: tooling output and hidden folders. */
const SKIPPED_DIRS = new Set(['node_modules', '.kdd-index', 'dist']);
/** Specs are prose; anything over this is a mistake (a pasted log, a generated dump). */
export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;
const READ_BATCH = 64;

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

export async function listSpecPaths(root: string): Promise<string[]> {
  const found: string[] = [];
  async function walk(dir: string): Promise<void> {
    const entries = await readdir(dir, { withFileTypes: true });
    for (const entry of entries) {
      if (entry.name.startsWith('.') || SKIPPED_DIRS.has(entry.name)) continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      // Symlinks are listed too: a dangling one is reported as UNREADABLE_FILE instead of vanishing.
      else if ((entry.isFile() || entry.isSymbolicLink()) && SPEC_EXTENSIONS.some((ext) => entry.name.endsWith(ext))) {
        found.push(relative(root, full).split(sep).join('/'));
      }
    }
  }
  await walk(root);
  return found.sort();
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
  const full = join(root, path);
  try {
    const info = await stat(full);
    if (info.size > maxBytes) return warning('FILE_TOO_LARGE', { file: path, size: info.size, limit: maxBytes });
    const bytes = await readFile(full);
    const text = decodeText(bytes);
    if (text === null) return warning('BINARY_FILE', { file: path });
    return { path, text, hash: hashBytes(bytes) };
  } catch (error) {
    return warning('UNREADABLE_FILE', { file: path, detail: (error as NodeJS.ErrnoException).code ?? String(error) });
  }
}

export async function readSpecs(root: string, maxBytes = DEFAULT_MAX_FILE_BYTES): Promise<ReadResult> {
  const paths = await listSpecPaths(root);
  const results: (SourceFile | BuildWarning)[] = [];
  // Bounded parallelism: enough to hide I/O latency, far below the open-file limit on 10k trees.
  for (let start = 0; start < paths.length; start += READ_BATCH) {
    const batch = paths.slice(start, start + READ_BATCH);
    results.push(...(await Promise.all(batch.map((path) => readSource(root, path, maxBytes)))));
  }
  const files: SourceFile[] = [];
  const warnings: BuildWarning[] = [];
  for (const result of results) {
    if ('hash' in result) files.push(result);
    else warnings.push(result);
  }
  return { files, warnings };
}
