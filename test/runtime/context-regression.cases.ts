/**
 * Cases of the QRY-003 `context` regression snapshot (test/runtime/context-regression.test.ts):
 * ~50 varied queries on the kdd-engine corpus and the fixtures. The snapshot was written by
 * `npx tsx test/runtime/context-regression.cases.ts --write` BEFORE the query-time optimisations
 * of context/expand/snippet/tokens, so the test proves the outputs stayed identical.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { compile, packCompiled } from '../../compiler/pipeline.js';
import type { KddIndex } from '../../runtime/kdd-index.js';
import { loadIndex } from '../../runtime/load.js';
import { context, type ContextParams } from '../../runtime/queries/context.js';

export const KDD_ENGINE = fileURLToPath(new URL('../../../shared/corpora/kdd-engine/specs', import.meta.url));
export const FIXTURES = ['shop', 'multi-domain', 'kinds'] as const;
export const SNAPSHOT = fileURLToPath(new URL('../fixtures/context-regression/snapshot.json', import.meta.url));

export async function indexOf(specsDir: string): Promise<KddIndex> {
  return loadIndex(packCompiled(await compile({ specsDir })).bytes);
}
export const fixtureDir = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));

/** Varied parameters, cycled over the query texts. */
const VARIANTS: Omit<ContextParams, 'query_text'>[] = [
  {},
  { depth: 1 },
  { depth: 3, limit: 20 },
  { expand_graph: false },
  { respect_layers: false },
  { min_score: 0.1, limit: 30 },
  { max_tokens: 300 },
  { include_kinds: ['use-case', 'business-rule', 'command'] },
  { include_layers: ['01-domain'] },
  { include_implicit: false, depth: 4 },
  { min_score: 0, limit: 100, depth: 5 },
  { max_tokens: 40, limit: 5 },
];

const ENGINE_QUERIES = [
  'indexar documento', 'merge index conflict', 'layer violation', 'retrieve impact of a change',
  'embedding model fallback', 'incremental indexing of a document', 'sincronizar índice con el servidor',
  'reglas de negocio del documento', 'validar capas', 'hybrid search query', 'token budget',
  'Entity:KDDDocument', 'UC-001-IndexDocument', 'BR-DOCUMENT-001', 'CMD-004', 'KDDDocument',
  'GraphNode', 'graph node', 'index manifest', 'which rule applies when a document is deleted',
  'casos de uso de búsqueda', 'eventos emitidos al indexar', 'qué comandos modifican el grafo',
  'detect stale index', 'privacy of embeddings', 'performance latency of retrieval', 'EVT-KDDDocument-Indexed',
  'dangling wiki-link unresolved', 'QRY-003 RetrieveHybrid', 'score fusion lexical semantic graph',
  'scenario tests coverage', 'agent enrichment implicit relations', 'Índice Pedido xyzzy nothing matches',
];
const FIXTURE_QUERIES: Record<(typeof FIXTURES)[number], string[]> = {
  shop: ['crear pedido', 'Pedido', 'Entity:Pedido', 'reglas del pedido', 'cancel order command', 'evento pedido creado'],
  'multi-domain': ['billing invoice', 'cross domain reference', 'usuario', 'policy'],
  kinds: ['use case', 'business rule', 'decision adr', 'view component screen', 'requirement nfr'],
};

export interface Case {
  corpus: string;
  params: ContextParams;
}

export function cases(): Case[] {
  const out: Case[] = [];
  let i = 0;
  for (const query_text of ENGINE_QUERIES) out.push({ corpus: 'kdd-engine', params: { query_text, ...VARIANTS[i++ % VARIANTS.length]! } });
  for (const name of FIXTURES) {
    for (const query_text of FIXTURE_QUERIES[name]) out.push({ corpus: name, params: { query_text, ...VARIANTS[i++ % VARIANTS.length]! } });
  }
  return out;
}

export async function indexes(): Promise<Map<string, KddIndex>> {
  const out = new Map<string, KddIndex>();
  if (existsSync(KDD_ENGINE)) out.set('kdd-engine', await indexOf(KDD_ENGINE));
  for (const name of FIXTURES) out.set(name, await indexOf(fixtureDir(name)));
  return out;
}

/** The JSON text of a result, as the server would send it. */
export const outputOf = (index: KddIndex, params: ContextParams) => JSON.parse(JSON.stringify(context(index, params))) as unknown;

if (process.argv.includes('--write')) {
  const byCorpus = await indexes();
  const snapshot = cases().map((c) => ({ ...c, output: outputOf(byCorpus.get(c.corpus)!, c.params) }));
  await writeFile(SNAPSHOT, `${JSON.stringify(snapshot, null, 1)}\n`);
  console.log(`wrote ${snapshot.length} cases to ${SNAPSHOT}`);
}
