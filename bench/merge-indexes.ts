/**
 * Merge of 3 indexes of N documents each, overlapping by a third (REQ-001 CA-4, #6).
 * Run: npx tsx bench/merge-indexes.ts 3600
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from '../compiler/build.js';
import { readIndex } from '../compiler/emit/tombstones.js';
import { packBundle } from '../compiler/emit/pack.js';
import { mergeIndexes } from '../compiler/merge.js';
import { replicateCorpus } from '../test/helpers/replicate-corpus.js';

const documents = Number(process.argv[2] ?? 3600);
const root = await mkdtemp(join(tmpdir(), 'kdd-bench-merge-'));
const copies = Math.ceil(documents / 54);
const ms = (start: number) => Math.round(performance.now() - start);
const dirs = [0, 1, 2].map((dev) => join(root, `dev${dev}`));
for (const [dev, dir] of dirs.entries()) {
  // Each developer holds copies [dev·2/3·c, dev·2/3·c + c): neighbours share a third of their documents.
  await replicateCorpus(join(dir, 'specs'), documents, { firstCopy: Math.floor((dev * 2 * copies) / 3) });
  await build({ specsDir: join(dir, 'specs'), outDir: join(dir, 'dist'), indexDir: join(dir, '.kdd-index') });
}
let start = performance.now();
const inputs = await Promise.all(dirs.map(async (dir, dev) => ({ source: `dev${dev}`, ...(await readIndex(join(dir, '.kdd-index'))) })));
const tRead = ms(start);
start = performance.now();
const merged = mergeIndexes(inputs);
const tMerge = ms(start);
start = performance.now();
packBundle({ ...merged.graph, manifest: merged.manifest });
console.log(`merge of 3 × ${inputs[0]!.records.length} nodes → ${merged.graph.nodes.length} nodes, ${merged.graph.edges.length} edges`);
console.log(`  read 3 .kdd-index: ${tRead} ms   mergeIndexes (pick + re-link): ${tMerge} ms   pack: ${ms(start)} ms`);
await rm(root, { recursive: true, force: true });
