/**
 * Load and query latency at scale: replicates a real corpus's nodes (ids renamed, edges remapped)
 * up to N nodes, packs the bundle, then measures `loadIndex` and `context` p50/p95.
 * Run: npx tsx bench/eval/perf.ts [N=10000] [specsDir]
 */
import { compile } from '../../compiler/pipeline.js';
import { packBundle } from '../../compiler/pack/pack.js';
import { loadIndex } from '../../runtime/load.js';
import type { GraphEdge, GraphNode } from '../../model/graph.js';
import { context } from '../../runtime/queries/context.js';
import { DEFAULT_SOURCE } from '../generate.js';

const target = Number(process.argv[2] ?? 10000);
const specsDir = process.argv[3] ?? DEFAULT_SOURCE;
const compiled = await compile({ specsDir });
const { nodes: baseNodes, edges: baseEdges } = compiled.graph;
const copies = Math.ceil(target / baseNodes.length);
const rename = (id: string, c: number) => (c === 0 ? id : `${id}-c${c}`);
const nodes: GraphNode[] = [];
const edges: GraphEdge[] = [];
for (let c = 0; c < copies; c++) {
  for (const n of baseNodes) nodes.push({ ...n, id: rename(n.id, c), doc_id: rename(n.doc_id, c), source_file: c === 0 ? n.source_file : `c${c}/${n.source_file}` });
  for (const e of baseEdges) edges.push({ ...e, from_node: rename(e.from_node, c), to_node: rename(e.to_node, c) });
}
nodes.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
const t0 = performance.now();
const packed = packBundle({ nodes, edges, dangling: [], unresolved_ids: [], layer_violations: [], manifest: { ...compiled.manifest, stats: { ...compiled.manifest.stats, nodes: nodes.length, edges: edges.length } } });
const packMs = performance.now() - t0;
const loads: number[] = [];
let index = await loadIndex(packed.bytes);
for (let i = 0; i < 5; i++) {
  const t = performance.now();
  index = await loadIndex(packed.bytes);
  loads.push(performance.now() - t);
}
const queries = ['CMD-004', 'resolución de conflictos en el merge', 'what is affected if I change the KDDDocument entity', 'implement incremental indexing with git diff', 'which business rules apply to document indexing', 'token budget for the agent context window', 'semantic search over embeddings', 'Entity:GraphEdge'];
for (const q of queries) context(index, { query_text: q });
const times: number[] = [];
for (let r = 0; r < 25; r++) for (const q of queries) {
  const t = performance.now();
  context(index, { query_text: q });
  times.push(performance.now() - t);
}
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
console.log(`nodes=${nodes.length} edges=${edges.length} bundle=${(packed.bytes.length / 1e6).toFixed(1)}MB pack=${packMs.toFixed(0)}ms`);
console.log(`loadIndex ms: p50=${pct(loads, 0.5).toFixed(0)} max=${Math.max(...loads).toFixed(0)}`);
console.log(`context ms: p50=${pct(times, 0.5).toFixed(2)} p95=${pct(times, 0.95).toFixed(2)} max=${Math.max(...times).toFixed(2)}`);

// Where the time goes: the text-index restore alone, and the ranking without snippets.
const { restoreTextIndex } = await import('../../runtime/search/index.js');
const { fuse } = await import('../../runtime/search/fuse.js');
const restores: number[] = [];
for (let i = 0; i < 5; i++) {
  const t = performance.now();
  restoreTextIndex(index.bundle.search, index.bundle.nodes);
  restores.push(performance.now() - t);
}
const fuses: number[] = [];
for (let r = 0; r < 10; r++) for (const q of queries) {
  const t = performance.now();
  fuse(index, q, { expandGraph: true, depth: 2, respectLayers: true });
  fuses.push(performance.now() - t);
}
console.log(`restoreTextIndex ms: p50=${pct(restores, 0.5).toFixed(0)}; fuse ms: p50=${pct(fuses, 0.5).toFixed(2)} p95=${pct(fuses, 0.95).toFixed(2)}`);
