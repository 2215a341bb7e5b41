import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonical, stableJson } from '../../formats/canonical.js';
import { nodeFilePath, nodeFileText, parseNodeFile } from '../../formats/index-dir/node-file.js';
import { extractDocument } from '../../compiler/kinds/extract.js';
import { hashBytes, readSpecs } from '../../compiler/read.js';
import type { GraphNode } from '../../model/graph.js';
import type { DocumentRecord, RawLink } from '../../model/records.js';

const same = (record: DocumentRecord) => JSON.stringify(canonical(record));
/** What an index of format 1 held for a record (kdd before index format 2). */
const format1Text = (record: DocumentRecord) => stableJson({ ...record.node, links: record.links });

function extract(path: string, text: string): DocumentRecord {
  const outcome = extractDocument({ path, text, hash: hashBytes(text) }, { indexedAt: null });
  if (outcome.status !== 'indexed') throw new Error(`${path} not indexed`);
  return outcome.record;
}

const ownSpecs = async () => (await readSpecs('specs')).files.flatMap((file) => {
  const outcome = extractDocument(file, { indexedAt: '2026-01-01T00:00:00Z' });
  return outcome.status === 'indexed' ? [outcome.record] : [];
});

describe('node files (index format 2)', () => {
  it('give back every record of the project specs exactly, and read format 1 into the same record', async () => {
    const records = await ownSpecs();
    expect(records.length).toBeGreaterThan(50);
    let derived = 0;
    for (const record of records) {
      const text = nodeFileText(record);
      expect(same(parseNodeFile(text))).toBe(same(record));
      expect(same(parseNodeFile(format1Text(record)))).toBe(same(record));
      derived += Object.keys(JSON.parse(text).derived_fields).length;
    }
    // The rules do replace written-out text: most fields of these specs are derived.
    expect(derived).toBeGreaterThan(records.length);
    const bytes = (texts: string[]) => texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0);
    expect(bytes(records.map(nodeFileText))).toBeLessThan(0.75 * bytes(records.map(format1Text)));
  });

  it('a format-1 file read back is written in format 2, not copied', () => {
    const record = extract('01-domain/entities/Pedido.md', '---\nid: Pedido\nkind: entity\n---\n# Pedido\n\n## Descripción\n\nUn pedido.\n');
    const read = parseNodeFile(format1Text(record));
    expect(nodeFileText(read)).toBe(nodeFileText(record));
    expect(nodeFileText(read)).not.toBe(format1Text(record));
  });

  it('a one-line spec edit changes two lines of the node file: the hash and the section', () => {
    const before = '---\nid: Pedido\nkind: entity\n---\n# Pedido\n\n## Descripción\n\nUn pedido de compra.\n\nLo crea un [[Usuario]].\n\n## Invariantes\n\n- El total es positivo.\n- Tiene un [[Usuario]].\n';
    const after = before.replace('Un pedido de compra.', 'Un pedido de compra online.');
    const a = nodeFileText(extract('01-domain/entities/Pedido.md', before)).split('\n');
    const b = nodeFileText(extract('01-domain/entities/Pedido.md', after)).split('\n');
    expect(a.length).toBe(b.length);
    const changed = b.filter((line, i) => line !== a[i]);
    expect(changed).toHaveLength(2);
    expect(changed[0]).toMatch(/^"source_hash":/);
    expect(changed[1]).toMatch(/^\[2,"description","Descripción","Un pedido de compra online\./);
    expect(JSON.parse(a.join('\n')).derived_fields).toEqual({ description: 'text', invariants: 'items' });
  });

  it('round-trips arbitrary records, whether or not a rule fits a field', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'B', ' ', '\n', '-', '"', '\\', 'ñ', '|', '😀') });
    const field = fc.constantFrom('description', 'invariants', 'rules', 'other');
    const section = fc.record({ heading: text, depth: fc.integer({ min: 0, max: 6 }), field: fc.option(field, { nil: null }), text });
    const link: fc.Arbitrary<RawLink> = fc.record(
      {
        target: fc.option(text, { nil: null }),
        domain: fc.option(text, { nil: null }),
        anchor: fc.option(text, { nil: null }),
        alias: fc.option(text, { nil: null }),
        field: fc.option(field, { nil: null }),
        section: fc.option(text, { nil: null }),
        origin: fc.constantFrom('wiki' as const, 'id' as const),
        relation: text,
        cardinality: text,
      },
      { requiredKeys: ['target', 'domain', 'anchor', 'alias', 'field', 'section', 'origin'] },
    );
    // Values a rule cannot give back (numbers, nested lists, a list holding a non-string) must stay written out.
    const odd = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.oneof(text, fc.integer(), fc.array(text, { maxLength: 2 })), { maxLength: 3 }));
    const value = fc.oneof(text, fc.array(text, { maxLength: 3 }), fc.array(fc.dictionary(fc.constantFrom('name', 'type'), text), { maxLength: 2 }), odd);
    const record = fc.record({ sections: fc.array(section, { maxLength: 4 }), fields: fc.dictionary(field, value, { maxKeys: 3 }), links: fc.array(link, { maxLength: 3 }), derive: fc.boolean() }).map(({ sections, fields, links, derive }): DocumentRecord => {
      const indexed: Record<string, unknown> = { ...fields };
      // Half the time the fields are what the extract stage makes of the sections, so the rules fit.
      if (derive) for (const name of new Set(sections.flatMap((s) => (s.field ? [s.field] : [])))) indexed[name] = sections.filter((s) => s.field === name).map((s) => s.text.trim()).filter(Boolean).join('\n\n');
      const node: GraphNode = { id: 'Entity:X', kind: 'entity', doc_id: 'X', title: 'X', source_file: 'x.md', source_hash: 'h', layer: '01-domain', status: 'draft', aliases: [], domain: null, indexed_fields: indexed, sections, tags: [], indexed_at: null };
      return { node, links };
    });
    fc.assert(
      fc.property(record, (r) => {
        const read = parseNodeFile(nodeFileText(r));
        expect(same(read)).toBe(same(r));
        expect(nodeFileText(read)).toBe(nodeFileText(r));
      }),
    );
  });

  it('rejects what is not a node file of either format, saying why', () => {
    const record = extract('01-domain/entities/Pedido.md', '---\nid: Pedido\nkind: entity\n---\n# Pedido\n\n## Descripción\n\nUn pedido.\n');
    const v2 = JSON.parse(nodeFileText(record)) as Record<string, unknown>;
    const v1 = JSON.parse(format1Text(record)) as Record<string, unknown>;
    const bad: [string, string, RegExp][] = [
      ['truncated', nodeFileText(record).slice(0, 200), /JSON/],
      ['an array', '[]', /not a JSON object/],
      ['format 1 with a derived_fields key', JSON.stringify({ ...v1, derived_fields: {} }), /format 2/],
      ['format 2 with section objects', JSON.stringify({ ...v2, sections: v1.sections }), /format 2/],
      ['an unknown rule', JSON.stringify({ ...v2, derived_fields: { description: 'guess' } }), /unknown rule/],
      ['a field both written and derived', JSON.stringify({ ...v2, indexed_fields: { description: 'x' } }), /both written and derived/],
      ['format 1 with format-2 sections', JSON.stringify({ ...v1, sections: v2.sections }), /format 1/],
      ['no source hash', JSON.stringify({ ...v2, source_hash: undefined }), /source_hash/],
    ];
    for (const [what, text, message] of bad) expect(() => parseNodeFile(text), what).toThrow(message);
  });

  it('names node files by kind, domain and document id', () => {
    const record = extract('domains/ventas/01-domain/entities/Pedido Especial.md', '---\nid: Pedido Especial\nkind: entity\n---\n# Pedido\n');
    expect(nodeFilePath(record)).toBe('nodes/entity/ventas/Pedido_Especial.json');
  });
});
