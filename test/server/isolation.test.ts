/**
 * #5: the library, the runtime and the CLI entry never load the server adapters or their
 * dependencies statically; `kdd serve` / `kdd mcp` import them lazily (`await import(...)`).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = new URL('../../', import.meta.url).pathname;
const STATIC_IMPORT = /^\s*(?:import|export)\s[^;]*?\sfrom\s+'([^']+)'|^\s*import\s+'([^']+)'/gm;

/** Every module reachable from `entry` through static imports (relative ones followed). */
function reachable(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const match of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
      const spec = match[1] ?? match[2]!;
      if (!spec.startsWith('.')) {
        packages.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
        continue;
      }
      const target = resolve(dirname(file), spec.replace(/\.js$/, '.ts'));
      if (existsSync(target)) visit(target);
    }
  };
  visit(entry);
  return { files, packages };
}

const entries = [
  ...readdirSync(join(REPO, 'runtime')).filter((f) => f.endsWith('.ts')).map((f) => join(REPO, 'runtime', f)),
  ...readdirSync(join(REPO, 'library')).filter((f) => f.endsWith('.ts')).map((f) => join(REPO, 'library', f)),
  ...['index.ts', 'cli/main.ts'].map((f) => join(REPO, f)).filter(existsSync),
];

describe('server dependencies stay out of the library', () => {
  it.each(entries.map((e) => [e.slice(REPO.length), e]))('%s loads no server module, MCP SDK, zod or sirv', (_name, entry) => {
    const { files, packages } = reachable(entry);
    expect([...files].filter((f) => f.startsWith(join(REPO, 'server')))).toEqual([]);
    for (const pkg of ['@modelcontextprotocol/sdk', 'zod', 'sirv']) expect(packages.has(pkg), pkg).toBe(false);
  });
});
