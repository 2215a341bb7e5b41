/**
 * A digest of this package's own compiler and runtime code. The local caches hold things this code
 * made (node bodies in the bundle's encoding, the linked graph, tokens), and a cache passes its own
 * checks just as well after the code changed: keyed by this digest, any upgrade or edit of the code
 * makes them stale, and the next build starts from the artifacts again.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root as seen from here: the repository (sources) or `build/` (compiled code). */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CODE_DIRS = ['model', 'formats', 'compiler', 'runtime'];

let digest: string | null = null;

export function codeFingerprint(): string {
  if (digest !== null) return digest;
  const hash = createHash('sha256');
  for (const file of CODE_DIRS.flatMap((dir) => listFiles(join(ROOT, dir))).sort()) {
    hash.update(relative(ROOT, file).split(sep).join('/')).update('\0').update(readFileSync(file)).update('\0');
  }
  return (digest = hash.digest('hex'));
}

/** Code files only: `.d.ts` and source maps follow the code and would only make this slower. */
const isCode = (name: string) => (name.endsWith('.js') || name.endsWith('.ts')) && !name.endsWith('.d.ts');

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(join(dir, entry.name)) : isCode(entry.name) ? [join(dir, entry.name)] : [],
  );
}
