/** Extract stage for Markdown: one `.md` spec → one DocumentRecord (node, sections by kind, raw links). */
import type { GraphNode, NodeSection } from '../../model/graph.js';
import type { RawLink } from '../../model/records.js';
import { warning, type BuildWarning } from '../diagnostics.js';
import { FrontMatterError, parseFrontMatter } from '../parse/front-matter.js';
import { parseMarkdown } from '../parse/markdown.js';
import { parseWikiLink, renderWikiLinks } from '../parse/wiki-links.js';
import type { ParsedMarkdown, Section, WikiLink } from '../parse/types.js';
import type { SourceFile } from '../read.js';
import { fieldValue } from './fields.js';
import { inExpectedFolder, placeInTree, routeKind } from './route.js';
import type { KindSpec } from '../../model/kinds.js';
import { sectionFor } from './vocabulary.js';
import { documentId, nodeId, stringField, type ExtractContext, type ExtractOutcome, type ParseFacts } from './record.js';

export function extractMarkdown(file: SourceFile, context: ExtractContext): ExtractOutcome {
  let frontMatter;
  try {
    frontMatter = parseFrontMatter(file.text);
  } catch (error) {
    if (!(error instanceof FrontMatterError)) throw error;
    return { status: 'skipped', reason: 'invalid front-matter', warnings: [warning('INVALID_FRONT_MATTER', { file: file.path, detail: error.message })] };
  }
  // BR-DOCUMENT-001: a Markdown file without front-matter (a README) is not a spec.
  if (frontMatter.data === null) return { status: 'skipped', reason: 'no front-matter', warnings: [] };
  const data = frontMatter.data;
  const spec = routeKind(data.kind);
  if (!spec) {
    return { status: 'skipped', reason: 'unknown kind', warnings: [warning('UNKNOWN_KIND', { file: file.path, kind: String(data.kind ?? '(missing)') })] };
  }
  const parsed = parseMarkdown(frontMatter.body);
  const place = placeInTree(file.path);
  const docId = documentId(spec, data, file.path);
  const warnings: BuildWarning[] = [];
  if (!inExpectedFolder(spec, place.localPath)) {
    warnings.push(warning('KIND_LOCATION_MISMATCH', { file: file.path, kind: spec.kind, id: docId, expected: `${spec.folders[0]}/` }));
  }
  const { fields, sections, links } = readSections(spec, parsed);
  links.push(...frontMatterLinks(data));
  const node: GraphNode = {
    id: nodeId(place.domain, spec.prefix, docId),
    kind: spec.kind,
    doc_id: docId,
    title: stringField(data.title) ?? stripIdFromTitle(parsed.title, docId) ?? docId,
    source_file: file.path,
    source_hash: file.hash,
    layer: place.layer ?? spec.layer,
    status: stringField(data.status) ?? 'draft',
    aliases: stringList(data.aliases),
    domain: place.domain,
    indexed_fields: fields,
    sections,
    tags: stringList(data.tags),
    indexed_at: context.indexedAt,
  };
  const facts: ParseFacts = { front_matter: data, section_count: parsed.sections.length, wiki_link_count: links.length };
  return { status: 'indexed', record: { node, links }, facts, warnings };
}

/** `CMD-001 — IndexDocument` → `IndexDocument`: the id is already the node's id. */
function stripIdFromTitle(title: string | null, docId: string): string | null {
  if (!title) return null;
  const stripped = title.startsWith(docId) ? title.slice(docId.length).replace(/^[\s:—–-]+/, '') : title;
  return stripped || title;
}

function stringList(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(stringField).filter((item): item is string => item !== null);
  const single = stringField(value);
  return single ? [single] : [];
}

/**
 * Maps each heading to a field of the kind table. A sub-heading that names no field belongs to its
 * parent's field (`### Tabla de decisión` under `## Declaración` is part of the declaration).
 */
