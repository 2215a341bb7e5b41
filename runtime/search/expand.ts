/**
 * Graph proximity (QRY-003 step 5): spreads the score of the best lexical matches to their
 * neighbours. A rule or command linked to the top matched entity is relevant even when it never
 * repeats the query's words. Both edge directions are walked (ENTITY_RULE points from the rule to
 * the entity, yet the rule is what an agent asking about the entity needs).
 *
 * With `respectLayers`, edges flagged `layer_violation` (BR-LAYER-001) are never walked; they are
 * collected so the answer can report them.
 */
import { isAgentEdge } from '../enrichment.js';
import type { KddIndex } from '../kdd-index.js';

/** How strongly each edge type carries relevance; unknown (business) relations use DEFAULT. */
const EDGE_WEIGHT: Readonly<Record<string, number>> = {
  ENTITY_RULE: 1,
  ENTITY_POLICY: 1,
  UC_APPLIES_RULE: 1,
  UC_EXECUTES_CMD: 1,
  EMITS: 0.9,
  CONSUMES: 0.9,
  VALIDATES: 0.8,
  REQ_TRACES_TO: 0.7,
  DOMAIN_RELATION: 0.7,
  DECIDES_FOR: 0.7,
  UC_STORY: 0.7,
  VIEW_TRIGGERS_UC: 0.7,
  VIEW_USES_COMPONENT: 0.6,
  COMPONENT_USES_ENTITY: 0.6,
  WIKI_LINK: 0.55,
  CROSS_DOMAIN_REF: 0.5,
  LAYER_DEPENDENCY: 0.5,
};
const DEFAULT_WEIGHT = 0.65;
/** Agent-proposed `IMPLICIT_*` edges (L3): a guess carries less than an authored wiki-link. */
const IMPLICIT_WEIGHT = 0.45;
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
}

/** @param includeImplicit walk the `IMPLICIT_*` edges an agent proposed (L3 enrichment, #9). */
export function expandGraph(index: KddIndex, seeds: readonly Seed[], depth: number, respectLayers: boolean, includeImplicit = true): Expansion {
  const { edges, outgoing, incoming } = index.bundle;
  const scores = new Map<number, number>();
  const via = new Map<number, number>();
  const bestVia = new Map<number, number>(); // node → best single contribution so far
  const skipped = new Set<number>();
  const perNode = new Map<number, number[]>();
  for (const seed of seeds) {
    // Best score per node from this seed (max over paths), found level by level.
    const reached = new Map<number, number>([[seed.node, seed.score]]);
    let frontier = [seed.node];
    for (let hop = 1; hop <= depth && frontier.length > 0; hop++) {
      const next: number[] = [];
      for (const u of frontier) {
        // No out-degree damping: measured on bench/eval, it lowered nDCG (hubs here are real hubs).
        const from = reached.get(u)!;
        for (const list of [outgoing[u] ?? [], incoming[u] ?? []]) {
          for (const e of list) {
            const edge = edges[e]!;
            if (!includeImplicit && isAgentEdge(edge)) continue;
            if (edge.layer_violation && respectLayers) {
              skipped.add(e);
              continue;
            }
            const v = index.nodeIndex.get(edge.from_node === index.bundle.nodes[u]!.id ? edge.to_node : edge.from_node);
            if (v === undefined || v === seed.node) continue;
            const s = from * HOP_FACTOR * (EDGE_WEIGHT[edge.edge_type] ?? (isAgentEdge(edge) ? IMPLICIT_WEIGHT : DEFAULT_WEIGHT));
            const old = reached.get(v);
            if (old === undefined || s > old) {
              if (old === undefined) next.push(v);
              reached.set(v, s);
              if (s > (bestVia.get(v) ?? 0)) {
                bestVia.set(v, s);
                via.set(v, e);
              }
            }
          }
        }
      }
      frontier = next.sort((a, b) => a - b);
    }
    // Seeds reached from other seeds gain too: two top matches that link each other reinforce.
    for (const [v, s] of reached) {
      if (v === seed.node) continue;
      const list = perNode.get(v);
      if (list) list.push(s);
      else perNode.set(v, [s]);
    }
  }
  // Best path counts fully, further seeds partly: a hub linked to every match must not outrank them.
  for (const [v, list] of perNode) {
    list.sort((a, b) => b - a);
    let total = list[0]!;
    for (let i = 1; i < list.length; i++) total += EXTRA_SEED_SHARE * list[i]!;
    scores.set(v, total);
  }
  return { scores, via, skipped };
}
