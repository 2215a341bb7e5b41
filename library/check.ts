/**
 * `kdd check` as a library call: gathers the index (compiled in memory from the specs, or a built
 * bundle), its warnings and the source texts, collects the problems (compiler/check/problems.ts)
 * and, with a base, keeps only the new ones. Nothing is written.
 *
 * The base is a `.kdd-index/` folder, a bundle (`dist/` or a `.msgpack`), or a git ref whose
 * committed `.kdd-index/` is read without checkout — the inputs `kdd merge` reads
 * (compiler/team/merge-inputs.ts).
 */
import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { loadBundle } from './load-bundle.js';
import type { KddIndex } from '../runtime/kdd-index.js';
import { loadIndex } from '../runtime/load.js';
import { compile, packCompiled } from '../compiler/pipeline.js';
import type { BuildWarning } from '../compiler/diagnostics.js';
import { packBundle } from '../compiler/pack/pack.js';
import { forEachLimited } from '../compiler/atomic.js';
import { linkRecords } from '../compiler/graph/link.js';
import { loadMergeSource, readIndexFromGit } from '../compiler/team/merge-inputs.js';
import { countSeverities, type CheckReport } from '../compiler/check/formats.js';
import { findProblems, locateProblems, newProblems, type Problem, type Severities } from '../compiler/check/problems.js';
import { DEFAULT_SEVERITY } from '../compiler/check/rules.js';

export interface CheckOptions {
  /** Specs root: compiled in memory, and where the problem files are read to locate them. */
  specsDir: string;
  /** Check this built bundle (a `dist/` folder, `kdd.json` or `.msgpack`) instead of compiling the specs. */
  bundle?: string;
  /** Report only what is not in this base: a folder (`.kdd-index/`, `dist/`), a bundle file, or a git ref. */
  base?: string;
  /** Repository a git-ref base is read from. Default: the specs root. */
  repo?: string;
  /** Path of the committed `.kdd-index/` inside the repository, for a git-ref base. Default `.kdd-index`. */
  indexPath?: string;
  severities?: Severities;
  /** How the specs root is shown in reports (SARIF base, annotation paths). Default: as given. */
  specsLabel?: string;
}

interface Checked {
  problems: Problem[];
  /** Manifest `sources`: spec path → content hash. */
  sources: Readonly<Record<string, string>>;
}

export async function runCheck(options: CheckOptions): Promise<CheckReport> {
  const severities = options.severities ?? DEFAULT_SEVERITY;
  const specsDir = resolve(options.specsDir);
  const head = await checkHead(specsDir, options.bundle, severities);
  let problems = head.problems;
  let known = 0;
  if (options.base !== undefined) {
    const base = await checkBase(options.base, options.repo ?? specsDir, options.indexPath ?? '.kdd-index', severities);
    problems = newProblems(head.problems, base.problems, { head: head.sources, base: base.sources });
    known = head.problems.length - problems.length;
  }
  return {
    problems,
    specs_root: options.specsLabel ?? options.specsDir,
    severities: { ...severities },
    base: options.base ?? null,
    known_in_base: known,
    counts: countSeverities(problems),
  };
}

async function checkHead(specsDir: string, bundle: string | undefined, severities: Severities): Promise<Checked> {
  let index: KddIndex;
  let warnings: readonly BuildWarning[] = [];
  if (bundle !== undefined) index = await loadBundle(resolve(bundle));
  else {
    const compiled = await compile({ specsDir });
    const packed = packCompiled(compiled);
    index = await loadIndex(packed.bytes, { verify: 'none', hash: packed.hash });
    warnings = compiled.warnings;
  }
  const findings = findProblems({ index, warnings, severities });
  // Locating needs the texts of the files that have problems only.
  const texts = await readTexts(specsDir, [...new Set(findings.map((finding) => finding.file))]);
  return { problems: locateProblems(findings, texts), sources: index.bundle.manifest.sources };
}

async function readTexts(root: string, files: readonly string[]): Promise<Map<string, string>> {
  const texts = new Map<string, string>();
  await forEachLimited(files, async (file) => {
    const text = await readFile(join(root, file), 'utf8').catch(() => null);
    if (text !== null) texts.set(file, text);
  });
  return texts;
}

/** The base's problems, from its records linked again (the link pass is pure, so this is the graph its build had). */
async function checkBase(base: string, repo: string, indexPath: string, severities: Severities): Promise<Checked> {
  const isPath = await stat(resolve(base)).then(
    () => true,
    () => false,
  );
  const source = isPath ? await loadMergeSource(resolve(base)) : await readIndexFromGit(repo, base, indexPath);
  const graph = linkRecords(source.records);
  const packed = packBundle({ ...graph, manifest: source.manifest });
  const index = await loadIndex(packed.bytes, { verify: 'none', hash: packed.hash });
  return { problems: locateProblems(findProblems({ index, warnings: graph.warnings, severities }), new Map()), sources: source.manifest.sources };
}
