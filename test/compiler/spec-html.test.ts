/** Specs rendered to HTML for the site (#18): Markdown and Gherkin, wiki-links, and untrusted input. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderFeature, renderFrontMatter, renderMarkdown, sectionSlug, type RenderContext } from '../../compiler/render/spec-html.js';

const known: Record<string, string> = { Pedido: 'Entity:Pedido', 'UC-001': 'UC:UC-001', Usuario: 'core:Entity:Usuario' };
const context: RenderContext = {
  nodeId: 'Entity:Pedido',
  title: 'Pedido',
  resolve: (target, domain) => (domain === 'core' && target === 'Usuario' ? 'core:Entity:Usuario' : domain ? null : (known[target] ?? null)),
};
const md = (source: string) => renderMarkdown(source, context).html;

/** What a browser would run in `html`: forbidden elements, event-handler attributes, script URLs. */
function unsafeParts(html: string): string[] {
  const found: string[] = [];
  for (const [tag] of html.matchAll(/<[a-zA-Z][^>]*>/g)) {
    const name = /^<([a-zA-Z0-9]+)/.exec(tag)![1]!.toLowerCase();
    if (['script', 'svg', 'iframe', 'object', 'embed', 'style', 'math'].includes(name)) found.push(tag);
    for (const [, attr, value] of tag.matchAll(/\s([^\s=>"]+)(?:="([^"]*)")?/g)) {
      if (/^on/i.test(attr!)) found.push(tag);
      if (/^(href|src)$/i.test(attr!) && /^\s*(javascript|vbscript|data):/i.test(value ?? '')) found.push(tag);
    }
  }
  return found;
}

describe('renderMarkdown', () => {
  it('keeps the structure the author wrote', () => {
    const html = md(['# Pedido', '', '## Descripción', '', 'Texto **fuerte** y *suave* con `code`.', '', '1. uno', '2. dos', '', '- a', '- b', '', '> cita', '', '| A | B |', '|---|---|', '| 1 | 2 |', '', '```ts', 'const x = 1;', '```'].join('\n'));
    expect(html).not.toContain('<h1');
    expect(html).toContain('<h2 id="s-descripcion">Descripción</h2>');
    expect(html).toContain('<strong>fuerte</strong>');
    expect(html).toContain('<em>suave</em>');
    expect(html).toContain('<code>code</code>');
    expect(html).toMatch(/<ol>\s*<li>uno<\/li>\s*<li>dos<\/li>\s*<\/ol>/);
    expect(html).toMatch(/<ul>\s*<li>a<\/li>/);
    expect(html).toContain('<blockquote>');
    expect(html).toMatch(/<table>[\s\S]*<th>A<\/th>[\s\S]*<td>2<\/td>/);
    expect(html).toContain('<pre><code class="language-ts">const x = 1;');
  });

  it('keeps a document title that says more than the node title as a subtitle, and numbers repeated headings', () => {
    const html = md('# Pedido — PED-1\n\n## Notas\n\n## Notas\n');
    expect(html).toContain('<p class="doc-title">Pedido — PED-1</p>');
    expect(html).not.toContain('<h1');
    expect(html).toContain('id="s-notas"');
    expect(html).toContain('id="s-notas-1"');
  });

  it('turns every form of wiki-link into a link to the node the compiler resolves', () => {
    const html = md('Ver [[UC-001]], [[Pedido|el pedido]], [[UC-001#Flujo Principal]], [[core::Usuario]] y [[#Atributos]].');
    expect(html).toContain('<a class="wiki" href="#/node/UC%3AUC-001" data-node="UC:UC-001">UC-001</a>');
    expect(html).toContain('<a class="wiki" href="#/node/Entity%3APedido" data-node="Entity:Pedido">el pedido</a>');
    expect(html).toContain('href="#/node/UC%3AUC-001?section=flujo-principal"');
    expect(html).toContain('href="#/node/core%3AEntity%3AUsuario"');
    expect(html).toContain('<a class="wiki" href="#/node/Entity%3APedido?section=atributos">Atributos</a>');
  });

  it('marks a link that resolves to nothing as dangling, without a link', () => {
    const html = md('Ver [[Fantasma|el fantasma]].');
    expect(html).toContain('<span class="wiki dangling" title="Dangling link: nothing is called Fantasma">el fantasma</span>');
    expect(html).not.toContain('<a');
  });

  it('reads a wiki-link with an escaped bar inside a table cell, and leaves code alone', () => {
    const html = md('| Destino |\n|---|\n| [[Pedido\\|el pedido]] |\n\n`[[Pedido]]`');
    expect(html).toContain('>el pedido</a></td>');
    expect(html).toContain('<code>[[Pedido]]</code>');
  });

  it('leaves Mermaid source for the browser and counts the diagrams', () => {
    const result = renderMarkdown('```mermaid\nstateDiagram-v2\n  a --> b : <x>\n```\n', context);
    expect(result.diagrams).toBe(1);
    expect(result.html).toBe('<pre class="mermaid">stateDiagram-v2\n  a --&gt; b : &lt;x&gt;\n</pre>\n');
  });

  it('never writes a script, an event handler or a javascript: URL', () => {
    const html = md(
      [
        '<script>alert(1)</script>',
        '<img src=x onerror="alert(1)">',
        '[click](javascript:alert(1)) [data](data:text/html;base64,PHNjcmlwdD4=) ![i](javascript:alert(1))',
        '[[x" onmouseover="alert(1)|y]] [[Pedido|<b onclick=alert(1)>]]',
        '<a href="javascript:alert(1)">raw</a>',
      ].join('\n\n'),
    );
    expect(unsafeParts(html)).toEqual([]);
    expect(html).toContain('&lt;script&gt;');
    expect(unsafeParts('<p><img src=x onerror="a"> <a href="javascript:x">')).toHaveLength(2);
  });

  it('escapes whatever the author writes (property)', () => {
    const pieces = fc.constantFrom('<script>', '</script>', '<img src=x onerror=alert(1)>', 'javascript:alert(1)', '[a](javascript:x)', '[[', ']]', '|', '"', "'", '\n', '\n\n', '# ', '- ', '`', '*', '<svg onload=x>', '[[Pedido|', 'UC-001');
    fc.assert(
      fc.property(fc.array(fc.oneof(pieces, fc.string()), { maxLength: 30 }), (parts) => {
        expect(unsafeParts(md(parts.join('')))).toEqual([]);
      }),
      { seed: 18, numRuns: 300 },
    );
  });

  it('folds accents and punctuation in section anchors', () => {
    expect(sectionSlug('Flujo Principal (Happy Path)')).toBe('flujo-principal-happy-path');
    expect(sectionSlug('Descripción')).toBe('descripcion');
    expect(sectionSlug('¿?')).toBe('section');
  });
});

describe('renderFrontMatter', () => {
  it('keeps keys in order, joins lists, and links the keys the compiler links', () => {
    const front = renderFrontMatter({ kind: 'entity', aliases: ['Orden', '<b>'], related: ['UC-001', '[[Fantasma]]'], source: 'PRD', implements: 'UC-001' }, context);
    expect(front.map(([key]) => key)).toEqual(['kind', 'aliases', 'related', 'source', 'implements']);
    expect(front[1]![1]).toBe('Orden, &lt;b&gt;');
    expect(front[2]![1]).toContain('<a class="wiki" href="#/node/UC%3AUC-001"');
    expect(front[2]![1]).toContain('<span class="wiki dangling"');
    expect(front[3]![1]).toBe('PRD');
    expect(front[4]![1]).toContain('href="#/node/UC%3AUC-001"');
  });
});

describe('renderFeature', () => {
  const feature = [
    '# language: es',
    '@smoke',
    'Característica: Crear pedido',
    '  Como [[Usuario]] quiero pedir',
    '',
    '  Antecedentes:',
    '    Dado un catálogo',
    '',
    '  @UC-001',
    '  Escenario: SCN-001 — Pedido válido',
    '    Dado un <b>carrito</b> con [[Pedido]]',
    '    Cuando confirmo',
    '      | producto | cantidad |',
    '      | A        | 2        |',
    '    Entonces se crea el pedido',
  ].join('\n');

  it('draws the feature, background and scenarios with their steps', () => {
    const { html } = renderFeature(feature, context);
    expect(html).toContain('<span class="keyword">Característica:</span> Crear pedido');
    expect(html).toContain('<code>@smoke</code>');
    expect(html).toContain('<span class="keyword">Antecedentes:</span>');
    expect(html).toContain('<h3 id="s-scn-001"><span class="keyword">Escenario:</span> SCN-001 — Pedido válido</h3>');
    expect(html.match(/<li><span class="keyword">/g)).toHaveLength(4);
    expect(html).toContain('<span class="keyword">Entonces</span> se crea el pedido');
    expect(html).toMatch(/<table><thead><tr><th>producto<\/th><th>cantidad<\/th><\/tr><\/thead><tbody><tr><td>A<\/td><td>2<\/td><\/tr><\/tbody><\/table>/);
    expect(html).toContain('<a class="wiki" href="#/node/Entity%3APedido" data-node="Entity:Pedido">Pedido</a>');
    expect(html).toContain('un &lt;b&gt;carrito&lt;/b&gt;');
  });
});
