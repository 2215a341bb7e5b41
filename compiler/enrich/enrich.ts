/**
 * `kdd enrich` (CMD-003, UC-003, #9): enrich nodes of an existing index with the developer's agent.
 *
 * 1. The index must exist (`.kdd-index/manifest.json`): LOW_INDEX_LEVEL otherwise. Our reading of
 *    BR-INDEX-001: the spec asks for ≥ L2 because its enrichments were to build on embeddings; ours
 *    build on the document and the graph, which L1 already has, so ≥ L1 suffices (docs/enrich.md).
 * 2. Every named node must be in the index (NODE_NOT_FOUND, before anything is sent).
 * 3. Per node: read its source document inside the specs root (DOCUMENT_NOT_FOUND), build the
 *    graph context and the cache key. An enrichment file with the same key means the node is not
 *    sent again (`--force` overrides; `--changed` sends only nodes whose existing key moved).
 * 4. Send (bounded concurrency), check the reply, drop relations to unknown nodes with a warning,
 *    write `.kdd-index/enrichments/<node>.enrichment.json`. A failure (AGENT_ERROR, AGENT_TIMEOUT)
 *    is reported for that node; the others go on, and the index is never touched by a failure.
 * 5. If anything was written, run the normal incremental build so the edges, the manifest's
 *    `stats.enrichments` and the bundle include it (a build failure is reported, not thrown).
 */
