/**
 * Large realistic trees for benchmarks and scale tests: the kdd-engine corpus copied N times, each
 * copy under `domains/dNNN/` so every id is renamed (domain-prefixed) and links stay domain-local.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';

const CORPUS = new URL('../../../shared/corpora/kdd-engine/specs/', import.meta.url).pathname;

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(entries.map((e) => (e.isDirectory() ? listFiles(join(dir, e.name)) : [join(dir, e.name)])));
  return nested.flat().sort();
}

/** Writes about `documents` spec files under `root` (whole corpus copies); returns the paths written. */
export async function replicateCorpus(root: string, documents: number, options: { corpus?: string; firstCopy?: number } = {}): Promise<string[]> {
  const corpus = options.corpus ?? CORPUS;
  const files = await Promise.all((await listFiles(corpus)).map(async (path) => ({ rel: relative(corpus, path), text: await readFile(path, 'utf8') })));
  const copies = Math.max(1, Math.ceil(documents / files.length));
  const written: string[] = [];
  for (let copy = options.firstCopy ?? 0; copy < (options.firstCopy ?? 0) + copies; copy++) {
    const domain = `d${String(copy).padStart(4, '0')}`;
    for (const file of files) {
      const rel = `domains/${domain}/${file.rel}`;
      await mkdir(dirname(join(root, rel)), { recursive: true });
      await writeFile(join(root, rel), file.text);
      written.push(rel);
    }
  }
  return written;
}
