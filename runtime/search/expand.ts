/**
 * Graph proximity (QRY-003 step 5): spreads the score of the best lexical matches to their
 * neighbours. A rule or command linked to the top matched entity is relevant even when it never
 * repeats the query's words. Both edge directions are walked (ENTITY_RULE points from the rule to
 * the entity, yet the rule is what an agent asking about the entity needs).
 *
 * With `respectLayers`, edges flagged `layer_violation` (BR-LAYER-001) are never walked; they are
 * collected so the answer can report them.
 */
import { edgeWeight } from '../../model/edges.js';
import { isAgentEdge } from '../../model/enrichment.js';
import type { KddIndex } from '../kdd-index.js';

/** Share of a seed's score its direct neighbours can receive; each further hop multiplies again. */
export const HOP_FACTOR = 0.4;
/** Weight of the second and later seeds reaching a node (the best one counts fully). */
const EXTRA_SEED_SHARE = 0.5;

export interface Seed {
  node: number;
  score: number;
}

export interface Expansion {
  /** Node → graph score (sum over seeds of the best path from each seed). */
  scores: Map<number, number>;
  /** Node → edge index of the best path's last step (for `reached_via` / graph_expansion). */
  via: Map<number, number>;
  /** Layer-violating edges met and not walked (empty when layers are not respected). */
  skipped: Set<number>;
  /** The nodes the walk started from. */
  seeds: number[];
}

/**
 * Per-index edge table for the walk, built once per loaded index (lazily, never mutating the
 * bundle): both ends as node positions, the carried weight and the flags, and one adjacency list
 * per node (its outgoing edges, then its incoming ones, exactly the order the walk visits them).
 * The walk then does no string compares, map lookups or allocations per edge.
 */
interface EdgeTable {
  /** Node position of `from_node` / `to_node` (-1 when the id is not a node). */
  from: Int32Array;
  to: Int32Array;
  weight: Float64Array;
  /** Bit 1: agent-proposed edge; bit 2: layer violation. */
  flags: Uint8Array;
  /** Edges of node u: `adj[adjStart[u] .. adjStart[u + 1])` (outgoing, then incoming). */
  adjStart: Int32Array;
  adj: Int32Array;
  /** Scratch for one walk, reused across calls (the runtime is synchronous). */
  reached: Float64Array;
  reachedStamp: Int32Array;
  bestVia: Float64Array;
  bestViaStamp: Int32Array;
  contributions: (number[] | undefined)[];
  stamp: number;
}

const AGENT = 1;
const VIOLATION = 2;
const TABLES = new WeakMap<KddIndex, EdgeTable>();

function edgeTable(index: KddIndex): EdgeTable {
  let table = TABLES.get(index);
  if (table) return table;
  const { edges, outgoing, incoming, nodes } = index.bundle;
  const from = new Int32Array(edges.length);
  const to = new Int32Array(edges.length);
  const weight = new Float64Array(edges.length);
  const flags = new Uint8Array(edges.length);
  for (let e = 0; e < edges.length; e++) {
    const edge = edges[e]!;
    from[e] = index.nodeIndex.get(edge.from_node) ?? -1;
    to[e] = index.nodeIndex.get(edge.to_node) ?? -1;
    const agent = isAgentEdge(edge);
    weight[e] = edgeWeight(edge);
    flags[e] = (agent ? AGENT : 0) | (edge.layer_violation ? VIOLATION : 0);
  }
  const n = nodes.length;
  const adjStart = new Int32Array(n + 1);
  for (let u = 0; u < n; u++) adjStart[u + 1] = adjStart[u]! + (outgoing[u]?.length ?? 0) + (incoming[u]?.length ?? 0);
  const adj = new Int32Array(adjStart[n]!);
  for (let u = 0, k = 0; u < n; u++) {
    for (const e of outgoing[u] ?? []) adj[k++] = e;
    for (const e of incoming[u] ?? []) adj[k++] = e;
  }
  table = {
    from,
    to,
    weight,
    flags,
    adjStart,
    adj,
    reached: new Float64Array(n),
    reachedStamp: new Int32Array(n),
    bestVia: new Float64Array(n),
    bestViaStamp: new Int32Array(n),
    contributions: new Array<number[] | undefined>(n),
    stamp: 0,
  };
  TABLES.set(index, table);
  return table;
}

