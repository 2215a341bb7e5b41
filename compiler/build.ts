/**
 * Public entry points of the compiler. The pipeline: read → extract (per file) → link (whole tree)
 * → embed (L2) → emit `.kdd-index/` → pack → write `dist/`. `compile` stops before any write and
 * returns everything in memory (tests, eval, benchmarks); `build` is a full build with the writes
 * and the report; `kdd build` itself calls `buildIndex`, which is incremental when it can be.
 */
import { resolve } from 'node:path';
import { semanticStage, type SemanticOptions } from './embed/semantic.js';
import { packBundle, type PackedBundle } from './pack/pack.js';
import { readIndexDir } from './emit/read-index-dir.js';
import { readEnrichments } from './enrich/artifact.js';
import { applyEnrichments } from './enrich/edges.js';
import { linkRecords } from './graph/link.js';
import { buildIndex, compileIncremental, type IndexBuildReport } from './incremental.js';
import type { BuildOptions, CompileOptions, CompileResult } from './pipeline.js';

export * from './pipeline.js';

/** In memory, L1, no writes: read, extract, link. */
export async function compile(options: CompileOptions): Promise<CompileResult> {
  return compileIncremental(options, null, false);
}

/** A full build: every file re-extracted, `.kdd-index/` and `dist/` written. */
export async function build(options: BuildOptions): Promise<IndexBuildReport> {
  return buildIndex({ ...options, mode: 'full' });
}

export function packCompiled(result: CompileResult): PackedBundle {
  return packBundle({ ...result.graph, manifest: result.manifest });
}

/**
 * `.kdd-index/` → bundle with no specs at hand (servers that receive committed indexes). Equal
 * artifacts give an equal bundle: the pack is a function of the artifacts alone, vectors included
 * (read from the committed vector cache; the model is needed only for chunks missing from it).
 */
export async function packIndexDir(indexDir: string, options: SemanticOptions = {}): Promise<PackedBundle> {
  const dir = resolve(indexDir);
  const { manifest, records } = await readIndexDir(dir);
  const { graph } = applyEnrichments(linkRecords(records), await readEnrichments(dir));
  const level = manifest.index_level === 'L1' ? 'L1' : options.level ?? 'L2';
  const embedder = options.embedder ?? manifest.embedding_model?.replace(/@[^@]*$/, '') ?? undefined;
  const semantic = await semanticStage(graph, manifest, dir, { ...options, level, embedder }, false);
  return packBundle({ ...graph, manifest: semantic.manifest, vectors: semantic.vectors });
}
