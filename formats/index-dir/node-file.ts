/**
 * Node files of `.kdd-index/` (`nodes/<kind>/[<domain>/]<id>.json`): one document's node and raw
 * links, the unit of git diffs and merges.
 *
 * Format 2 (index format 2.x, docs/decisions/index-dir-format.md) stores each piece of text once:
 * - one line per top-level key, one line per link and one per section, so a one-line spec edit
 *   changes one line of the node file (plus `source_hash`), and two branches that edit different
 *   documents never touch the same file;
 * - `sections` as `[depth, field, heading, text]`;
 * - an indexed field whose value a rule below rebuilds from its sections' text is not written out:
 *   `derived_fields` names the field and the rule. The writer applies the rule and keeps the
 *   reference only when it gives the value back exactly, so the file is lossless by construction;
 * - links without their null keys and without the default `origin` (`wiki`).
 *
 * Format 1 (index format 1.x: the whole node pretty-printed, text repeated in `sections` and
 * `indexed_fields`) is still read, so a `.kdd-index/` committed by an older kdd merges and rebuilds
 * (its files are rewritten in format 2 by the next build). The two are told apart by content: a
 * format-2 file always has `derived_fields`, a format-1 file never does, and each parser rejects the
 * other's shape, so neither is ever read as the other.
 */
import type { GraphNode, NodeSection } from '../../model/graph.js';
import type { DocumentRecord, RawLink } from '../../model/records.js';
import { canonical } from '../canonical.js';

/** Relative artifact path of a node file: `nodes/entity/Pedido.json`, domain nodes in a sub-folder. */
export function nodeFilePath(record: DocumentRecord): string {
  let path = nodePaths.get(record);
  if (path === undefined) {
    const { node } = record;
    const safe = (part: string) => part.replace(/[^\w.-]/g, '_');
    const domain = node.domain ? `${safe(node.domain)}/` : '';
    nodePaths.set(record, (path = `nodes/${node.kind}/${domain}${safe(node.doc_id)}.json`));
  }
  return path;
}

/** A build asks for the path of each of 10k records several times (write, check, stamp): computed once. */
const nodePaths = new WeakMap<DocumentRecord, string>();

/**
 * Node-file text of each record read back from a format-2 file: the text it was parsed from, so
 * writing that record again needs no stringifying.
 */
const nodeTexts = new WeakMap<DocumentRecord, string>();

/**
 * The node file's text for `record`, in the current format (2). A text made here is not kept: a
 * build writes each node file once, and keeping 10k texts alive until the build ends only raised
 * its peak memory.
 */
export function nodeFileText(record: DocumentRecord): string {
  return nodeTexts.get(record) ?? writeNodeFile(record);
}

function writeNodeFile({ node, links }: DocumentRecord): string {
  const { indexed_fields, sections, ...own } = node;
  const { literal, derived } = splitFields(indexed_fields, sections);
  const lines: string[] = [];
  for (const key of Object.keys(own).sort()) {
    const value = (own as Record<string, unknown>)[key];
    if (value !== undefined) lines.push(`${JSON.stringify(key)}:${json(value)}`);
  }
  lines.push(`"indexed_fields":${fieldLines(literal)}`, `"derived_fields":${json(derived)}`);
  lines.push(`"links":${listLines(links.map((link) => json(leanLink(link))))}`);
  lines.push(`"sections":${listLines(sections.map((s) => JSON.stringify([s.depth, s.field, s.heading, s.text])))}`);
  return `{${lines.join(',\n')}}\n`;
}

const json = (value: unknown) => JSON.stringify(canonical(value));
const listLines = (items: readonly string[]) => (items.length === 0 ? '[]' : `[\n${items.join(',\n')}]`);

/** One line per field; a table (a list of rows) one line per row, so an edited row is one changed line. */
function fieldLines(fields: Record<string, unknown>): string {
  const lines = Object.keys(fields)
    .sort()
    .map((field) => {
      const value = fields[field];
      const rows = Array.isArray(value) && value.length > 0 && value.every((row) => typeof row === 'object' && row !== null) ? listLines(value.map(json)) : json(value);
      return `${JSON.stringify(field)}:${rows}`;
    });
  return lines.length === 0 ? '{}' : `{\n${lines.join(',\n')}}`;
}

/**
 * How an indexed field is rebuilt from the text of the sections that carry it (`section.field`).
 * Each mirrors what the extract stage does for that shape (compiler/kinds/fields.ts); the writer
 * checks the result, so a rule that does not fit a value simply leaves that value written out.
 */
const RULES = {
  /** Text fields: the sections' texts, trimmed, empty ones dropped, blank line between. */
  text: (texts: readonly string[]): string =>
    texts
      .map((text) => text.trim())
      .filter(Boolean)
      .join('\n\n'),
  /** List fields: the `- item` lines of the sections (the extract stage writes items so). */
  items: (texts: readonly string[]): string[] =>
    texts.flatMap((text) => text.split('\n').flatMap((line) => /^\s*- (.*)$/.exec(line)?.[1]?.trim() || [])),
  /** List fields written as paragraphs: the blocks between blank lines. */
  paragraphs: (texts: readonly string[]): string[] =>
    texts.flatMap((text) => text.split(/\n{2,}/).flatMap((block) => block.trim() || [])),
} as const;

