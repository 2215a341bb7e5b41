/**
 * Synthetic corpus generator: replicates a real KDD specs tree (default: the kdd-engine corpus,
 * 54 files) into N documents. Copy 0 is the original; copy k renames every id and name token of
 * the original so each copy is its own internally linked sub-graph:
 *
 *   CMD-001 → CMD-7001 · BR-DOCUMENT-001 → BR-DOCUMENTK7-001 · KDDDocument → KDDDocumentK7
 *   EVT-KDDDocument-Detected → EVT-KDDDocumentK7-Detected · CMD-001-IndexDocument → CMD-7001-IndexDocumentK7
 *   index-entity(.feature) → index-entity-k7 · SCN-IndexEntity-001 → SCN-IndexEntityK7-001
 *
 * Ids, file names, wiki-link targets, front-matter and titles all go through the same token map,
 * so links stay consistent. A few Markdown files per copy get one extra `[[…]]` to a document of
 * an earlier copy, so the graph is one component rather than N islands. Deterministic for a seed:
 * the only randomness (which files get a cross-copy link, to where, which files a partial last
 * copy keeps) comes from a seeded PRNG.
 *
 * CLI: `npx tsx bench/generate.ts DIR COUNT [--seed N] [--source SPECS]`
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listSpecPaths } from '../compiler/read.js';

/** The real corpus the benchmarks replicate. */
export const DEFAULT_SOURCE = fileURLToPath(new URL('../../shared/corpora/kdd-engine/specs', import.meta.url));
export const DEFAULT_SEED = 20240601;
/** Share of Markdown files per copy that get a link into an earlier copy (at least one per copy). */
const CROSS_LINK_RATE = 0.04;

export interface GenerateOptions {
  seed?: number;
  /** Specs tree to replicate. Default {@link DEFAULT_SOURCE}. */
  sourceDir?: string;
}

export interface GeneratedCorpus {
  dir: string;
  files: number;
  bytes: number;
  copies: number;
  crossLinks: number;
}

interface SourceDoc {
  path: string;
  text: string;
  /** File name without extension, e.g. `CMD-001-IndexDocument`. */
  base: string;
}

/** Writes `documentCount` spec files under `targetDir` (which is emptied first). */
export async function generateCorpus(targetDir: string, documentCount: number, options: GenerateOptions = {}): Promise<GeneratedCorpus> {
  if (!Number.isInteger(documentCount) || documentCount < 1) throw new Error(`bench: document count must be a positive integer, got ${documentCount}`);
  const source = await readSource(resolve(options.sourceDir ?? DEFAULT_SOURCE));
  const random = mulberry32(options.seed ?? DEFAULT_SEED);
  const tokens = collectTokens(source);
  const pattern = tokenPattern(tokens);
  const linkable = source.filter((doc) => doc.path.endsWith('.md')).map((doc) => doc.base);
  const copies = Math.ceil(documentCount / source.length);

  await rm(targetDir, { recursive: true, force: true });
  let files = 0;
  let bytes = 0;
  let crossLinks = 0;
  for (let copy = 0; copy < copies; copy++) {
    const docs = pickDocs(source, Math.min(source.length, documentCount - copy * source.length), random);
    const linked = copy === 0 ? new Set<string>() : pickCrossLinked(docs, random);
    for (const doc of docs) {
      let text = copy === 0 ? doc.text : doc.text.replace(pattern, (token) => renameToken(token, copy, tokens));
      if (linked.has(doc.path)) {
        // Always an earlier copy: those are complete, so the link never dangles.
        const other = Math.floor(random() * copy);
        const target = renameToken(linkable[Math.floor(random() * linkable.length)]!, other, tokens);
        text = `${text.trimEnd()}\n\nVéase también [[${target}]] (see also).\n`;
        crossLinks++;
      }
      const path = join(dirname(doc.path), renameToken(doc.base, copy, tokens) + extname(doc.path));
      const full = join(targetDir, path);
      await mkdir(dirname(full), { recursive: true });
      await writeFile(full, text);
      files++;
      bytes += Buffer.byteLength(text);
    }
  }
  return { dir: targetDir, files, bytes, copies, crossLinks };
}

async function readSource(root: string): Promise<SourceDoc[]> {
  const paths = await listSpecPaths(root);
  if (paths.length === 0) throw new Error(`bench: no spec files under ${root}`);
  return Promise.all(paths.map(async (path) => ({ path, text: await readFile(join(root, path), 'utf8'), base: basename(path, extname(path)) })));
}

/** A partial last copy keeps a seeded random subset, in source order. */
function pickDocs(source: readonly SourceDoc[], count: number, random: () => number): SourceDoc[] {
  if (count >= source.length) return [...source];
  const order = source.map((doc, i) => ({ i, key: random() })).sort((a, b) => a.key - b.key).slice(0, count).map((entry) => entry.i).sort((a, b) => a - b);
  return order.map((i) => source[i]!);
}

