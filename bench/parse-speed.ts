/**
 * Markdown parse speed: the production scanner (`scanMarkdown`) against the remark reference, on
 * the bodies of the kdd-engine corpus specs. Run with `npx tsx bench/parse-speed.ts`.
 * Each parser is warmed up first, then timed in batches for about two seconds (best batch kept).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseFrontMatter } from '../compiler/parse/front-matter.js';
import { parseMarkdownWithRemark } from '../test/helpers/markdown-remark.js';
import { scanMarkdown } from '../compiler/parse/scan-markdown.js';
import type { ParsedMarkdown } from '../compiler/parse/types.js';
import { DEFAULT_SOURCE } from './generate.js';

const ROOT = process.argv[2] ?? DEFAULT_SOURCE;
const TARGET_MS = 2000;
const BATCH_MS = 100;

function listMarkdown(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return listMarkdown(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

/**
 * Milliseconds per pass over all bodies: the fastest of several ~100 ms batches, after a warm-up,
 * so that other work on a shared machine does not inflate the figure.
 */
function time(parse: (body: string) => ParsedMarkdown, bodies: readonly string[]): number {
  for (let round = 0; round < 3; round++) for (const body of bodies) parse(body);
  let best = Infinity;
  const start = performance.now();
  while (performance.now() - start < TARGET_MS) {
    const batchStart = performance.now();
    let rounds = 0;
    do {
      for (const body of bodies) parse(body);
      rounds++;
    } while (performance.now() - batchStart < BATCH_MS);
    best = Math.min(best, (performance.now() - batchStart) / rounds);
  }
  return best;
}

function main(): void {
  if (!existsSync(ROOT)) {
    console.log(`[parse-speed] corpus ${ROOT} not found: nothing to measure`);
    return;
  }
  const bodies = listMarkdown(ROOT).map((path) => parseFrontMatter(readFileSync(path, 'utf8')).body);
  const megabytes = bodies.reduce((sum, body) => sum + Buffer.byteLength(body), 0) / 1e6;
  console.log(`corpus: ${bodies.length} files, ${(megabytes * 1000).toFixed(1)} KB of Markdown bodies (${ROOT})`);
  const results: [string, number][] = [
    ['scanMarkdown', time(scanMarkdown, bodies)],
    ['remark (reference)', time(parseMarkdownWithRemark, bodies)],
  ];
  for (const [name, msPerRound] of results) {
    const seconds = msPerRound / 1000;
    console.log(
      `${name.padEnd(20)} ${(megabytes / seconds).toFixed(2).padStart(8)} MB/s ${Math.round(bodies.length / seconds)
        .toString()
        .padStart(8)} files/s  (${msPerRound.toFixed(2)} ms per corpus pass)`,
    );
  }
  console.log(`speed-up: ${(results[1]![1] / results[0]![1]).toFixed(1)}×`);
}

main();
