/**
 * Merge of three developers' indexes (REQ-001 CA-4, CMD-005, #6): three `.kdd-index/` folders of
 * the same size whose neighbours share a third of their documents, merged by `mergeAndWrite`
 * (read the three folders, pick winners, re-link, pack, write the bundle).
 *
 * Each index holds min(3,600, largest requested size) documents, so `--sizes 54` stays quick and
 * the default sizes measure the stated case (3 × 3.6k, target ≤ 2 s).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from '../../compiler/build.js';
import { packBundle } from '../../compiler/emit/pack.js';
import { readIndex } from '../../compiler/emit/tombstones.js';
import { mergeIndexes } from '../../compiler/merge.js';
import { mergeAndWrite } from '../../compiler/merge-write.js';
import { replicateCorpus } from '../../test/helpers/replicate-corpus.js';
import { DEFAULT_SOURCE } from '../generate.js';
import { fixed, int, median, repeat, withTarget, type Scenario } from '../scenario.js';

const PER_INDEX = 3_600;
const DEVELOPERS = 3;
const RUNS = 3;
const BUDGET_MS = 60_000;
const TARGET_S = 2;
/** Documents per copy of the kdd-engine corpus (replicateCorpus copies it whole). */
const CORPUS_DOCUMENTS = 54;

const scenario: Scenario = {
  name: 'merge',
  title: `Merge of ${DEVELOPERS} indexes`,
  async run(corpora, context) {
    const documents = Math.min(PER_INDEX, Math.max(...corpora.map((corpus) => corpus.documents)));
    const root = await mkdtemp(join(tmpdir(), 'kdd-bench-merge-'));
    try {
      const copies = Math.ceil(documents / CORPUS_DOCUMENTS);
      const dirs = Array.from({ length: DEVELOPERS }, (_, dev) => join(root, `dev${dev}`));
      for (const [dev, dir] of dirs.entries()) {
        context.log(`merge: building index ${dev + 1} of ${DEVELOPERS} (${int(documents)} docs)`);
        // Developer d holds copies [d·2c/3, d·2c/3 + c): neighbours share a third of their documents.
        await replicateCorpus(join(dir, 'specs'), documents, { corpus: DEFAULT_SOURCE, firstCopy: Math.floor((dev * 2 * copies) / 3) });
        await build({ specsDir: join(dir, 'specs'), outDir: join(dir, 'dist'), indexDir: join(dir, '.kdd-index') });
      }
      const indexDirs = dirs.map((dir) => join(dir, '.kdd-index'));
      context.log('merge: mergeAndWrite');
      const merges = await repeat({ runs: RUNS, budgetMs: BUDGET_MS }, (run) => mergeAndWrite({ paths: indexDirs, outDir: join(root, `merged-${run}`) }));

      context.log('merge: split');
      let started = performance.now();
      const inputs = await Promise.all(indexDirs.map(async (dir, dev) => ({ source: `dev${dev}`, ...(await readIndex(dir)) })));
      const readMs = performance.now() - started;
      started = performance.now();
      const merged = mergeIndexes(inputs);
      const mergeMs = performance.now() - started;
      started = performance.now();
      packBundle({ ...merged.graph, manifest: merged.manifest });
      const packMs = performance.now() - started;

      const totalS = median(merges.times) / 1000;
      return {
        columns: ['docs per index', 'merged nodes', 'merged edges', 'runs', 'merge s (median)', 'split: read 3 indexes / mergeIndexes / pack ms'],
        rows: [
          [
            int(documents),
            int(merged.graph.nodes.length),
            int(merged.graph.edges.length),
            String(merges.times.length),
            documents >= PER_INDEX ? withTarget(fixed(totalS, 2), totalS, { max: TARGET_S, label: `≤ ${TARGET_S}` }) : fixed(totalS, 2),
            `${int(readMs)} / ${int(mergeMs)} / ${int(packMs)}`,
          ],
        ],
        notes: [
          `Merge = \`mergeAndWrite({ paths: [3 × .kdd-index/], outDir })\`: read the folders, pick winners (last write wins), re-link, pack, write \`dist/\`. Median of the runs shown.`,
          `Indexes: ${DEVELOPERS} trees of ${int(documents)} documents (whole copies of the kdd-engine corpus, \`test/helpers/replicate-corpus.ts\`), neighbours sharing a third; built with \`build\` first (untimed).`,
          'Split: one more merge timed stage by stage (`readIndex` ×3 in parallel, `mergeIndexes`, `packBundle`; no write).',
        ],
      };
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  },
};
export default scenario;
