/** * The data model shared by the compiler and the runtime: graph nodes, edges and the
 * derived lists the bundle carries. Field names follow the specification's entities
 * (GraphNode, GraphEdge, IndexManifest) so that JSON answers use the spec's vocabulary.
 *
 * This module is isomorphic: plain data only, no Node-only types.
 */
import type { RawLink } from './records.js';

/** KDD layers, in dependency order (BR-LAYER-001). `05-architecture` is outside the flow like 00. */
export const LAYERS = [
  '00-requirements',
  '01-domain',
  '02-behavior',
  '03-experience',
  '04-verification',
  '05-architecture',
] as const;
export type Layer = (typeof LAYERS)[number];

/** Every kind the indexer recognises. The per-kind knowledge lives in model/kinds.ts. */
export const KINDS = [
  'entity',
  'role',
  'system',
  'event',
  'business-rule',
  'business-policy',
  'cross-policy',
  'command',
  'query',
  'process',
  'use-case',
  'ui-view',
  'ui-component',
  'ui-flow',
  'requirement',
  'objective',
  'prd',
  'adr',
  'value-unit',
  'release',
  'nfr',
  'glossary',
  'feature',
] as const;
export type Kind = (typeof KINDS)[number];

/** Structural edge types (SCREAMING_SNAKE_CASE). Business relations are free lower-case strings. */
export const STRUCTURAL_EDGE_TYPES = [
  'WIKI_LINK',
  'DOMAIN_RELATION',
  'ENTITY_RULE',
  'ENTITY_POLICY',
  'EMITS',
  'CONSUMES',
  'UC_APPLIES_RULE',
  'UC_EXECUTES_CMD',
  'UC_STORY',
  'VIEW_TRIGGERS_UC',
  'VIEW_USES_COMPONENT',
  'COMPONENT_USES_ENTITY',
  'REQ_TRACES_TO',
  'VALIDATES',
  'DECIDES_FOR',
  'CROSS_DOMAIN_REF',
  'LAYER_DEPENDENCY',
] as const;
export type StructuralEdgeType = (typeof STRUCTURAL_EDGE_TYPES)[number];

/** A section of the source document, kept for snippets, section-level matching and `read_section`. */
export interface NodeSection {
  /** Heading text as written (without the leading #). */
  heading: string;
  /** Heading depth (2 for `##`). The document title (`#`) is not a section. */
  depth: number;
  /** Canonical field name when the kind table knows the heading (e.g. `description`), else null. */
  field: string | null;
  /** Plain text of the section body (Markdown syntax stripped, wiki-links rendered as their label). */
  text: string;
}

export interface GraphNode {
  /** `{Prefix}:{DocumentId}` (e.g. `Entity:Pedido`, `UC:UC-001`); `domain:` prefixed in multi-domain trees. */
  id: string;
  kind: Kind;
  /** Document id without the kind prefix (e.g. `UC-001`, `Pedido`). */
  doc_id: string;
  title: string;
  /** Path relative to the specs root, POSIX separators. */
  source_file: string;
  /** SHA-256 (hex) of the source file's bytes. */
  source_hash: string;
  layer: Layer;
  status: string;
  aliases: string[];
  domain: string | null;
  /** Kind-specific fields (see the kind table): strings, lists, tables, state machines. */
  indexed_fields: Record<string, unknown>;
  sections: NodeSection[];
  /** Tags (front-matter `tags`, Gherkin tags). */
  tags: string[];
  /** ISO-8601 commit time of the last commit touching the source, or null outside git (never the wall clock). */
  indexed_at: string | null;
}

export type ExtractionMethod = 'wiki_link' | 'section_content' | 'implicit';

export interface GraphEdge {
  from_node: string;
  to_node: string;
  /** Structural type or a free lower-case business relation (e.g. `pertenece_a`). */
  edge_type: string;
  source_file: string;
  extraction_method: ExtractionMethod;
  /** Extra data: `section`, `cardinality`, `display_alias`, `anchor`, `domain`. Keys sorted. */
  metadata: Record<string, string>;
  layer_violation: boolean;
  bidirectional: boolean;
}

/** A wiki-link whose target resolves to no node: reported, never silently dropped. */
export interface DanglingLink {
  from_node: string;
  target: string;
  source_file: string;
  section: string | null;
  /**
   * Every link to `target` the node wrote, with what shapes its edges, in the order written: a merge
   * re-links them exactly as it re-links the raw links of a `.kdd-index/` (typed edges included).
   * Absent in bundles packed before it was added.
   */
  links?: DanglingOccurrence[];
}

/** One unresolved link as written: the raw-link fields that decide its edges' types and metadata. */
export type DanglingOccurrence = Pick<RawLink, 'anchor' | 'alias' | 'field' | 'section'> & Partial<Pick<RawLink, 'relation' | 'cardinality'>>;

/** One row of QRY-006: an edge that goes up the layer hierarchy. */
export interface LayerViolation {
  from_node: string;
  to_node: string;
  from_layer: Layer;
  to_layer: Layer;
  edge_type: string;
  source_file: string;
}

export type IndexLevel = 'L1' | 'L2' | 'L3';
export type Structure = 'single-domain' | 'multi-domain';

export interface ManifestStats {
  nodes: number;
  edges: number;
  embeddings: number;
  enrichments: number;
}

/** `.kdd-index/manifest.json` (IndexManifest). Deterministic: no wall-clock fields. */
export interface IndexManifest {
  /** Artifact schema version (semver). Major bumps are not mergeable. */
  version: string;
  kdd_version: string;
  index_level: IndexLevel;
  structure: Structure;
  domains: string[];
  embedding_model: string | null;
  embedding_dimensions: number | null;
  /** Newest `indexed_at` among nodes (git time), or null outside git. */
  indexed_at: string | null;
  /** From git `user.email`/`user.name` when available, else null. */
  indexed_by: string | null;
  git_commit: string | null;
  stats: ManifestStats;
  /** source_file → source_hash, for incremental builds. Sorted by path. */
  sources: Record<string, string>;
  /**
   * L3 only, absent otherwise: node id → digest of the enrichment applied to it
   * (`.kdd-index/enrichments/`, compiler/enrich). Lets an incremental build notice a new summary.
   */
  enrichments?: Record<string, string>;
}
