import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach } from 'vitest';

/** Writes `files` (relative path → content) into a fresh temp folder, in the given order. */
export async function tempTree(files: Record<string, string | Uint8Array>, order?: string[]): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'kdd-test-'));
  for (const path of order ?? Object.keys(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), files[path]!);
  }
  return root;
}

export async function removeTree(root: string): Promise<void> {
  await rm(root, { recursive: true, force: true });
}

/**
 * The list a test file pushes its temporary folders to, each removed after every test (`'each'`)
 * or when the file ends (`'all'`). Call it at the top level of the file, where hooks register.
 */
export function removedAfter(when: 'each' | 'all'): string[] {
  const roots: string[] = [];
  (when === 'each' ? afterEach : afterAll)(async () => {
    await Promise.all(roots.splice(0).map(removeTree));
  });
  return roots;
}

export const FIXTURES = new URL('../fixtures/', import.meta.url).pathname;
export const KDD_ENGINE_SPECS = new URL('../../../shared/corpora/kdd-engine/specs/', import.meta.url).pathname;
