/** What a build is asked to do: the options of `compile`, `build` and `buildIndex` (compiler/pipeline.ts). */
import type { SemanticOptions } from './embed/semantic.js';
import type { GitRange } from './git-changes.js';
import type { ProgressListener } from './progress.js';

export interface CompileOptions {
  /** Specs root; every path in the artifacts is relative to it. */
  specsDir: string;
  /** Files over this size are skipped with FILE_TOO_LARGE. Default 1 MiB. */
  maxFileBytes?: number;
  /** Identifies the developer in `.kdd-index/manifest.json` (never in the bundle). */
  indexedBy?: string | null;
  /** Told where the build is: each phase as it starts and ends, and its counts in between (compiler/progress.ts). */
  onProgress?: ProgressListener;
  /**
   * Incremental builds: the only files that may differ from the previous index (from `git diff`,
   * compiler/git-changes.ts); every other file it holds is taken as indexed, without reading it.
   */
  changedFiles?: ReadonlySet<string>;
}

export interface BuildOptions extends CompileOptions, SemanticOptions {
  /** Bundle folder. Default `dist` next to the current directory. */
  outDir?: string;
  /** Artifact folder. Default `.kdd-index`. */
  indexDir?: string;
}

/** `auto`: incremental when a compatible `.kdd-index/` exists, else full. `full` re-extracts every file. */
export type BuildMode = 'auto' | 'incremental' | 'full';

export interface IndexBuildOptions extends BuildOptions {
  /** Default `auto`. `incremental` behaves like `auto` (UC-002 FA-1: no index ⇒ full build). */
  mode?: BuildMode;
  /**
   * Record cache file (compiler/cache/record-cache.ts), or false to neither read nor write one.
   * Default: `recordCachePath(indexDir)`, in the index's git-ignored `.cache/` folder.
   */
  recordCache?: string | false;
  /** CMD-002: take the changed files from `git diff` over this range instead of hashing every file. */
  since?: GitRange;
  /** Lifts the mass-delete guard (`--allow-mass-delete`, docs/integrity.md). Default false. */
  allowMassDelete?: boolean;
}
