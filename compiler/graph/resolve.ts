/**
 * Wiki-link resolution: by id, then file name, then title, then alias (ARCHITECTURE "Ids and
 * graph"), domain-local first, then `core`, then `_shared`, then anywhere. Matching ignores case
 * only after an exact-case miss, so `[[pedido]]` still finds `Pedido`.
 */
import type { GraphNode } from '../../model/graph.js';
import { KIND_TABLE } from '../../model/kinds.js';
import { baseName } from '../kinds/record.js';

type Tier = 'node_id' | 'doc_id' | 'file' | 'title' | 'alias';
const TIERS: readonly Tier[] = ['node_id', 'doc_id', 'file', 'title', 'alias'];
const ANY_DOMAIN = '*';

export interface Resolution {
  node: string;
  /** Other nodes the same key matched in the winning tier (ambiguous link), sorted. */
  others: string[];
}

const FALLBACK_SCOPES = ['core', '_shared', ANY_DOMAIN] as const;

/** The ids a key matched in the first tier (TIERS order) that has it: the only tier lookups read. */
interface Entry {
  tier: number;
  ids: string[];
}

export class LinkResolver {
  /** scope → lower-cased key → ids of the best tier holding that key (sorted). */
  private readonly tables = new Map<string, Map<string, Entry>>();

  /** scope → lower-cased doc id → node ids, for the id-pattern fallback. */
  private readonly docIds = new Map<string, Map<string, string[]>>();

  constructor(nodes: readonly GraphNode[]) {
    for (const node of nodes) {
      for (const scope of [node.domain ?? ANY_DOMAIN, ANY_DOMAIN]) {
        this.add(scope, 'node_id', node.id, node.id);
        if (node.domain) this.add(scope, 'node_id', node.id.slice(node.domain.length + 1), node.id);
        this.add(scope, 'doc_id', node.doc_id, node.id);
        this.add(scope, 'file', baseName(node.source_file), node.id);
        this.add(scope, 'title', node.title, node.id);
        for (const alias of node.aliases) this.add(scope, 'alias', alias, node.id);
      }
    }
    for (const keys of this.tables.values()) for (const entry of keys.values()) entry.ids.sort();
    for (const keys of this.docIds.values()) for (const ids of keys.values()) ids.sort();
  }

  private add(scope: string, tier: Tier, key: string, id: string): void {
    const rank = TIERS.indexOf(tier);
    const lower = key.toLowerCase();
    let keys = this.tables.get(scope);
    if (!keys) this.tables.set(scope, (keys = new Map()));
    const entry = keys.get(lower);
    // Ids are unique and each node's keys are added in one run (constructor), so an id already in
    // a list is its last element: comparing with it stands for `includes` without the quadratic
    // scan of keys that many nodes share (a title repeated in every domain).
    if (!entry || entry.tier > rank) keys.set(lower, { tier: rank, ids: [id] });
    else if (entry.tier === rank && entry.ids[entry.ids.length - 1] !== id) entry.ids.push(id);
    if (tier === 'doc_id') {
      let docs = this.docIds.get(scope);
      if (!docs) this.docIds.set(scope, (docs = new Map()));
      const ids = docs.get(lower);
      if (!ids) docs.set(lower, [id]);
      else if (ids[ids.length - 1] !== id) ids.push(id);
    }
  }

  /** Resolves `target` as written in a document of `fromDomain`; `explicitDomain` from `[[d::X]]`. */
  resolve(target: string, fromDomain: string | null, explicitDomain: string | null): Resolution | null {
    const key = target.trim().toLowerCase();
    if (explicitDomain) return this.lookupIn(explicitDomain, key, target);
    // Domain-local first, then `core`, `_shared`, anywhere; each scope once.
    const own = fromDomain ?? ANY_DOMAIN;
    const found = this.lookupIn(own, key, target);
    if (found) return found;
    for (const scope of FALLBACK_SCOPES) {
      if (scope === own) continue;
      const next = this.lookupIn(scope, key, target);
      if (next) return next;
    }
    return null;
  }

  private lookupIn(scope: string, key: string, target: string): Resolution | null {
    return this.lookup(scope, key, target) ?? this.lookupByIdPattern(scope, target);
  }

  private lookup(scope: string, key: string, target: string): Resolution | null {
    const entry = this.tables.get(scope)?.get(key);
    return entry ? pick(entry.ids, target) : null;
  }

  /** `[[UC-001-SomeOldName]]` still reaches `UC-001` when the file was renamed. */
  private lookupByIdPattern(scope: string, target: string): Resolution | null {
    const doc = this.docIds.get(scope);
    if (!doc) return null;
    for (const spec of KIND_TABLE) {
      const id = spec.idPattern?.exec(target)?.[0];
      const ids = id ? doc.get(id.toLowerCase()) : undefined;
      if (ids?.length) return pick(ids, id!);
    }
    return null;
  }
}

/** Several nodes share the key: prefer the exact-case match, then the smallest id (deterministic). */
function pick(ids: readonly string[], target: string): Resolution {
  if (ids.length === 1) return { node: ids[0]!, others: [] };
  const exact = ids.filter((id) => id === target || id.endsWith(`:${target}`));
  const ordered = [...exact, ...ids.filter((id) => !exact.includes(id))];
  return { node: ordered[0]!, others: ordered.slice(1) };
}
