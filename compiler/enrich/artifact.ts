/**
 * The enrichment artifact (CMD-003 postconditions): `.kdd-index/enrichments/<name>.enrichment.json`,
 * one per enriched node, written by `kdd enrich` and read by every `kdd build`.
 *
 * The file name derives from the node id alone ({@link enrichmentFileName}); nothing an agent
 * replies can reach a path. The file carries no clock time, so re-running an enrichment with the
 * same answer leaves the same bytes (git-friendly), and it never carries an API key.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { IMPLICIT_RELATION_TYPES, type ImplicitRelationType } from '../../model/enrichment.js';
import { writeIfChanged } from '../atomic.js';
import { stableJson } from '../../formats/canonical.js';
import { warning, type BuildWarning } from '../diagnostics.js';
import { compareCodeUnits } from '../../model/order.js';

/** Bumped on an incompatible change of the file; other versions are ignored with a warning. */
export const ENRICHMENT_FORMAT = 1;
/** Folder inside `.kdd-index/`. */
export const ENRICHMENTS_DIR = 'enrichments';
export const ENRICHMENT_SUFFIX = '.enrichment.json';

export type EnrichProvider = 'anthropic' | 'openai' | 'command';

/** A relation the agent found that no wiki-link states (becomes an `IMPLICIT_<TYPE>` edge). */
export interface ImplicitRelation {
  /** Id of an existing node (checked against the index when the reply is accepted, and at build). */
  target: string;
  relation_type: ImplicitRelationType;
  /** 0–1, the agent's own estimate. */
  confidence: number;
  /** The sentence of the source document that supports the relation. */
  evidence: string;
}

export interface EnrichmentProvenance {
  /** `PROMPT_VERSION` of compiler/enrich/prompt.ts. */
  prompt_version: string;
  provider: EnrichProvider;
  /** Model id (HTTP providers), or the `--model` label / program name of a local command. */
  model: string;
  /** SHA-256 of (source hash, neighbourhood hash, prompt version, provider:model): the cache key. */
  cache_key: string;
  /** SHA-256 of the graph context sent with the document. */
  neighbourhood_hash: string;
}

export interface Enrichment {
  format: typeof ENRICHMENT_FORMAT;
  node_id: string;
  /** Path relative to the specs root, as in GraphNode. */
  source_file: string;
  /** SHA-256 of the source bytes the agent read; a build ignores the enrichment once they change. */
  source_hash: string;
  /** Improved summary of the document. */
  summary: string;
  /** Sorted by (target, relation_type). */
  implicit_relations: ImplicitRelation[];
  /** Preliminary impact analysis: what else could be affected by a change to this node. */
  impact_notes: string[];
  provenance: EnrichmentProvenance;
}

const MAX_NAME = 160;

/**
 * Node id → file name, injective and path-safe: `[A-Za-z0-9-]` kept, `:` → `_`, every other
 * byte (`_`, `.`, `/`, `%`, spaces, non-ASCII) percent-encoded. No separator, no leading dot, so
 * `../x` becomes `%2E%2E%2Fx`. Very long ids are cut and suffixed with a hash of the full id.
 * @example enrichmentFileName('CMD:CMD-001') === 'CMD_CMD-001.enrichment.json'
 */
