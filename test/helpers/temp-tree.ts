import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

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

export const FIXTURES = new URL('../fixtures/', import.meta.url).pathname;
export const KDD_ENGINE_SPECS = new URL('../../../shared/corpora/kdd-engine/specs/', import.meta.url).pathname;
