/**
 * Turns the sections that make up one field into its indexed value, by the shape the kind table
 * declares. Generic on purpose: the only kind-specific structure (state machines) is a shape.
 */
import { parseStateDiagram } from '../parse/mermaid.js';
import type { Section, Table } from '../parse/types.js';
import { renderWikiLinks } from '../parse/wiki-links.js';
import type { SectionSpec } from '../../model/kinds.js';
import { columnKey } from './vocabulary.js';

export function fieldValue(spec: SectionSpec, sections: readonly Section[]): unknown {
  switch (spec.shape) {
    case 'text':
      return joinText(sections);
    case 'list':
    case 'flow':
      return listOrParagraphs(sections);
    case 'table':
      return tableRows(sections) ?? joinText(sections);
    case 'state_machine':
      return stateMachine(sections);
  }
}

function joinText(sections: readonly Section[]): string {
  return sections
    .map((section) => renderWikiLinks(section.text).trim())
    .filter(Boolean)
    .join('\n\n');
}

function listOrParagraphs(sections: readonly Section[]): string[] {
  const items = sections.flatMap((section) => section.listItems);
  const source = items.length > 0 ? items : sections.flatMap((section) => section.paragraphs);
  // Tables inside list-shaped sections (a traceability matrix) contribute one line per row.
  const rows = items.length > 0 ? [] : sections.flatMap((section) => section.tables.flatMap((table) => table.rows.map((row) => row.join(' | '))));
  return [...source, ...rows].map((item) => renderWikiLinks(item).trim()).filter(Boolean);
}

/** Rows keyed by canonical column names; cells keep their wiki-links (`[[Usuario]]` is a type). */
function tableRows(sections: readonly Section[]): Record<string, string>[] | null {
  const tables: Table[] = sections.flatMap((section) => section.tables);
  if (tables.length === 0) return null;
  return tables.flatMap((table) => {
    const keys = table.headers.map(columnKey);
    return table.rows.map((row) => {
      const record: Record<string, string> = {};
      keys.forEach((key, column) => {
        record[key] = (row[column] ?? '').replace(/`/g, '').trim();
      });
      return record;
    });
  });
}

function stateMachine(sections: readonly Section[]) {
  for (const section of sections) {
    for (const block of section.code) {
      const diagram = parseStateDiagram(block.value);
      if (diagram) return diagram;
    }
  }
  return { states: [], transitions: [], text: joinText(sections) };
}
