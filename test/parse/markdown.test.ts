import { describe, expect, it } from 'vitest';
import { parseMarkdown } from '../../compiler/parse/index.js';
import type { Section } from '../../compiler/parse/index.js';

const ENTITY = `Nota previa con [[Glosario]].

# Factura <!-- revisar -->

## Descripción

Una **Factura** agrupa las \`líneas\` de un [[Pedido|pedido]] cobrado.
Pertenece a un [[ventas::Cliente]].

> Ver también [[Factura#Estados]].

## Atributos

| Atributo | Tipo | Descripción |
|----------|------|-------------|
| \`numero\` | string | Número correlativo |
| pedido | ref | El [[Pedido|pedido]] facturado |
| lineas | list | Las [[LineaFactura\\|líneas]] |

### Notas

- Inmutable tras emitirse
  - salvo [[BR-FACTURA-002]]
- Se numera por serie

## Estados

\`\`\`mermaid
stateDiagram-v2
    [*] --> emitida
\`\`\`

# Anexo

Texto del anexo.
`;

function section(sections: readonly Section[], heading: string): Section {
  const found = sections.find((candidate) => candidate.heading === heading);
  if (!found) throw new Error(`no section ${heading}`);
  return found;
}

describe('parseMarkdown', () => {
  const parsed = parseMarkdown(ENTITY);

  it('lists one section per heading with depth and parent index', () => {
    expect(parsed.sections.map(({ heading, depth, parent }) => [heading, depth, parent])).toEqual([
      ['Factura', 1, -1],
      ['Descripción', 2, 0],
      ['Atributos', 2, 0],
      ['Notas', 3, 2],
      ['Estados', 2, 0],
      ['Anexo', 1, -1],
    ]);
  });

  it('takes the title from the first depth-1 heading, HTML comments removed', () => {
    expect(parsed.title).toBe('Factura');
  });

  it('keeps content before the first heading as the preamble', () => {
    expect(parsed.preamble).toMatchObject({ heading: '', depth: 0, parent: -1, text: 'Nota previa con [[Glosario]].' });
    expect(parsed.preamble.links.map((link) => link.target)).toEqual(['Glosario']);
  });

  it('reduces paragraphs to plain text, keeping wiki-links as written', () => {
    const description = section(parsed.sections, 'Descripción');
    expect(description.paragraphs).toEqual([
      'Una Factura agrupa las líneas de un [[Pedido|pedido]] cobrado. Pertenece a un [[ventas::Cliente]].',
      'Ver también [[Factura#Estados]].',
    ]);
    expect(description.links.map((link) => [link.domain, link.target, link.anchor, link.alias])).toEqual([
      [null, 'Pedido', null, 'pedido'],
      ['ventas', 'Cliente', null, null],
      [null, 'Factura', 'Estados', null],
    ]);
  });

  it('gives a section only its own content, not its subsections', () => {
    const attributes = section(parsed.sections, 'Atributos');
    expect(attributes.listItems).toEqual([]);
    expect(section(parsed.sections, 'Notas').tables).toEqual([]);
  });

  it('reads tables whose cells hold aliased wiki-links, escaped or not', () => {
    const attributes = section(parsed.sections, 'Atributos');
    expect(attributes.tables).toEqual([
      {
        headers: ['Atributo', 'Tipo', 'Descripción'],
        rows: [
          ['numero', 'string', 'Número correlativo'],
          ['pedido', 'ref', 'El [[Pedido|pedido]] facturado'],
          ['lineas', 'list', 'Las [[LineaFactura|líneas]]'],
        ],
      },
    ]);
    expect(attributes.links.map((link) => [link.target, link.alias])).toEqual([
      ['Pedido', 'pedido'],
      ['LineaFactura', 'líneas'],
    ]);
    expect(attributes.text.split('\n')[0]).toBe('Atributo | Tipo | Descripción');
    expect(attributes.text).toContain('pedido | ref | El [[Pedido|pedido]] facturado');
  });

  it('flattens nested list items in document order', () => {
    const notes = section(parsed.sections, 'Notas');
    expect(notes.listItems).toEqual(['Inmutable tras emitirse', 'salvo [[BR-FACTURA-002]]', 'Se numera por serie']);
    expect(notes.text).toBe('- Inmutable tras emitirse\n  - salvo [[BR-FACTURA-002]]\n- Se numera por serie');
    expect(notes.links.map((link) => link.target)).toEqual(['BR-FACTURA-002']);
  });

  it('keeps code blocks verbatim with their language, in code and in text', () => {
    const states = section(parsed.sections, 'Estados');
    expect(states.code).toEqual([{ lang: 'mermaid', value: 'stateDiagram-v2\n    [*] --> emitida' }]);
    expect(states.text).toBe('stateDiagram-v2\n    [*] --> emitida');
  });

  it('does not count wiki-links shown inside code as links', () => {
    const { sections } = parseMarkdown('## Sintaxis\n\nEscribe `[[Destino|alias]]`.\n\n```md\nver [[Otro]]\n```\n');
    expect(sections[0]!.paragraphs).toEqual(['Escribe [[Destino|alias]].']);
    expect(sections[0]!.code[0]!.value).toBe('ver [[Otro]]');
    expect(sections[0]!.links).toEqual([]);
  });

  it('keeps a wiki-link intact even when a link definition matches its inner brackets', () => {
    const { sections } = parseMarkdown('## Uses\n\nSee [[Order]].\n\n[Order]: https://example.com\n');
    expect(sections[0]!.paragraphs).toEqual(['See [[Order]].']);
    expect(sections[0]!.links.map((link) => link.target)).toEqual(['Order']);
  });

  it('strips emphasis, link syntax and HTML but keeps the words', () => {
    const { preamble } = parseMarkdown('*Read* the [guide](https://example.com) and ~~not~~ <b>this</b> ![diagram](d.png)');
    expect(preamble.paragraphs).toEqual(['Read the guide and not this diagram']);
  });

  it('handles English headings, ordered lists and setext headings alike', () => {
    const { title, sections } = parseMarkdown('Order\n=====\n\nSteps\n-----\n\n1. Validate [[Cart]]\n2. Charge `card`\n');
    expect(title).toBe('Order');
    expect(sections[1]).toMatchObject({ heading: 'Steps', depth: 2, parent: 0, listItems: ['Validate [[Cart]]', 'Charge card'] });
  });

  it('counts links written in a heading as links of its section', () => {
    const { sections } = parseMarkdown('## Relación con [[Cliente]]\n\nTexto.\n');
    expect(sections[0]!.heading).toBe('Relación con [[Cliente]]');
    expect(sections[0]!.links.map((link) => link.target)).toEqual(['Cliente']);
  });

  it('reads <br> inside a table cell as a word break', () => {
    const { preamble } = parseMarkdown('| a | b |\n|---|---|\n| uno<br>dos | tres |\n');
    expect(preamble.tables[0]!.rows).toEqual([['uno dos', 'tres']]);
  });

  it('deduplicates repeated links within a section', () => {
    const { sections } = parseMarkdown('## A\n\n[[X]] and [[X]] and [[ X ]] and [[X|x]]\n');
    expect(sections[0]!.links.map((link) => link.raw)).toEqual(['X', 'X|x']);
  });

  it('returns an empty structure for an empty body', () => {
    expect(parseMarkdown('')).toEqual({
      title: null,
      preamble: { heading: '', depth: 0, parent: -1, text: '', paragraphs: [], listItems: [], tables: [], code: [], links: [] },
      sections: [],
    });
  });
});
