/**
 * Wiki-link resolution: by id, then file name, then title, then alias (ARCHITECTURE "Ids and
 * graph"), domain-local first, then `core`, then `_shared`, then anywhere. Matching ignores case
 * only after an exact-case miss, so `[[pedido]]` still finds `Pedido`.
 */
import type { GraphNode } from '../../runtime/model.js';
import { KIND_TABLE } from '../kinds/table.js';
import { baseName } from '../kinds/extract.js';

type Tier = 'node_id' | 'doc_id' | 'file' | 'title' | 'alias';
const TIERS: readonly Tier[] = ['node_id', 'doc_id', 'file', 'title', 'alias'];
const ANY_DOMAIN = '*';

export interface Resolution {
  node: string;
  /** Other nodes the same key matched in the winning tier (ambiguous link), sorted. */
  others: string[];
}

export class LinkResolver {
  /** scope → tier → lower-cased key → node ids (sorted on first use). */
  private readonly tables = new Map<string, Map<Tier, Map<string, string[]>>>();

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
    for (const tiers of this.tables.values()) for (const keys of tiers.values()) for (const ids of keys.values()) ids.sort();
  }

  private add(scope: string, tier: Tier, key: string, id: string): void {
    let tiers = this.tables.get(scope);
    if (!tiers) this.tables.set(scope, (tiers = new Map()));
    let keys = tiers.get(tier);
    if (!keys) tiers.set(tier, (keys = new Map()));
    const lower = key.toLowerCase();
    const ids = keys.get(lower);
    if (!ids) keys.set(lower, [id]);
    else if (!ids.includes(id)) ids.push(id);
  }

  /** Resolves `target` as written in a document of `fromDomain`; `explicitDomain` from `[[d::X]]`. */
  resolve(target: string, fromDomain: string | null, explicitDomain: string | null): Resolution | null {
    const scopes = explicitDomain ? [explicitDomain] : [...new Set([fromDomain ?? ANY_DOMAIN, 'core', '_shared', ANY_DOMAIN])];
    for (const scope of scopes) {
      const found = this.lookup(scope, target) ?? this.lookupByIdPattern(scope, target);
      if (found) return found;
    }
    return null;
  }

  private lookup(scope: string, target: string): Resolution | null {
    const tiers = this.tables.get(scope);
    if (!tiers) return null;
    const key = target.trim().toLowerCase();
    for (const tier of TIERS) {
      const ids = tiers.get(tier)?.get(key);
      if (ids?.length) return pick(ids, target);
    }
    return null;
  }

  /** `[[UC-001-SomeOldName]]` still reaches `UC-001` when the file was renamed. */
  private lookupByIdPattern(scope: string, target: string): Resolution | null {
    const doc = this.tables.get(scope)?.get('doc_id');
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
  const exact = ids.filter((id) => id === target || id.endsWith(`:${target}`));
  const ordered = [...exact, ...ids.filter((id) => !exact.includes(id))];
  return { node: ordered[0]!, others: ordered.slice(1) };
}
