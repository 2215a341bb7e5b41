/**
 * Runs every parser over a real KDD corpus (Spanish specs, 54 files). The corpus is shared
 * read-only material that may be absent on other machines, so the test skips without it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseFrontMatter, parseGherkin, parseMarkdown, parseStateDiagram } from '../../compiler/parse/index.js';
import { KDD_ENGINE_SPECS } from '../helpers/temp-tree.js';

const ROOT = KDD_ENGINE_SPECS;
const available = existsSync(ROOT);
if (!available) console.warn(`[parse corpus] ${ROOT} not found: corpus test skipped`);

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? listFiles(join(dir, entry.name)) : [join(dir, entry.name)]))
    .filter((path) => path.endsWith('.md') || path.endsWith('.feature'))
    .sort();
}

describe('parse stage on the kdd-engine corpus', () => {
  it.skipIf(!available)('parses every spec without throwing', () => {
    const files = listFiles(ROOT);
    expect(files.length).toBeGreaterThanOrEqual(54);
    for (const path of files) {
      const text = readFileSync(path, 'utf8');
      const name = relative(ROOT, path);
      if (path.endsWith('.feature')) {
        const feature = parseGherkin(text);
        expect(feature.scenarios.length, name).toBeGreaterThan(0);
      } else {
        const { data, body } = parseFrontMatter(text);
        expect(data, name).not.toBeNull();
        const parsed = parseMarkdown(body);
        expect(parsed.sections.length, name).toBeGreaterThan(0);
      }
    }
  });

  it.skipIf(!available)('reads the KDDDocument entity: attribute table, relations and life cycle', () => {
    const { data, body } = parseFrontMatter(readFileSync(join(ROOT, '01-domain/entities/KDDDocument.md'), 'utf8'));
    expect(data).toMatchObject({ kind: 'entity' });
    const parsed = parseMarkdown(body);
    expect(parsed.title).toBe('KDDDocument');

    const attributes = parsed.sections.find((section) => section.heading === 'Atributos')!;
    expect(attributes.tables[0]!.headers).toEqual(['Atributo', 'Tipo', 'Requerido', 'Descripción']);
    expect(attributes.tables[0]!.rows.map((row) => row[0])).toContain('source_hash');

    const description = parsed.sections.find((section) => section.heading === 'Descripción')!;
    expect(description.links.map((link) => link.target)).toContain('BR-DOCUMENT-001');
    expect(description.links).toContainEqual({ raw: 'GraphEdge|edges', target: 'GraphEdge', domain: null, anchor: null, alias: 'edges' });

    const diagrams = parsed.sections.flatMap((section) => section.code).map((block) => parseStateDiagram(block.value)).filter(Boolean);
    expect(diagrams).toHaveLength(1);
    expect(diagrams[0]!.states).toEqual(expect.arrayContaining(['detected', 'parsing', 'indexed', 'stale']));
    expect(diagrams[0]!.transitions).toContainEqual(expect.objectContaining({ from: '[*]', to: 'detected' }));
  });

  it.skipIf(!available)('keeps aliased wiki-links whole inside table cells', () => {
    const { body } = parseFrontMatter(readFileSync(join(ROOT, '01-domain/rules/BR-INDEX-001.md'), 'utf8'));
    const cells = parseMarkdown(body).sections.flatMap((section) => section.tables.flatMap((table) => table.rows.flat()));
    expect(cells.some((cell) => cell.includes('[[GraphEdge|edges]]'))).toBe(true);
  });

  it.skipIf(!available)('reads the Spanish features with scenario ids and no doc-string links', () => {
    const feature = parseGherkin(readFileSync(join(ROOT, '04-verification/examples/index-entity.feature'), 'utf8'));
    expect(feature.language).toBe('es');
    expect(feature.scenarios[0]!.id).toBe('SCN-IndexEntity-001');
    expect(feature.scenarios[0]!.steps[0]!.docString).toContain('[[Usuario]]');
    expect(feature.scenarios[0]!.links.map((link) => link.target)).not.toContain('Usuario');
  });
});