function readSections(spec: KindSpec, parsed: ParsedMarkdown) {
  const fieldOf: (string | null)[] = [];
  const grouped = new Map<string, Section[]>();
  const sections: NodeSection[] = [];
  const links: RawLink[] = [];
  const addLinks = (section: Section, field: string | null, heading: string | null) => {
    for (const link of section.links) links.push(rawLink(link, field, heading));
  };
  addLinks(parsed.preamble, null, null);
  if (parsed.preamble.text.trim()) sections.push({ heading: '', depth: 0, field: null, text: renderWikiLinks(parsed.preamble.text) });
  parsed.sections.forEach((section, index) => {
    const inherited = section.parent >= 0 ? (fieldOf[section.parent] ?? null) : null;
    const field = section.depth >= 2 ? (sectionFor(spec, section.heading)?.field ?? inherited) : null;
    fieldOf[index] = field;
    addLinks(section, field, section.heading);
    if (section.depth < 2) {
      // The title heading's own text (before the first `##`) is a description in some specs.
      if (section.text.trim()) sections.push({ heading: section.heading, depth: section.depth, field: null, text: renderWikiLinks(section.text) });
      return;
    }
    sections.push({ heading: section.heading, depth: section.depth, field, text: renderWikiLinks(section.text) });
    if (field) grouped.set(field, [...(grouped.get(field) ?? []), section]);
  });
  const fields: Record<string, unknown> = {};
  for (const sectionSpec of spec.sections) {
    const members = grouped.get(sectionSpec.field);
    if (members) fields[sectionSpec.field] = fieldValue(sectionSpec, members);
  }
  annotateRelationLinks(links, fields);
  return { fields, sections, links };
}

/**
 * Front-matter keys whose values name other documents. `related`/`supersedes` lists are authored
 * references (an unknown target is dangling); `source` is often free text (`source: PRD`), so it
 * only links when it resolves.
 */
export const LINK_KEYS: Readonly<Record<string, RawLink['origin']>> = {
  related: 'wiki',
  depends_on: 'wiki',
  supersedes: 'wiki',
  superseded_by: 'wiki',
  source: 'id',
  implements: 'id',
  validates: 'id',
};

function frontMatterLinks(data: Record<string, unknown>): RawLink[] {
  return Object.entries(LINK_KEYS).flatMap(([key, origin]) =>
    stringList(data[key]).map((value) => {
      const inner = /^\[\[(.*)\]\]$/.exec(value)?.[1] ?? value;
      return { ...rawLink(parseWikiLink(inner), null, `front-matter ${key}`), origin };
    }),
  );
}

function rawLink(link: WikiLink, field: string | null, section: string | null): RawLink {
  return { target: link.target, domain: link.domain, anchor: link.anchor, alias: link.alias, field, section, origin: 'wiki' };
}

/**
 * An entity's relations table names a business relation per row (`pertenece_a | N:1 | [[Usuario]]`):
 * attach it to the row's link so the graph stage can emit the business edge with its cardinality.
 */
function annotateRelationLinks(links: RawLink[], fields: Record<string, unknown>): void {
  const rows = fields.relations;
  if (!Array.isArray(rows)) return;
  for (const row of rows as Record<string, string>[]) {
    const target = /\[\[([^\]]+)\]\]/.exec(row.target ?? '')?.[1]?.replace(/\\\|/g, '|');
    if (!target || !row.relation) continue;
    const link = links.find((candidate) => candidate.field === 'relations' && !candidate.relation && rawTarget(candidate) === target);
    if (!link) continue;
    link.relation = businessRelationName(row.relation);
    if (row.cardinality) link.cardinality = row.cardinality;
  }
}

function rawTarget(link: RawLink): string {
  const domain = link.domain ? `${link.domain}::` : '';
  const anchor = link.anchor ? `#${link.anchor}` : '';
  const alias = link.alias ? `|${link.alias}` : '';
  return `${domain}${link.target ?? ''}${anchor}${alias}`;
}

/** Business relations are free lower-case names; spaces become underscores (`pertenece a` → `pertenece_a`). */
export function businessRelationName(relation: string): string {
  return relation.replace(/`/g, '').trim().toLowerCase().replace(/\s+/g, '_');
}
