/**
 * Read-only access to raw spec files for `kdd_read_section` (runtime/queries/lookup.ts reads them through it) (`kdd mcp --specs-root DIR`).
 *
 * The one rule: nothing outside the specs root is ever read. A path must be relative, free of
 * `..` segments and NUL bytes, name a Markdown or Gherkin file, and still be inside the root once
 * every symlink is resolved (`realpath`), so a link pointing out of the tree is refused too.
 * Paths coming from a bundle (`source_file`) go through the same check: bundles are input.
 */
import { open, realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { createError } from '../model/errors.js';

/** Spec files only: a specs root may hold other files an agent has no business reading. */
const SPEC_EXTENSIONS = ['.md', '.markdown', '.feature'];
/** Same cap as the compiler's default (`DEFAULT_MAX_FILE_BYTES`). */
const MAX_FILE_BYTES = 1024 * 1024;

export interface SpecFile {
  /** Path relative to the specs root, POSIX separators. */
  path: string;
  text: string;
}

export interface SpecReader {
  /** The resolved (real) specs root. */
  readonly root: string;
  read(path: string): Promise<SpecFile>;
}

/** @throws KddError `INVALID_PARAMS` when the root is not a readable folder. */
export async function createSpecReader(root: string): Promise<SpecReader> {
  let real: string;
  try {
    real = await realpath(resolve(root));
  } catch (error) {
    throw createError('INVALID_PARAMS', { field: 'specs-root', reason: `cannot open ${root} (${(error as NodeJS.ErrnoException).code ?? 'error'})` });
  }
  return { root: real, read: (path) => readInside(real, path) };
}

async function readInside(root: string, path: string): Promise<SpecFile> {
  const refuse = (reason: string) => createError('INVALID_PARAMS', { field: 'path', reason });
  if (typeof path !== 'string' || path.trim() === '') throw refuse('is required');
  if (path.includes('\0')) throw refuse('must not contain NUL bytes');
  if (isAbsolute(path) || /^[a-zA-Z]:/.test(path) || path.startsWith('\\') || path.startsWith('~')) {
    throw refuse('must be relative to the specs root (e.g. 01-domain/entities/Pedido.md)');
  }
  if (path.split(/[\\/]+/).includes('..')) throw refuse("must not contain '..' segments");
  if (!SPEC_EXTENSIONS.some((ext) => path.toLowerCase().endsWith(ext))) throw refuse(`must name a spec file (${SPEC_EXTENSIONS.join(', ')})`);

  const candidate = resolve(root, path);
  if (!inside(root, candidate)) throw refuse('is outside the specs root');
  let real: string;
  try {
    real = await realpath(candidate);
  } catch {
    throw createError('DOCUMENT_NOT_FOUND', { source_path: path });
  }
  if (!inside(root, real)) throw refuse('resolves (through a symlink) outside the specs root');

  const handle = await open(real, 'r').catch(() => {
    throw createError('DOCUMENT_NOT_FOUND', { source_path: path });
  });
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw createError('DOCUMENT_NOT_FOUND', { source_path: path });
    if (info.size > MAX_FILE_BYTES) throw refuse(`file is larger than ${MAX_FILE_BYTES} bytes`);
    const text = await handle.readFile('utf8');
    return { path: relative(root, real).split(sep).join('/'), text };
  } finally {
    await handle.close();
  }
}

function inside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}
