/**
 * Merge inputs from where they live (CMD-005 over git): a `.kdd-index/` folder, a bundle (a
 * `.msgpack` file or a `dist/` folder with `kdd.json`), or a `.kdd-index/` committed on a git ref,
 * read with `git ls-tree` + `git cat-file --batch` without checking anything out.
 */
import { execFile, spawn } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { promisify } from 'node:util';
import { decodeBundle } from '../runtime/bundle-format.js';
import { createError } from '../runtime/errors.js';
import type { GraphNode, IndexManifest } from '../runtime/model.js';
import { POINTER_FILE, readPointer } from './emit/dist.js';
import { parseTombstones, readIndex, TOMBSTONES_FILE } from './emit/tombstones.js';
import { compare } from './graph/link.js';
import type { DocumentRecord, RawLink } from './kinds/extract.js';
import { bundleSource, type MergeSource } from './merge.js';

const run = promisify(execFile);

const exists = (path: string) =>
  stat(path).then(
    (info) => info,
    () => null,
  );

/** A folder holding `manifest.json` (a `.kdd-index/`), a `dist/` folder, or a bundle file. */
export async function loadMergeSource(path: string, label = path): Promise<MergeSource> {
  const info = await exists(path);
  if (info?.isFile()) return bundleSource(decodeBundle(await readFile(path)), label);
  if (info?.isDirectory()) {
    if (await exists(join(path, 'manifest.json'))) return { source: label, ...(await readIndex(path)) };
    if (await exists(join(path, POINTER_FILE))) {
      const pointer = await readPointer(path);
      if (pointer) return bundleSource(decodeBundle(await readFile(join(path, pointer.bundle))), label);
    }
  }
  throw createError('MANIFEST_NOT_FOUND', { path });
}

/**
 * `.kdd-index/` as committed on `ref` (a branch, tag or commit) in the repository at `repo`.
 * `indexPath` is relative to the repository root.
 */
export async function readIndexFromGit(repo: string, ref: string, indexPath = '.kdd-index'): Promise<MergeSource> {
  const prefix = posix.normalize(indexPath).replace(/\/+$/, '');
  const label = `git:${ref}:${prefix}`;
  let listing: string;
  try {
    listing = (await run('git', ['ls-tree', '-r', '--name-only', '-z', ref, '--', prefix], { cwd: repo, maxBuffer: 256 * 1024 * 1024 })).stdout;
  } catch (error) {
    throw createError('MANIFEST_NOT_FOUND', { path: label, detail: (error as Error).message });
  }
  const paths = listing.split('\0').filter((path) => path.startsWith(`${prefix}/`));
  const wanted = paths.filter((path) => {
    const rel = path.slice(prefix.length + 1);
    return rel === 'manifest.json' || rel === TOMBSTONES_FILE || (rel.startsWith('nodes/') && rel.endsWith('.json'));
  });
  if (!wanted.includes(`${prefix}/manifest.json`)) throw createError('MANIFEST_NOT_FOUND', { path: label });
  const blobs = await catFiles(repo, wanted.map((path) => `${ref}:${path}`));
  let manifest: IndexManifest | null = null;
  let tombstones: MergeSource['tombstones'] = [];
  const records: DocumentRecord[] = [];
  wanted.forEach((path, index) => {
    const text = blobs[index]!;
    const rel = path.slice(prefix.length + 1);
    if (rel === 'manifest.json') manifest = JSON.parse(text) as IndexManifest;
    else if (rel === TOMBSTONES_FILE) tombstones = parseTombstones(text);
    else {
      const { links, ...node } = JSON.parse(text) as GraphNode & { links: RawLink[] };
      records.push({ node: node as GraphNode, links });
    }
  });
  records.sort((a, b) => compare(a.node.source_file, b.node.source_file));
  return { source: label, manifest: manifest!, records, tombstones };
}

/** Object contents for `rev:path` specs, in order, through one `git cat-file --batch` process. */
function catFiles(repo: string, specs: readonly string[]): Promise<string[]> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn('git', ['cat-file', '--batch'], { cwd: repo, stdio: ['pipe', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`git cat-file failed (${code}): ${stderr}`));
      const out = Buffer.concat(chunks);
      const texts: string[] = [];
      let offset = 0;
      for (const spec of specs) {
        const end = out.indexOf(0x0a, offset);
        const header = out.subarray(offset, end).toString();
        const match = /^[0-9a-f]+ blob (\d+)$/.exec(header);
        if (!match) return reject(new Error(`git cat-file: unexpected answer for ${spec}: ${header}`));
        const size = Number(match[1]);
        texts.push(out.subarray(end + 1, end + 1 + size).toString('utf8'));
        offset = end + 1 + size + 1; // contents are followed by a newline
      }
      resolvePromise(texts);
    });
    child.stdin.end(specs.map((spec) => `${spec}\n`).join(''));
  });
}
