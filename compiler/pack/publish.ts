/**
 * Publishing the site's content-hashed files the way the bundle is published: new files and their
 * compressed copies first, then the pointer that names them, then the files that neither the new
 * pointer nor the previous one names (a page still holding the previous pointer can finish).
 */
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeAtomic, writeManyIfChanged } from '../atomic.js';
import { removeOrphanCopies, writeCompressedCopiesOf } from './precompress.js';

export interface HashedFiles {
  files: readonly { name: string; bytes: Uint8Array }[];
  /** The pointer file's name and what it holds (written as pretty JSON). */
  pointer: { file: string; value: unknown };
  /** Names this family of files owns in `dir` (others in the folder are never removed). */
  owns: RegExp;
  /** Names the pointer already in `dir` references (empty when there is none). */
  previouslyNamed: (dir: string) => Promise<string[]>;
}

export async function publishHashedFiles(dir: string, { files, pointer, owns, previouslyNamed }: HashedFiles): Promise<void> {
  const existing = new Set(await readdir(dir).catch(() => [] as string[]));
  const previous = await previouslyNamed(dir);
  const fresh = files.filter((file) => !existing.has(file.name));
  await writeManyIfChanged(dir, fresh.map((file) => [file.name, file.bytes] as const), { fresh: true });
  // Content-hashed: a file already there has its copies already.
  await writeCompressedCopiesOf(dir, fresh);
  await writeAtomic(join(dir, pointer.file), `${JSON.stringify(pointer.value, null, 2)}\n`);
  const keep = new Set([...files.map((file) => file.name), ...previous]);
  for (const name of existing) if (owns.test(name) && !keep.has(name)) await rm(join(dir, name), { force: true });
  await removeOrphanCopies(dir);
}
