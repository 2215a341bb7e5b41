/**
 * Differential tests: the hand-written scanner (production `parseMarkdown`) must give exactly what
 * the remark reference gives, on every real spec available and on random spec-like documents.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseFrontMatter } from '../../compiler/parse/front-matter.js';
import { parseMarkdown } from '../../compiler/parse/markdown.js';
import { parseMarkdownWithRemark } from '../helpers/markdown-remark.js';
import { scanMarkdown } from '../../compiler/parse/scan-markdown.js';

const PROJECT = join(import.meta.dirname, '../..');
const CORPORA = [
  join(PROJECT, '../shared/corpora/kdd-engine/specs'),
  join(PROJECT, 'test/fixtures'),
  join(PROJECT, 'specs'),
];

function listMarkdown(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return listMarkdown(path);
      return entry.name.endsWith('.md') ? [path] : [];
    })
    .sort();
}

/** The Markdown body as the build sees it; a file with broken front-matter is read whole. */
function bodyOf(path: string): string {
  const source = readFileSync(path, 'utf8');
  try {
    return parseFrontMatter(source).body;
  } catch {
    return source;
  }
}

describe('scanMarkdown matches remark on real specs', () => {
  for (const root of CORPORA) {
    it.skipIf(!existsSync(root))(`every .md under ${relative(PROJECT, root) || root}`, () => {
      const files = listMarkdown(root);
      for (const path of files) {
        const body = bodyOf(path);
        expect(scanMarkdown(body), relative(root, path)).toEqual(parseMarkdownWithRemark(body));
      }
    });
  }

  it('is the production parseMarkdown', () => {
    const body = '# T\n\nUna [[Cosa]].\n';
    expect(parseMarkdown(body)).toEqual(scanMarkdown(body));
  });
});

// Building blocks of spec-like documents. Deliberately absent (see scan-markdown.ts): footnotes,
// rare named entities, bare URLs with emphasis markers inside.
const word = fc.constantFrom(
  'pedido', 'Factura', 'línea', 'cancelación', 'Cliente', 'niño', 'Über', 'estado', 'order', 'the', 'data',
  'año', 'acción', 'ID', 'UC-001', 'BR-PEDIDO-002', 'snake_case', 'x2',
);
const name = fc.constantFrom('Pedido', 'Cliente', 'LineaFactura', 'EVT-Pedido-Creado', 'Órden', 'GraphNode');
const words = fc.array(word, { minLength: 1, maxLength: 4 }).map((list) => list.join(' '));

const wikiLink = fc.oneof(
  name.map((target) => `[[${target}]]`),
  fc.tuple(name, word).map(([target, alias]) => `[[${target}|${alias}]]`),
  fc.tuple(fc.constantFrom('core', 'ventas'), name).map(([domain, target]) => `[[${domain}::${target}]]`),
  fc.tuple(name, words).map(([target, anchor]) => `[[${target}#${anchor}]]`),
  words.map((anchor) => `[[#${anchor}]]`),
);

const inline = fc.oneof(
  { weight: 6, arbitrary: word },
  { weight: 3, arbitrary: wikiLink },
  { weight: 1, arbitrary: words.map((text) => `*${text}*`) },
  { weight: 1, arbitrary: words.map((text) => `**${text}**`) },
  { weight: 1, arbitrary: word.map((text) => `_${text}_`) },
  { weight: 1, arbitrary: words.map((text) => `~~${text}~~`) },
  { weight: 1, arbitrary: fc.oneof(words, wikiLink).map((text) => `\`${text}\``) },
  { weight: 1, arbitrary: fc.tuple(words, fc.constantFrom('https://example.com/a', './b.md', '#c')).map(([text, url]) => `[${text}](${url})`) },
  { weight: 1, arbitrary: words.map((alt) => `![${alt}](img.png)`) },
  { weight: 1, arbitrary: fc.constantFrom('&amp;', '&lt;x&gt;', '&quot;', '&nbsp;', '<b>negrita</b>', '<br>', '<!-- nota -->', '\\*', '\\_', '<https://kdd.dev>') },
  { weight: 1, arbitrary: fc.constantFrom('*', '_', '**', '~', '(', ')', ':', '.', ',', '¿', '?', '¡', '!', '-', '>', '#', '|') },
);

