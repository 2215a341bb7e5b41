/**
 * Size and times of files (spec sources and `.kdd-index/` artifacts): what lets a build trust a file
 * as the previous build left it without reading it. A stamp that moved means "read it again".
 */
import { statSync } from 'node:fs';
import { sep } from 'node:path';
import type { DocumentRecord } from '../../model/records.js';
import type { IndexDirWrite } from '../emit/index-dir.js';
import { DANGLING_FILE, EDGES_FILE } from '../../formats/index-dir/edges.js';
import { nodeFilePath } from '../../formats/index-dir/node-file.js';
import type { Graph } from '../graph/link.js';
import type { SourceStamp } from '../read.js';
import type { ArtifactStamp } from './record-cache.js';

/** The whole-tree files a link pass writes. */
export const EDGE_FILES = [EDGES_FILE, DANGLING_FILE];

/** What a stat told about one file. */
export interface FileState {
  /** false: something else than a regular file (a folder, a device). */
  isFile: boolean;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

/**
 * Which stamped files are still as their stamps say, checked ahead of the stage that uses the
 * answer (compiler/incremental/earlier.ts checks while the record cache's entries are read).
 */
export interface StampCheck {
  /** Whether `path` was checked. A path whose stat failed for another reason than "not there" was not: the stage stats it again and reports the error as it would have. */
  has(path: string): boolean;
  /** Whether a checked path is a regular file of its stamp's size and times. */
  matches(path: string): boolean;
}

/** No file checked ahead. */
export const NOTHING_CHECKED: StampCheck = { has: () => false, matches: () => false };

/**
 * Stats every file `stamps` names under `dir` and keeps only the exceptions: the paths that moved
 * (usually none or a few) and those that could not be stat-ed. Nothing is kept per file that
 * matches, so 21,600 checks at 10,800 documents leave no table of states behind (a map of rows and
 * a column of numbers before), and each use is a set lookup.
 */
export function checkStamps(dir: string, stamps: ReadonlyMap<string, ArtifactStamp>): StampCheck {
  const base = folderPrefix(dir);
  const moved = new Set<string>();
  const unchecked = new Set<string>();
  for (const [path, stamp] of stamps) {
    const state = fileState(base + path);
    if (state === undefined) unchecked.add(path);
    else if (!isStamped(state, stamp)) moved.add(path);
  }
  return { has: (path) => stamps.has(path) && !unchecked.has(path), matches: (path) => !moved.has(path) };
}

/** Whether a stat's `state` is a regular file of `stamp`'s size and times (false when it was not there or not stat-able). */
export function isStamped(state: FileState | null | undefined, stamp: ArtifactStamp): boolean {
  return !!state && state.isFile && sameStamp(stamp, state);
}

/**
 * `dir` with a trailing separator, to put before relative paths: they use `/` (which every
 * platform's file calls accept), and a `join` per file cost a third as much as the stat itself.
 */
export function folderPrefix(dir: string): string {
  return dir.endsWith(sep) ? dir : dir + sep;
}

/** The state of the file at `path`: null when it is not there, undefined when it cannot be stat-ed. */
export function fileState(path: string): FileState | null | undefined {
  try {
    const info = statSync(path, { throwIfNoEntry: false });
    return info ? { isFile: info.isFile(), size: info.size, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs } : null;
  } catch {
    return undefined;
  }
}

/** Size and times of each of `paths` under `dir` that exists (synchronous: 10k stats in tens of ms). */
export function stampFiles(dir: string, paths: readonly string[]): Map<string, ArtifactStamp> {
  const stamps = new Map<string, ArtifactStamp>();
  const base = folderPrefix(dir);
  for (const path of paths) {
    const info = statSync(base + path, { throwIfNoEntry: false });
    if (info) stamps.set(path, { size: info.size, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs });
  }
  return stamps;
}

/** Whether the file at `base + path` is there and as `stamp` says; `checked` answers for the paths it has. */
export function stillStamped(base: string, path: string, stamp: ArtifactStamp | undefined, checked: StampCheck): boolean {
  if (stamp === undefined) return false;
  if (checked.has(path)) return checked.matches(path);
  return sameStamp(stamp, statSync(base + path, { throwIfNoEntry: false }) ?? undefined);
}

/** Whether every file of `paths` is still as the previous build stamped it. */
export function unchangedFiles(dir: string, paths: readonly string[], known: ReadonlyMap<string, ArtifactStamp> | null): boolean {
  if (!known) return false;
  const now = stampFiles(dir, paths);
  return paths.every((path) => sameStamp(known.get(path), now.get(path)));
}

export function sameStamps(a: ReadonlyMap<string, SourceStamp> | null, b: ReadonlyMap<string, SourceStamp>): boolean {
  if (!a || a.size !== b.size) return false;
  for (const [path, x] of b) {
    const y = a.get(path);
    if (!sameStamp(y, x) || y!.hash !== x.hash) return false;
  }
  return true;
}

/** Whether two stamps are of the same file state. */
export function sameStamp(a: ArtifactStamp | undefined, b: ArtifactStamp | undefined): boolean {
  return a !== undefined && b !== undefined && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
}

/**
 * Stamps of the edge files and of every node file the index holds after this build (winners only),
 * for the record cache. A node file this build neither wrote nor found changed keeps the stamp it
 * was checked against: only the files just written are stat-ed again.
 */
export function artifactStamps(dir: string, result: { graph: Graph; records: readonly DocumentRecord[] }, written: IndexDirWrite, checked: ReadonlyMap<string, ArtifactStamp>): Map<string, ArtifactStamp> {
  const winners = new Map(result.graph.nodes.map((node) => [node.id, node]));
  const paths = result.records.filter((record) => winners.get(record.node.id) === record.node).map(nodeFilePath);
  const rewritten = new Set(written.written);
  const stale = paths.filter((path) => rewritten.has(path) || !checked.has(path));
  const stamps = stampFiles(dir, [...EDGE_FILES, ...stale]);
  for (const path of paths) if (!stamps.has(path) && checked.has(path)) stamps.set(path, checked.get(path)!);
  return stamps;
}
