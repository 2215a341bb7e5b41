/**
 * Atomic writes: write a sibling temp file, then rename over the target. A crash or a failed build
 * leaves either the old file or the new one, never a torn mix (the previous bundle stays usable).
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

export async function writeAtomic(path: string, data: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(temp, data);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** Writes only when the content differs, so unchanged artifacts keep their mtime and git sees no churn. */
export async function writeIfChanged(path: string, text: string): Promise<boolean> {
  const current = await readFile(path, 'utf8').catch(() => null);
  if (current === text) return false;
  await writeAtomic(path, text);
  return true;
}