export function enrichmentFileName(nodeId: string): string {
  let name = '';
  for (const byte of new TextEncoder().encode(nodeId)) {
    const char = String.fromCharCode(byte);
    if (/[A-Za-z0-9-]/.test(char)) name += char;
    else if (char === ':') name += '_';
    else name += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  if (name.length > MAX_NAME) name = `${name.slice(0, MAX_NAME - 17)}~${createHash('sha256').update(nodeId).digest('hex').slice(0, 16)}`;
  return `${name}${ENRICHMENT_SUFFIX}`;
}

export function enrichmentPath(indexDir: string, nodeId: string): string {
  return join(indexDir, ENRICHMENTS_DIR, enrichmentFileName(nodeId));
}

export function serializeEnrichment(enrichment: Enrichment): string {
  return stableJson(enrichment);
}

/** Writes only when the bytes differ (atomic). */
export async function writeEnrichment(indexDir: string, enrichment: Enrichment): Promise<boolean> {
  return writeIfChanged(enrichmentPath(indexDir, enrichment.node_id), serializeEnrichment(enrichment));
}

export async function readEnrichment(indexDir: string, nodeId: string): Promise<Enrichment | null> {
  const text = await readFile(enrichmentPath(indexDir, nodeId), 'utf8').catch(() => null);
  if (text === null) return null;
  try {
    const parsed = parseEnrichment(JSON.parse(text));
    return typeof parsed === 'string' ? null : parsed;
  } catch {
    return null;
  }
}

/** What a build reads: every valid enrichment, sorted by node id, and a warning per bad file. */
export interface EnrichmentSet {
  enrichments: Enrichment[];
  warnings: BuildWarning[];
}

/** Never throws: a missing folder is an empty set, a bad file a warning (enrichment never breaks a build). */
export async function readEnrichments(indexDir: string): Promise<EnrichmentSet> {
  const dir = join(indexDir, ENRICHMENTS_DIR);
  const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith(ENRICHMENT_SUFFIX)).sort();
  const enrichments: Enrichment[] = [];
  const warnings: BuildWarning[] = [];
  for (const name of names) {
    const file = `${ENRICHMENTS_DIR}/${name}`;
    let parsed: Enrichment | string;
    try {
      parsed = parseEnrichment(JSON.parse(await readFile(join(dir, name), 'utf8')));
    } catch (error) {
      parsed = `not readable JSON (${(error as Error).message})`;
    }
    if (typeof parsed !== 'string' && enrichmentFileName(parsed.node_id) !== name) parsed = `file name does not match node id ${parsed.node_id}`;
    if (typeof parsed === 'string') warnings.push(warning('ENRICHMENT_IGNORED', { file, detail: parsed }));
    else enrichments.push(parsed);
  }
  enrichments.sort((a, b) => compareCodeUnits(a.node_id, b.node_id));
  return { enrichments, warnings };
}

// ── Validation of a stored file (hand-written: the shape is small and closed) ───────────────

const isString = (v: unknown): v is string => typeof v === 'string';
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const HEX64 = /^[0-9a-f]{64}$/;

/** A stored enrichment, or the reason it is not one. */
export function parseEnrichment(value: unknown): Enrichment | string {
  if (!isRecord(value)) return 'not an object';
  if (value.format !== ENRICHMENT_FORMAT) return `unsupported format ${String(value.format)} (expected ${ENRICHMENT_FORMAT})`;
  for (const key of ['node_id', 'source_file', 'summary'] as const) if (!isString(value[key]) || value[key] === '') return `missing ${key}`;
  if (!isString(value.source_hash) || !HEX64.test(value.source_hash)) return 'source_hash is not a SHA-256 hex digest';
  if (!Array.isArray(value.impact_notes) || !value.impact_notes.every(isString)) return 'impact_notes must be a list of strings';
  if (!Array.isArray(value.implicit_relations)) return 'implicit_relations must be a list';
  const relations: ImplicitRelation[] = [];
  for (const r of value.implicit_relations) {
    if (!isRecord(r) || !isString(r.target) || !isString(r.evidence) || typeof r.confidence !== 'number') return 'malformed implicit relation';
    if (!(IMPLICIT_RELATION_TYPES as readonly unknown[]).includes(r.relation_type)) return `unknown relation type ${String(r.relation_type)}`;
    if (!(r.confidence >= 0 && r.confidence <= 1)) return 'confidence out of 0–1';
    relations.push({ target: r.target, relation_type: r.relation_type as ImplicitRelationType, confidence: r.confidence, evidence: r.evidence });
  }
  const p = value.provenance;
  if (!isRecord(p) || !isString(p.prompt_version) || !isString(p.model) || !isString(p.cache_key) || !isString(p.neighbourhood_hash)) return 'malformed provenance';
  if (p.provider !== 'anthropic' && p.provider !== 'openai' && p.provider !== 'command') return `unknown provider ${String(p.provider)}`;
  return {
    format: ENRICHMENT_FORMAT,
    node_id: value.node_id as string,
    source_file: value.source_file as string,
    source_hash: value.source_hash,
    summary: value.summary as string,
    implicit_relations: relations,
    impact_notes: value.impact_notes as string[],
    provenance: { prompt_version: p.prompt_version, provider: p.provider, model: p.model, cache_key: p.cache_key, neighbourhood_hash: p.neighbourhood_hash },
  };
}
