/**
 * Incremental build of one changed document in an N-document tree (REQ-001 CA-1, #6).
 * Run: npx tsx bench/incremental-build.ts 1000   (or 10000)
 */
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileIncremental, buildIndex } from '../compiler/incremental.js';
import { readIndex } from '../compiler/emit/tombstones.js';
import { packBundle } from '../compiler/emit/pack.js';
import { replicateCorpus } from '../test/helpers/replicate-corpus.js';

const documents = Number(process.argv[2] ?? 1000);
const root = await mkdtemp(join(tmpdir(), 'kdd-bench-incr-'));
const dirs = { specsDir: join(root, 'specs'), outDir: join(root, 'dist'), indexDir: join(root, '.kdd-index') };
const paths = await replicateCorpus(dirs.specsDir, documents);
const ms = (start: number) => Math.round(performance.now() - start);

let start = performance.now();
const full = await buildIndex(dirs);
console.log(`full build: ${full.nodes} nodes, ${full.edges} edges in ${ms(start)} ms`);

const edit = async (round: number) => appendFile(join(dirs.specsDir, paths[round * 7 % paths.length]!), `\nEdit ${round}.\n`);
await edit(1);
start = performance.now();
const report = await buildIndex(dirs);
console.log(`incremental build, 1 changed document: ${ms(start)} ms end to end (re-indexed ${report.changes.reindexed.length})`);

// Where the time goes: previous index read, compile (read+hash all specs, reuse, link), pack.
await edit(2);
start = performance.now();
const previous = await readIndex(dirs.indexDir);
const tRead = ms(start);
start = performance.now();
const result = await compileIncremental(dirs, previous, true, dirs.indexDir);
const tCompile = ms(start);
start = performance.now();
packBundle({ ...result.graph, manifest: result.manifest });
console.log(`  read previous .kdd-index: ${tRead} ms   compile (read+hash specs, reuse, link): ${tCompile} ms   pack (text index + msgpack): ${ms(start)} ms`);
await rm(root, { recursive: true, force: true });
