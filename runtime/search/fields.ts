/**
 * Which text of a node goes into which search field, and how much each field weighs (BM25F).
 * `primary` holds the sections that state what the artefact is (description, purpose, declaration…);
 * `body` holds the rest. Ids and titles are short and decisive, so they weigh most.
 */
import type { GraphNode, NodeSection } from '../../model/graph.js';

export interface FieldSpec {
  name: string;
  /** BM25F weight of a term occurrence in this field. */
  weight: number;
  /** BM25 length normalisation for this field (0 = none, 1 = full). */
  b: number;
}

export const FIELDS: readonly FieldSpec[] = [
  { name: 'id', weight: 6, b: 0.2 },
  { name: 'title', weight: 4, b: 0.4 },
  { name: 'kind', weight: 0.5, b: 0 },
  { name: 'heading', weight: 1.2, b: 0.5 },
  { name: 'primary', weight: 1.6, b: 0.7 },
  { name: 'body', weight: 1, b: 0.75 },
];
export const FIELD_ID = 0;

/** Section fields that define the artefact (the kind table's `description`-like fields). */
export const PRIMARY_SECTIONS: ReadonlySet<string> = new Set([
  'description', 'purpose', 'declaration', 'problem', 'objective', 'context', 'decision', 'when_applies', 'behavior',
]);

export function baseName(path: string): string {
  const file = path.slice(path.lastIndexOf('/') + 1);
  const dot = file.lastIndexOf('.');
  return dot > 0 ? file.slice(0, dot) : file;
}

export const FIELD_HEADING = 3;
export const FIELD_PRIMARY = 4;
export const FIELD_BODY = 5;

/** The field a section's text goes to: primary or body. */
export function sectionField(section: NodeSection): number {
  return section.field && PRIMARY_SECTIONS.has(section.field) ? FIELD_PRIMARY : FIELD_BODY;
}

/** The texts of the fields that do not come from sections: id, title, kind. */
export function nameTexts(node: GraphNode): [id: string, title: string, kind: string] {
  return [[node.id, node.doc_id, baseName(node.source_file)].join(' '), [node.title, ...node.aliases].join(' \n '), node.kind];
}

/** The body of a node without sections: its indexed fields, flattened. */
export function unsectionedBody(node: GraphNode): string {
  return flatten(node.indexed_fields);
}

/**
 * The text of each field of a node, in FIELDS order. The heading field is the tags, then every
 * section heading. Parts are joined by whitespace, which no token spans, so a field's tokens are
 * its parts' tokens one after the other (what compiler/pack/node-pack.ts relies on).
 */
export function fieldTexts(node: GraphNode): string[] {
  const primary: string[] = [];
  const body: string[] = [];
  const headings: string[] = [...node.tags];
  for (const section of node.sections) {
    headings.push(section.heading);
    (sectionField(section) === FIELD_PRIMARY ? primary : body).push(section.text);
  }
  if (node.sections.length === 0) body.push(unsectionedBody(node));
  return [...nameTexts(node), headings.join(' \n '), primary.join(' \n '), body.join(' \n ')];
}

function flatten(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(flatten).join(' \n ');
  if (value && typeof value === 'object') return Object.keys(value).sort().map((k) => flatten((value as Record<string, unknown>)[k])).join(' \n ');
  return value === null || value === undefined ? '' : String(value);
}