const separator = fc.constantFrom(' ', ' ', ' ', '', '. ', ', ', '\n', '  \n');
// No line starts with an HTML tag: after a list item, micromark's choice between a lazy paragraph
// line and an HTML block there follows internals not worth copying (specs do not write that).
const startsLine = (part: string) => (part.startsWith('<') ? `y ${part}` : part);
const line = fc
  .tuple(inline, fc.array(fc.tuple(separator, inline), { maxLength: 8 }))
  .map(([first, rest]) => startsLine(first) + rest.map(([sep, part]) => sep + (sep.includes('\n') ? startsLine(part) : part)).join(''));
const paragraph = fc.array(line, { minLength: 1, maxLength: 3 }).map((lines) => lines.join('\n'));

const heading = fc.tuple(fc.integer({ min: 1, max: 6 }), line.filter((text) => !text.includes('\n'))).map(
  ([depth, text]) => `${'#'.repeat(depth)} ${text}`,
);
const setextHeading = fc.tuple(words, fc.constantFrom('===', '---')).map(([text, underline]) => `${text}\n${underline}`);

const itemText = line.filter((text) => !text.includes('\n'));
const bulletItem = fc.tuple(
  itemText,
  fc.option(fc.array(itemText, { minLength: 1, maxLength: 3 }), { freq: 3 }),
);
const list = fc
  .tuple(fc.constantFrom('-', '*', '1.'), fc.array(bulletItem, { minLength: 1, maxLength: 4 }), fc.constantFrom('-', '1.'))
  .map(([marker, items, nestedMarker]) => {
    const indent = ' '.repeat(marker.length + 1);
    return items
      .map(([text, nested], index) => {
        const own = `${marker === '1.' ? `${index + 1}.` : marker} ${text}`;
        const children = (nested ?? []).map((child, n) => `${indent}${nestedMarker === '1.' ? `${n + 1}.` : '-'} ${child}`);
        return [own, ...children].join('\n');
      })
      .join('\n');
  });

const cell = fc.oneof(
  words,
  wikiLink,
  fc.tuple(name, word).map(([target, alias]) => `[[${target}\\|${alias}]]`),
  words.map((text) => `\`${text}\``),
  fc.constantFrom('a \\| b', '`x \\| y`', 'uno<br>dos', '', '**Sí**'),
);
const table = fc.tuple(fc.integer({ min: 1, max: 4 }), fc.nat({ max: 4 }), fc.boolean()).chain(([columns, rows, outer]) =>
  fc.array(fc.array(cell, { minLength: columns, maxLength: columns }), { minLength: rows + 1, maxLength: rows + 1 }).map((cells) => {
    const row = (values: readonly string[]) => (outer || columns === 1 ? `| ${values.join(' | ')} |` : values.join(' | '));
    const [head, ...body] = cells;
    return [row(head!), row(head!.map(() => '---')), ...body.map(row)].join('\n');
  }),
);

const code = fc.oneof(
  fc.constant('```mermaid\nstateDiagram-v2\n    [*] --> creado\n    creado --> [[Pedido]] : paga\n```'),
  fc.tuple(fc.constantFrom('```', '~~~', '````'), fc.constantFrom('', 'yaml', 'ts title="x"', 'md'), paragraph).map(
    ([fence, info, body]) => `${fence}${info}\n${body}\n${fence}`,
  ),
  paragraph.filter((text) => !text.includes('  \n')).map((text) => text.split('\n').map((row) => `    ${row}`).join('\n')),
);

// A blank line always follows a quote: micromark reads an indented code block right after one
// (no blank line between) in ways that depend on the quote's last line; specs never do that.
const quote = paragraph.map((text) => `${text.split('\n').map((row) => `> ${row}`).join('\n')}\n`);
const block = fc.oneof(
  { weight: 4, arbitrary: paragraph },
  { weight: 3, arbitrary: heading },
  { weight: 1, arbitrary: setextHeading },
  { weight: 2, arbitrary: list },
  { weight: 2, arbitrary: table },
  { weight: 1, arbitrary: code },
  { weight: 1, arbitrary: quote },
  { weight: 1, arbitrary: fc.constantFrom('---', '***', '<!-- comentario -->', '<div>\nbloque [[Pedido]]\n</div>') },
);
const document = fc
  .array(fc.tuple(block, fc.constantFrom('\n\n', '\n\n', '\n\n', '\n')), { maxLength: 12 })
  .map((blocks) => blocks.map(([text, gap]) => text + gap).join(''));

describe('scanMarkdown matches remark on generated spec-like documents', () => {
  it('gives the same ParsedMarkdown', () => {
    fc.assert(
      fc.property(document, (body) => {
        expect(scanMarkdown(body)).toEqual(parseMarkdownWithRemark(body));
      }),
      { numRuns: 400 },
    );
  });
});
