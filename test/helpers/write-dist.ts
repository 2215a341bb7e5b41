/** Writes a hand-made bundle as `dist/` would hold it: `kdd-<hash>.msgpack` + `kdd.json`. */
import { createHash } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeBundle } from '../../formats/bundle/bundle.js';
import type { Bundle } from '../../formats/bundle/types.js';
import { removeTree } from './temp-tree.js';

/** The temporary folders {@link writeDist} made, so a test file can remove them when it ends. */
const madeDirs: string[] = [];

export async function writeDist(bundle: Bundle, dir?: string): Promise<{ dir: string; file: string; hash: string; bytes: Uint8Array }> {
  const out = dir ?? (await mkdtemp(join(tmpdir(), 'kdd-dist-')));
  if (!dir) madeDirs.push(out);
  const bytes = encodeBundle(bundle);
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 12);
  const file = `kdd-${hash}.msgpack`;
  await writeFile(join(out, file), bytes);
  await writeFile(join(out, 'kdd.json'), JSON.stringify({ format: bundle.format, bundle: file, hash }));
  return { dir: out, file, hash, bytes };
}

/** Removes every folder {@link writeDist} made in this test file (`afterAll(removeWrittenDists)`). */
export async function removeWrittenDists(): Promise<void> {
  await Promise.all(madeDirs.splice(0).map(removeTree));
}
