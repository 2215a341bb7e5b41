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

/** Path → its state, or null when the file was not there. A path it does not have was not stat-ed (do it when needed). */
export interface StatLookup {
  has(path: string): boolean;
  get(path: string): FileState | null | undefined;
}

/**
 * Stats of `paths` under `dir`, taken ahead of the stage that uses them (compiler/incremental/earlier.ts
 * takes them while the record cache's entries are read). A path whose stat fails for another reason
 * than "not there" is left out: the stage stats it again and reports the error as it would have.
 */
export function statLookup(dir: string, paths: readonly string[]): TakenStats {
  const taken = new TakenStats(paths.length);
  const base = folderPrefix(dir);
  for (const path of paths) {
    const state = fileState(base + path);
    if (state !== undefined) taken.add(path, state);
  }
  return taken;
}

/**
 * Stats held as numbers in one column, each state made when asked. They are taken while the record
 * cache is read and live until its stages use them, so they outlive a dozen scavenges: 21,600 state
 * objects with two float fields each (every one a heap number) were ~65,000 objects for the
 * collector to copy and mark (docs/decisions/one-edit-build.md, "fewer long-lived objects").
 */
export class TakenStats implements StatLookup {
  /** Path → its row, or -1 when the file was not there. */
  private readonly rows = new Map<string, number>();
  /** Per row: isFile (1/0), size, mtimeMs, ctimeMs. */
  private readonly values: Float64Array;
  private count = 0;

  constructor(capacity: number) {
    this.values = new Float64Array(capacity * 4);
  }

  add(path: string, state: FileState | null): void {
    if (state === null) return void this.rows.set(path, -1);
    const at = this.count++ * 4;
    this.values[at] = state.isFile ? 1 : 0;
    this.values[at + 1] = state.size;
    this.values[at + 2] = state.mtimeMs;
    this.values[at + 3] = state.ctimeMs;
    this.rows.set(path, at);
  }

  has(path: string): boolean {
    return this.rows.has(path);
  }

  get(path: string): FileState | null | undefined {
    const at = this.rows.get(path);
    if (at === undefined || at < 0) return at === undefined ? undefined : null;
    return { isFile: this.values[at] === 1, size: this.values[at + 1]!, mtimeMs: this.values[at + 2]!, ctimeMs: this.values[at + 3]! };
  }

  /** Whether the file at `path` (one it has) is there and as `stamp` says. Compared in the column: a one-edit build checks 10,800 node files, and a state object each was garbage. */
  matches(path: string, stamp: ArtifactStamp): boolean {
    const at = this.rows.get(path);
    return at !== undefined && at >= 0 && this.values[at + 1] === stamp.size && this.values[at + 2] === stamp.mtimeMs && this.values[at + 3] === stamp.ctimeMs;
  }
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

/** Whether the file at `base + path` is there and as `stamp` says; `taken` answers for the paths it has. */
export function stillStamped(base: string, path: string, stamp: ArtifactStamp | undefined, taken: TakenStats | null): boolean {
  if (stamp === undefined) return false;
  if (taken?.has(path)) return taken.matches(path, stamp);
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
    if (!y || y.size !== x.size || y.mtimeMs !== x.mtimeMs || y.ctimeMs !== x.ctimeMs || y.hash !== x.hash) return false;
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
