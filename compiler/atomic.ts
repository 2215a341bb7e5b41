/**
 * Atomic writes: write a sibling temp file, then rename over the target. A crash or a failed build
 * leaves either the old file or the new one, never a torn mix (the previous bundle stays usable).
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { faultPoint } from './fault.js';

/**
 * Files in flight at once in {@link forEachLimited} (reads and removals of many files): enough to
 * keep libuv's thread pool busy and hide per-call latency, far below the open-file limit on
 * 10k-document trees.
 */
export const IO_CONCURRENCY = 64;

export async function writeAtomic(path: string, data: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  replaceFile(path, data);
}

/**
 * {@link writeAtomic} of the concatenation of `parts`, without building it: the caches are tens of
 * megabytes of mostly unchanged pieces, and one vectored write spares copying them into one buffer.
 */
export async function writeAtomicParts(path: string, parts: readonly Uint8Array[]): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writePartsThenRename(tempPath(path), parts, () => path);
}

/**
 * {@link writeAtomicParts} of a file named after its content: `nameOf` (a hash of `parts`) runs on
 * this thread while the thread pool writes the bytes to a temp file, which then takes the name. A
 * bundle of 65 MB (10,800 documents) takes ~50 ms to hash and ~100 ms to write on a 2-core VM: the
 * hash now costs no wait of its own. Returns the name.
 */
export async function writeAtomicPartsNamed(dir: string, parts: readonly Uint8Array[], nameOf: () => string): Promise<string> {
  await mkdir(dir, { recursive: true });
  let name = '';
  await writePartsThenRename(join(dir, `.kdd-unnamed.${process.pid}.tmp`), parts, () => join(dir, (name = nameOf())));
  return name;
}

/** Writes `parts` to `temp`, calls `target` once the first writes are submitted, then renames `temp` to it. */
async function writePartsThenRename(temp: string, parts: readonly Uint8Array[], target: () => string): Promise<void> {
  try {
    faultPoint('write');
    const handle = await open(temp, 'w');
    let path: string;
    try {
      // writev takes at most IOV_MAX buffers per call on some systems: hand them over in batches.
      const writing = (async () => {
        for (let at = 0; at < parts.length; at += 1024) await handle.writev(parts.slice(at, at + 1024));
      })();
      try {
        path = target();
      } finally {
        await writing;
      }
    } finally {
      await handle.close();
    }
    faultPoint('write');
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** Writes only when the content differs, so unchanged artifacts keep their mtime and git sees no churn. */
export async function writeIfChanged(path: string, text: string): Promise<boolean> {
  const bytes = Buffer.from(text);
  if ((await readFile(path).catch(() => null))?.equals(bytes)) return false;
  await writeAtomic(path, bytes);
  return true;
}

export interface WriteManyOptions {
  /**
   * True when none of the files can exist yet (a fresh folder): the read-and-compare is skipped.
   * Default false.
   */
  fresh?: boolean;
}

/**
 * A file's content for {@link writeManyIfChanged}: text, bytes, or a function that makes them when
 * the file's turn comes, so that only the file being written holds its content (10k node-file texts
 * made up front set a build's peak memory).
 */
export type FileContent = string | Uint8Array | (() => string | Uint8Array);

/**
 * {@link writeIfChanged} for many files under `dir` (relative POSIX paths → content): one `mkdir` per
 * folder, then each file made, read, compared and replaced. Returns the paths written, in the order
 * given. Same result as calling `writeIfChanged` on each in turn.
 *
 * Synchronous calls on purpose: these are node files of a few kilobytes, and the promise API's round
 * trip through the thread pool (open, write, close, rename: four per file) cost three times the CPU
 * of the calls themselves (1,080 files: ~150 ms against ~45 ms; docs/decisions/build-speed.md).
 */
export async function writeManyIfChanged(dir: string, files: ReadonlyArray<readonly [string, FileContent]>, options: WriteManyOptions = {}): Promise<string[]> {
  for (const folder of new Set(files.map(([path]) => dirname(join(dir, path))))) mkdirSync(folder, { recursive: true });
  const written: string[] = [];
  for (const [path, content] of files) {
    const target = join(dir, path);
    const text = typeof content === 'function' ? content() : content;
    // Compared as bytes: no UTF-8 decoding of a 30 MB edges.jsonl just to find it unchanged.
    const bytes = typeof text === 'string' ? Buffer.from(text) : text;
    if (!options.fresh && readIfPresent(target)?.equals(bytes)) continue;
    replaceFile(target, bytes);
    written.push(path);
  }
  return written;
}

function readIfPresent(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch {
    return null;
  }
}

/** Runs `task` over `items` with at most {@link IO_CONCURRENCY} in flight; rejects on the first error. */
export async function forEachLimited<T>(items: readonly T[], task: (item: T) => Promise<unknown>, limit = IO_CONCURRENCY): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

function replaceFile(path: string, data: string | Uint8Array): void {
  const temp = tempPath(path);
  try {
    faultPoint('write');
    writeFileSync(temp, data);
    faultPoint('write');
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** The sibling a write goes through; a crash can leave it behind ({@link isTempFile}). */
function tempPath(path: string): string {
  return `${path}.${process.pid}.tmp`;
}

/** A temp file some write left when its process died: never an artifact, removed by the next build. */
export function isTempFile(name: string): boolean {
  return /\.\d+\.tmp$/.test(name);
}