type Rule = keyof typeof RULES;
const RULE_NAMES = Object.keys(RULES) as Rule[];
const isRule = (name: unknown): name is Rule => typeof name === 'string' && Object.hasOwn(RULES, name);

function textsOf(sections: readonly NodeSection[], field: string): string[] {
  return sections.filter((section) => section.field === field).map((section) => section.text);
}

function splitFields(fields: Record<string, unknown>, sections: readonly NodeSection[]): { literal: Record<string, unknown>; derived: Record<string, Rule> } {
  const literal: Record<string, unknown> = {};
  const derived: Record<string, Rule> = {};
  for (const [field, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    const texts = textsOf(sections, field);
    const rule = texts.length > 0 ? RULE_NAMES.find((name) => sameJson(RULES[name](texts), value)) : undefined;
    if (rule) derived[field] = rule;
    else literal[field] = value;
  }
  return { literal, derived };
}

/**
 * Whether `value` has the JSON text of `rebuilt` (what a rule gives: a string or a list of strings),
 * without writing either out: JSON text is one-to-one on strings, and no other value (canonical,
 * so no `toJSON`) is written as a string, so equal strings, element by element, are equal texts.
 */
function sameJson(rebuilt: string | readonly string[], value: unknown): boolean {
  if (typeof rebuilt === 'string') return rebuilt === value;
  return Array.isArray(value) && value.length === rebuilt.length && rebuilt.every((item, i) => item === value[i]);
}

/** The keys a raw link always has, with the value format 2 leaves out. */
const LINK_DEFAULTS: Readonly<Record<string, unknown>> = { alias: null, anchor: null, domain: null, field: null, origin: 'wiki', section: null, target: null };

function leanLink(link: RawLink): Record<string, unknown> {
  const lean: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(link)) if (value !== undefined && !(Object.hasOwn(LINK_DEFAULTS, key) && LINK_DEFAULTS[key] === value)) lean[key] = value;
  return lean;
}

/**
 * A node file's text → its record, in whichever format it is written. Throws (with a message that
 * says what is wrong) when the text is not a node file; callers name the file (INDEX_CORRUPT /
 * INDEX_FILE_CORRUPT). A format-2 text is remembered as the record's text (rewrites and caches).
 */
export function parseNodeFile(text: string): DocumentRecord {
  const value: unknown = JSON.parse(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not a node file (not a JSON object)');
  const file = value as Record<string, unknown>;
  if (!('derived_fields' in file)) return readFormat1(file);
  const record = readFormat2(file);
  nodeTexts.set(record, text);
  return record;
}

function requireNodeKeys(node: Record<string, unknown>, format: number): void {
  if (typeof node.id !== 'string' || typeof node.source_file !== 'string' || typeof node.source_hash !== 'string') {
    throw new Error(`not a node file (format ${format}: id, source_file or source_hash missing)`);
  }
}

function readFormat1(file: Record<string, unknown>): DocumentRecord {
  const { links, ...node } = file;
  requireNodeKeys(node, 1);
  const sections = node.sections;
  if (!Array.isArray(links) || !Array.isArray(sections) || !sections.every(isSectionObject) || !isObject(node.indexed_fields)) {
    throw new Error('not a node file (format 1: links, sections or indexed_fields missing or malformed)');
  }
  return { node: node as unknown as GraphNode, links: links as RawLink[] };
}

function readFormat2(file: Record<string, unknown>): DocumentRecord {
  const { indexed_fields: literal, derived_fields: derived, links, sections, ...own } = file;
  requireNodeKeys(own, 2);
  if (!isObject(literal) || !isObject(derived) || !Array.isArray(links) || !links.every(isObject) || !Array.isArray(sections) || !sections.every(isSectionTuple)) {
    throw new Error('not a node file (format 2: indexed_fields, derived_fields, links or sections malformed)');
  }
  const nodeSections: NodeSection[] = sections.map(([depth, field, heading, text]) => ({ depth, field, heading, text }));
  const fields: Record<string, unknown> = { ...literal };
  for (const [field, rule] of Object.entries(derived)) {
    if (!isRule(rule)) throw new Error(`not a node file (format 2: unknown rule ${JSON.stringify(rule)} for field ${field})`);
    if (Object.hasOwn(literal, field)) throw new Error(`not a node file (format 2: field ${field} both written and derived)`);
    fields[field] = RULES[rule](textsOf(nodeSections, field));
  }
  // Keys in code-unit order and every link key present, as a format-1 file reads back.
  const node = canonical({ ...own, indexed_fields: fields, sections: nodeSections }) as unknown as GraphNode;
  return { node, links: links.map((link) => canonical({ ...LINK_DEFAULTS, ...link }) as unknown as RawLink) };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function isSectionObject(value: unknown): boolean {
  return isObject(value) && typeof value.heading === 'string' && typeof value.depth === 'number' && typeof value.text === 'string';
}

function isSectionTuple(value: unknown): value is [number, string | null, string, string] {
  return Array.isArray(value) && value.length === 4 && typeof value[0] === 'number' && (value[1] === null || typeof value[1] === 'string') && typeof value[2] === 'string' && typeof value[3] === 'string';
}