/** @param includeImplicit walk the `IMPLICIT_*` edges an agent proposed (L3 enrichment, #9). */
export function expandGraph(index: KddIndex, seeds: readonly Seed[], depth: number, respectLayers: boolean, includeImplicit = true): Expansion {
  const t = edgeTable(index);
  const { from: fromOf, to: toOf, weight, flags, adjStart, adj, reached, reachedStamp, bestVia, bestViaStamp, contributions } = t;
  const scores = new Map<number, number>();
  const via = new Map<number, number>();
  const skipped = new Set<number>();
  // Nodes reached by any seed, in first-reached order; their contributions (one per seed) in `contributions`.
  const touched: number[] = [];
  // bestVia (node → best single contribution so far) lives for the whole call.
  if (t.stamp > 0x3fffff00) {
    // Stamps wrap after ~1e9 walks: start the scratch over.
    t.stamp = 0;
    reachedStamp.fill(0);
    bestViaStamp.fill(0);
  }
  const callStamp = ++t.stamp;
  const skipMask = (includeImplicit ? 0 : AGENT) | (respectLayers ? VIOLATION : 0);
  for (const seed of seeds) {
    // Best score per node from this seed (max over paths), found level by level.
    const seedStamp = ++t.stamp;
    const order: number[] = [seed.node];
    reached[seed.node] = seed.score;
    reachedStamp[seed.node] = seedStamp;
    let frontier = [seed.node];
    for (let hop = 1; hop <= depth && frontier.length > 0; hop++) {
      const next: number[] = [];
      for (let i = 0; i < frontier.length; i++) {
        const u = frontier[i]!;
        // No out-degree damping: measured on bench/eval, it lowered nDCG (hubs here are real hubs).
        const fromScore = reached[u]!;
        for (let k = adjStart[u]!, end = adjStart[u + 1]!; k < end; k++) {
          const e = adj[k]!;
          const f = flags[e]! & skipMask;
          if (f !== 0) {
            if (f & AGENT) continue;
            skipped.add(e);
            continue;
          }
          const v = fromOf[e] === u ? toOf[e]! : fromOf[e]!;
          if (v < 0 || v === seed.node) continue;
          const s = fromScore * HOP_FACTOR * weight[e]!;
          const known = reachedStamp[v] === seedStamp;
          if (!known || s > reached[v]!) {
            if (!known) {
              next.push(v);
              order.push(v);
              reachedStamp[v] = seedStamp;
            }
            reached[v] = s;
            const best = bestViaStamp[v] === callStamp ? bestVia[v]! : 0;
            if (s > best) {
              bestVia[v] = s;
              bestViaStamp[v] = callStamp;
              via.set(v, e);
            }
          }
        }
      }
      frontier = next.sort((a, b) => a - b);
    }
    // Seeds reached from other seeds gain too: two top matches that link each other reinforce.
    for (let i = 1; i < order.length; i++) {
      const v = order[i]!;
      const list = contributions[v];
      if (list) list.push(reached[v]!);
      else (contributions[v] = [reached[v]!]), touched.push(v);
    }
  }
  // Best path counts fully, further seeds partly: a hub linked to every match must not outrank them.
  for (const v of touched) {
    const list = contributions[v]!;
    contributions[v] = undefined;
    if (list.length > 1) list.sort((a, b) => b - a);
    let total = list[0]!;
    for (let i = 1; i < list.length; i++) total += EXTRA_SEED_SHARE * list[i]!;
    scores.set(v, total);
  }
  return { scores, via, skipped, seeds: seeds.map((seed) => seed.node) };
}