import { realpath, readFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { createError, isKddError, toKddError, type ErrorCode } from '../../model/errors.js';
import type { GraphNode } from '../../model/graph.js';
import { readIndexDir } from '../emit/read-index-dir.js';
import { linkRecords, type Graph } from '../graph/link.js';
import { buildIndex } from '../pipeline.js';
import { excerpt, redact, type Agent } from './agent.js';
import { ENRICHMENT_FORMAT, enrichmentFileName, ENRICHMENTS_DIR, readEnrichment, writeEnrichment, type Enrichment } from './artifact.js';
import { buildPrompt, cacheKey, graphContext, neighbourhoodHash, PROMPT_VERSION, sha256, type GraphContext } from './prompt.js';
import { checkReply, extractJson } from './reply.js';
import { agentIdentity, createAgent, type AgentChoice, type AgentIdentity } from './resolve-agent.js';

export interface EnrichOptions extends AgentChoice {
  /** Nodes to enrich (ids as in the index). Exclusive with `all`. */
  nodeIds?: readonly string[];
  /** Every node of the index. */
  all?: boolean;
  /** Only nodes that already have an enrichment whose cache key changed (refresh, no new spend). */
  changed?: boolean;
  /** Send even when the cache key matches (UC-003 FA-1: regenerate). */
  force?: boolean;
  /** Plan only: report what would be sent, send nothing, write nothing. */
  dryRun?: boolean;
  /** Specs root; source documents are read only inside it. */
  specsDir: string;
  /** Default `.kdd-index`. */
  indexDir?: string;
  /** Bundle folder for the rebuild. Default `dist`. */
  outDir?: string;
  /** Requests in flight at once. Default 4. */
  concurrency?: number;
  /** Rebuild `.kdd-index/` and the bundle when something was written. Default true. */
  rebuild?: boolean;
  /** Where keys are read from. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** An agent object instead of one built from the options (tests, embedding programs). */
  agent?: Agent;
  onProgress?: (done: number, total: number) => void;
}

export type NodeStatus = 'enriched' | 'cached' | 'skipped' | 'planned' | 'failed';

export interface NodeOutcome {
  node_id: string;
  status: NodeStatus;
  /** Why it was (or would be) sent: no enrichment yet, its key changed, or `--force`. */
  reason?: 'new' | 'changed' | 'forced';
  /** Relative to the index dir (`enrichments/CMD_CMD-001.enrichment.json`). */
  file?: string;
  relations?: number;
  warnings: string[];
  error?: { code: ErrorCode; message: string };
  /** EX-3: the start of an unusable reply, for diagnosis (redacted). */
  raw_excerpt?: string;
}

export interface EnrichReport {
  provider: string;
  model: string;
  prompt_version: string;
  nodes: NodeOutcome[];
  /** Agent calls made, retries included (the cost: one per node sent, plus retries). */
  requests: number;
  enriched: number;
  cached: number;
  skipped: number;
  failed: number;
  /** The rebuild that integrated the enrichments, or null when nothing was written. */
  build: { bundle: string; nodes: number; edges: number; enrichments: number } | null;
  build_error: { code: ErrorCode; message: string } | null;
  warnings: string[];
  duration_ms: number;
}

interface Job {
  node: GraphNode;
  document: string;
  context: GraphContext;
  sourceHash: string;
  key: string;
  neighbourhood: string;
  reason: 'new' | 'changed' | 'forced';
}

export async function enrich(options: EnrichOptions): Promise<EnrichReport> {
  const started = performance.now();
  const env = options.env ?? process.env;
  const specsDir = resolve(options.specsDir);
  const indexDir = resolve(options.indexDir ?? '.kdd-index');
  const graph = await loadIndexGraph(indexDir);
  const targets = pickTargets(graph, options);
  const identity: AgentIdentity = options.agent ? { provider: options.agent.provider, model: options.agent.model } : agentIdentity(options, env);
  const agentLabel = `${identity.provider}:${identity.model}`;
  const warnings: string[] = [];
  const outcomes = new Map<string, NodeOutcome>();
  const jobs: Job[] = [];

  for (const node of targets) {
    const planned = await plan(node, graph, specsDir, indexDir, agentLabel, options);
    if ('outcome' in planned) outcomes.set(node.id, planned.outcome);
    else {
      if (planned.stale) warnings.push(`the index is stale for ${node.id} (its source changed since the last build); the enrichment applies after the rebuild`);
      jobs.push(planned.job);
      outcomes.set(node.id, { node_id: node.id, status: 'planned', reason: planned.job.reason, warnings: [] });
    }
  }

  let requests = 0;
  let written = 0;
  if (!options.dryRun && jobs.length > 0) {
    const agent = options.agent ? counting(options.agent, () => void requests++) : createAgent(options, { env, cwd: specsDir, onRequest: () => void requests++ });
    const exists = (id: string) => graph.byId.has(id);
    let done = 0;
    options.onProgress?.(0, jobs.length);
    await pool(jobs, options.concurrency ?? 4, async (job) => {
      const outcome = await runJob(job, agent, identity, indexDir, exists);
      if (outcome.status === 'enriched') written++;
      outcomes.set(job.node.id, outcome);
      options.onProgress?.(++done, jobs.length);
    });
  }

  const nodes = targets.map((node) => outcomes.get(node.id)!);
  let build: EnrichReport['build'] = null;
  let buildError: EnrichReport['build_error'] = null;
  if (written > 0 && options.rebuild !== false) {
    try {
      const report = await buildIndex({ specsDir, indexDir, outDir: resolve(options.outDir ?? 'dist') });
      build = { bundle: report.bundle.bundle, nodes: report.nodes, edges: report.edges, enrichments: report.bundle.stats.enrichments };
    } catch (error) {
      const kdd = toKddError(error);
      buildError = { code: kdd.code, message: kdd.message };
    }
  }
  const count = (status: NodeStatus) => nodes.filter((n) => n.status === status).length;
  return {
    provider: identity.provider,
    model: identity.model,
    prompt_version: PROMPT_VERSION,
    nodes,
    requests,
    enriched: count('enriched'),
    cached: count('cached'),
    skipped: count('skipped'),
    failed: count('failed'),
    build,
    build_error: buildError,
    warnings,
    duration_ms: Math.round(performance.now() - started),
  };
}

interface IndexGraph extends Graph {
  byId: ReadonlyMap<string, GraphNode>;
}

/** The authored graph of `.kdd-index/` (agent edges left out: see prompt.ts). */
async function loadIndexGraph(indexDir: string): Promise<IndexGraph> {
  const manifest = await readFile(join(indexDir, 'manifest.json'), 'utf8').catch(() => null);
  if (manifest === null) throw createError('LOW_INDEX_LEVEL', { required: 'L1', detail: `no index in ${indexDir}: run kdd build first` });
  let content;
  try {
    content = await readIndexDir(indexDir);
  } catch (error) {
    throw createError('LOW_INDEX_LEVEL', { required: 'L1', detail: `the index in ${indexDir} is unreadable: ${(error as Error).message}` });
  }
  const graph = linkRecords(content.records);
  return { ...graph, byId: new Map(graph.nodes.map((node) => [node.id, node])) };
}

function pickTargets(graph: IndexGraph, options: EnrichOptions): GraphNode[] {
  const ids = options.nodeIds ?? [];
  if (options.all && ids.length > 0) throw createError('INVALID_PARAMS', { field: 'node_id', reason: 'give node ids or --all, not both' });
  if (options.all) return graph.nodes;
  if (ids.length === 0) throw createError('INVALID_PARAMS', { field: 'node_id', reason: 'give at least one node id, or --all' });
  const unique = [...new Set(ids)];
  for (const id of unique) if (!graph.byId.has(id)) throw createError('NODE_NOT_FOUND', { node_id: id });
  return unique.map((id) => graph.byId.get(id)!);
}

type Planned = { outcome: NodeOutcome } | { job: Job; stale: boolean };

async function plan(node: GraphNode, graph: IndexGraph, specsDir: string, indexDir: string, agentLabel: string, options: EnrichOptions): Promise<Planned> {
  const bytes = await readSource(specsDir, node.source_file);
  if (bytes === null) {
    const error = createError('DOCUMENT_NOT_FOUND', { source_path: node.source_file, node_id: node.id });
    return { outcome: { node_id: node.id, status: 'failed', warnings: [], error: { code: error.code, message: `${error.message} (node ${node.id})` } } };
  }
  const document = bytes.toString('utf8');
  const sourceHash = sha256(bytes);
  const context = graphContext(node, graph.nodes, graph.edges, document);
  const neighbourhood = neighbourhoodHash(context);
  const key = cacheKey(sourceHash, neighbourhood, agentLabel);
  const existing = await readEnrichment(indexDir, node.id);
  const file = `${ENRICHMENTS_DIR}/${enrichmentFileName(node.id)}`;
  const reason = options.force ? 'forced' : !existing ? 'new' : existing.provenance.cache_key !== key ? 'changed' : null;
  if (reason === null) return { outcome: { node_id: node.id, status: 'cached', file, relations: existing!.implicit_relations.length, warnings: [] } };
  if (options.changed && reason === 'new') return { outcome: { node_id: node.id, status: 'skipped', warnings: [] } };
  return { job: { node, document, context, sourceHash, key, neighbourhood, reason }, stale: sourceHash !== node.source_hash };
}

async function runJob(job: Job, agent: Agent, identity: AgentIdentity, indexDir: string, exists: (id: string) => boolean): Promise<NodeOutcome> {
  const { node } = job;
  let text: string;
  try {
    text = await agent.complete(buildPrompt({ context: job.context, document: job.document }));
  } catch (error) {
    const kdd = isKddError(error) ? error : createError('AGENT_ERROR', { detail: redact((error as Error)?.message ?? String(error)) });
    return failed(job, kdd.code, kdd.message, typeof kdd.params.raw === 'string' ? kdd.params.raw : undefined);
  }
  let value: unknown;
  try {
    value = extractJson(text);
  } catch {
    const error = createError('AGENT_ERROR', { detail: `the reply for ${node.id} is not JSON` });
    return failed(job, error.code, error.message, excerpt(redact(text), 2000));
  }
  const checked = checkReply(value, node.id, exists);
  if (!checked.ok) {
    const error = createError('AGENT_ERROR', { detail: `invalid reply for ${node.id}: ${checked.reason}` });
    return failed(job, error.code, error.message, excerpt(redact(text), 2000));
  }
  const enrichment: Enrichment = {
    format: ENRICHMENT_FORMAT,
    node_id: node.id,
    source_file: node.source_file,
    source_hash: job.sourceHash,
    ...checked.body,
    provenance: { prompt_version: PROMPT_VERSION, provider: identity.provider, model: identity.model, cache_key: job.key, neighbourhood_hash: job.neighbourhood },
  };
  try {
    await writeEnrichment(indexDir, enrichment);
  } catch (error) {
    const kdd = createError('INDEX_WRITE_FAILED', { index_path: indexDir, detail: (error as Error).message });
    return failed(job, kdd.code, kdd.message);
  }
  return {
    node_id: node.id,
    status: 'enriched',
    reason: job.reason,
    file: `${ENRICHMENTS_DIR}/${enrichmentFileName(node.id)}`,
    relations: enrichment.implicit_relations.length,
    warnings: checked.warnings.map((w) => redact(w)),
  };
}

function failed(job: Job, code: ErrorCode, message: string, raw?: string): NodeOutcome {
  return { node_id: job.node.id, status: 'failed', reason: job.reason, warnings: [], error: { code, message }, ...(raw ? { raw_excerpt: raw } : {}) };
}

/** The source bytes, or null when missing or outside the specs root (symlinks included). */
async function readSource(specsDir: string, sourceFile: string): Promise<Buffer | null> {
  if (isAbsolute(sourceFile) || sourceFile.split(/[\\/]/).includes('..')) return null;
  try {
    const root = await realpath(specsDir);
    const real = await realpath(resolve(specsDir, sourceFile));
    const rel = relative(root, real);
    if (rel === '' || rel.startsWith(`..${sep}`) || rel === '..' || isAbsolute(rel)) return null;
    return await readFile(real);
  } catch {
    return null;
  }
}

/** An injected agent, with its calls counted like the built-in ones count their requests. */
function counting(agent: Agent, onRequest: () => void): Agent {
  return { provider: agent.provider, model: agent.model, complete: (prompt) => (onRequest(), agent.complete(prompt)) };
}

/** Runs `work` over `items` with at most `limit` in flight. */
async function pool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}
