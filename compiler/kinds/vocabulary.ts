/**
 * Text normalisation for matching headings and table headers written in Spanish or English,
 * with or without accents, numbering or annotations (`## Main Flow (Happy Path)`, `## 1. Scope`).
 */
import type { KindSpec, SectionSpec } from '../../model/kinds.js';

export function foldText(text: string): string {
  return text.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase();
}

export function normalizeHeading(heading: string): string {
  return foldText(heading)
    .replace(/<!--.*?-->/g, ' ')
    .replace(/^\s*\d+(\.\d+)*[.)]?\s+/, '') // leading numbering
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** A heading with its parenthetical removed also matches: `Parameters (BP only)` → `parameters`. */
function headingKeys(heading: string): string[] {
  const full = normalizeHeading(heading);
  const bare = normalizeHeading(heading.replace(/\(.*?\)/g, ' '));
  return full === bare ? [full] : [full, bare];
}

const sectionLookups = new WeakMap<KindSpec, Map<string, SectionSpec>>();

/** The kind's section spec for a heading, or undefined when the heading is not a known field. */
export function sectionFor(spec: KindSpec, heading: string): SectionSpec | undefined {
  let lookup = sectionLookups.get(spec);
  if (!lookup) {
    lookup = new Map();
    for (const section of spec.sections) {
      for (const alias of section.headings) {
        for (const key of headingKeys(alias)) if (!lookup.has(key)) lookup.set(key, section);
      }
    }
    sectionLookups.set(spec, lookup);
  }
  for (const key of headingKeys(heading)) {
    const found = lookup.get(key);
    if (found) return found;
  }
  return undefined;
}

/** Table header → canonical column key, in both languages. Unknown headers become snake_case. */
const TABLE_COLUMNS: Record<string, string> = {
  atributo: 'name', attribute: 'name', campo: 'name', field: 'name', nombre: 'name', name: 'name',
  parametro: 'name', parameter: 'name', param: 'name', termino: 'name', term: 'name',
  tipo: 'type', type: 'type',
  descripcion: 'description', description: 'description', definicion: 'description', definition: 'description',
  requerido: 'required', required: 'required', obligatorio: 'required',
  validacion: 'validation', validation: 'validation',
  relacion: 'relation', relation: 'relation', relationship: 'relation',
  cardinalidad: 'cardinality', cardinality: 'cardinality',
  destino: 'target', target: 'target', entidad: 'target', entity: 'target',
  codigo: 'code', code: 'code', error: 'code',
  condicion: 'condition', condition: 'condition',
  mensaje: 'message', message: 'message',
  transicion: 'transition', transition: 'transition', evento: 'event', event: 'event',
  valor: 'value', value: 'value', default: 'default', 'valor por defecto': 'default',
};

export function columnKey(header: string): string {
  const normalized = normalizeHeading(header);
  return TABLE_COLUMNS[normalized] ?? normalized.replace(/ /g, '_');
}