function pickCrossLinked(docs: readonly SourceDoc[], random: () => number): Set<string> {
  const markdown = docs.filter((doc) => doc.path.endsWith('.md'));
  const picked = new Set(markdown.filter(() => random() < CROSS_LINK_RATE).map((doc) => doc.path));
  if (picked.size === 0 && markdown.length > 0) picked.add(markdown[Math.floor(random() * markdown.length)]!.path);
  return picked;
}

/**
 * Tokens renamed per copy: front-matter ids, file names, CamelCase name parts of file names
 * (`IndexDocument`, `KDDDocument` — what titles and prose call the documents) and scenario ids.
 * Single-capital words (`Index`, `Performance`) are too common to rename alone, except entity
 * file names (`Embedding`), which are link targets.
 */
interface TokenSet {
  all: Set<string>;
  names: Set<string>;
}

function collectTokens(source: readonly SourceDoc[]): TokenSet {
  const all = new Set<string>();
  const names = new Set<string>();
  for (const doc of source) {
    all.add(doc.base);
    if (/^[A-Za-z][A-Za-z0-9]*$/.test(doc.base)) names.add(doc.base);
    for (const part of doc.base.split('-')) if (isCamelName(part)) names.add(part);
    const id = /^---\r?\n[\s\S]*?^id:\s*["']?([^\s"']+)/m.exec(doc.text)?.[1];
    if (id) all.add(id);
    for (const scenario of doc.text.matchAll(/\bSCN-[A-Za-z0-9]+-\d{3}\b/g)) all.add(scenario[0]);
  }
  for (const name of names) all.add(name);
  return { all, names };
}

function isCamelName(part: string): boolean {
  return /^[A-Z][A-Za-z0-9]*$/.test(part) && (part.match(/[A-Z]/g)?.length ?? 0) >= 2;
}

/** Longest first, so `CMD-001-IndexDocument` wins over `CMD-001`; `-` and `/` count as boundaries. */
function tokenPattern(tokens: TokenSet): RegExp {
  const sorted = [...tokens.all].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  const escaped = sorted.map((token) => token.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`(?<![A-Za-z0-9_])(?:${escaped.join('|')})(?![A-Za-z0-9_])`, 'g');
}

/** The name of `token` in copy `copy` (copy 0 keeps the original). */
function renameToken(token: string, copy: number, tokens: TokenSet): string {
  if (copy === 0) return token;
  const suffix = `K${copy}`;
  const numbered = /^([A-Z]+)-(\d{3,4})$/.exec(token);
  if (numbered) return `${numbered[1]}-${copy * 1000 + Number(numbered[2])}`;
  const ruled = /^(BR|BP|XP|SCN)-(.+)-(\d{3})$/.exec(token);
  if (ruled) return `${ruled[1]}-${ruled[2]}${suffix}-${ruled[3]}`;
  const numberedFile = /^([A-Z]+-\d{3,4})-(.+)$/.exec(token);
  if (numberedFile) return `${renameToken(numberedFile[1]!, copy, tokens)}-${renameName(numberedFile[2]!, suffix, tokens)}`;
  const prefixed = /^(EVT|PRD|UI|NFR)-(.+)$/.exec(token);
  if (prefixed) return `${prefixed[1]}-${renameName(prefixed[2]!, suffix, tokens)}`;
  if (/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(token)) return `${token}-${suffix.toLowerCase()}`;
  return `${token}${suffix}`;
}

/** `KDDDocument-Detected` → `KDDDocumentK7-Detected`; no known name inside → suffix at the end. */
function renameName(name: string, suffix: string, tokens: TokenSet): string {
  const parts = name.split('-');
  const renamed = parts.map((part) => (tokens.names.has(part) ? `${part}${suffix}` : part));
  if (renamed.every((part, i) => part === parts[i])) renamed[renamed.length - 1] += suffix;
  return renamed.join('-');
}

/** Small, fast, seedable PRNG (public domain); Math.random would make corpora differ per run. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function main(argv: string[]): Promise<void> {
  const [dir, count] = argv.filter((arg, i) => !arg.startsWith('--') && !argv[i - 1]?.startsWith('--'));
  const flag = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  if (!dir || !count) {
    console.error('usage: npx tsx bench/generate.ts DIR COUNT [--seed N] [--source SPECS]');
    process.exit(1);
  }
  const sourceDir = flag('source') ?? DEFAULT_SOURCE;
  if (!existsSync(sourceDir)) {
    console.log(`bench: source corpus ${sourceDir} is absent; nothing generated.`);
    return;
  }
  const seedFlag = flag('seed');
  const result = await generateCorpus(resolve(dir), Number(count), { sourceDir, ...(seedFlag ? { seed: Number(seedFlag) } : {}) });
  console.log(`bench: wrote ${result.files} files (${result.bytes} bytes, ${result.copies} copies, ${result.crossLinks} cross-copy links) to ${result.dir}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main(process.argv.slice(2));
}
