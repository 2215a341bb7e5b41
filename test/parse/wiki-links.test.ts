import { describe, expect, it } from 'vitest';
import { findIdReferences, findWikiLinks, parseWikiLink, renderWikiLinks } from '../../compiler/parse/index.js';

const link = (raw: string, parts: Partial<{ target: string | null; domain: string | null; anchor: string | null; alias: string | null }>) => ({
  raw,
  target: null,
  domain: null,
  anchor: null,
  alias: null,
  ...parts,
});

describe('parseWikiLink', () => {
  it.each([
    ['Pedido', link('Pedido', { target: 'Pedido' })],
    ['Pedido|pedidos', link('Pedido|pedidos', { target: 'Pedido', alias: 'pedidos' })],
    ['#Flujo principal', link('#Flujo principal', { anchor: 'Flujo principal' })],
    ['Pedido#Estados', link('Pedido#Estados', { target: 'Pedido', anchor: 'Estados' })],
    ['ventas::Cliente', link('ventas::Cliente', { target: 'Cliente', domain: 'ventas' })],
    ['ventas::Cliente#Atributos|el cliente', link('ventas::Cliente#Atributos|el cliente', { target: 'Cliente', domain: 'ventas', anchor: 'Atributos', alias: 'el cliente' })],
    ['Factura\\|facturas', link('Factura\\|facturas', { target: 'Factura', alias: 'facturas' })],
  ])('reads [[%s]]', (inner, expected) => {
    expect(parseWikiLink(inner)).toEqual(expected);
  });

  it('trims every part but keeps raw verbatim', () => {
    expect(parseWikiLink('  billing :: Invoice # Lines | the lines ')).toEqual(
      link('  billing :: Invoice # Lines | the lines ', { target: 'Invoice', domain: 'billing', anchor: 'Lines', alias: 'the lines' }),
    );
  });
});

describe('findWikiLinks', () => {
  it('finds every form in order of appearance', () => {
    const text = 'Un [[Pedido]] de un [[ventas::Cliente|cliente]], ver [[#Reglas]] y [[Factura#Totales]].';
    expect(findWikiLinks(text).map((found) => [found.domain, found.target, found.anchor, found.alias])).toEqual([
      [null, 'Pedido', null, null],
      ['ventas', 'Cliente', null, 'cliente'],
      [null, null, 'Reglas', null],
      [null, 'Factura', 'Totales', null],
    ]);
  });

  it('ignores empty links and links that name nothing', () => {
    expect(findWikiLinks('a [[]] b [[   ]] c [[|alias]] d')).toEqual([]);
  });

  it('takes the innermost link from extra brackets and does not span lines', () => {
    expect(findWikiLinks('[[[Pedido]]]').map((found) => found.target)).toEqual(['Pedido']);
    expect(findWikiLinks('[[Pedi\ndo]]')).toEqual([]);
  });

  it('does not treat Markdown-escaped brackets as a link', () => {
    expect(findWikiLinks(String.raw`\[\[Pedido]]`)).toEqual([]);
  });
});

describe('renderWikiLinks', () => {
  it('shows the alias, else the target, else the anchor', () => {
    expect(renderWikiLinks('[[Order|orders]] of a [[sales::Customer]] (see [[#Rules]], [[Invoice#Totals]])')).toBe(
      'orders of a Customer (see Rules, Invoice)',
    );
  });

  it('leaves empty brackets and plain text alone', () => {
    expect(renderWikiLinks('list[[]] and [x]')).toBe('list[[]] and [x]');
  });
});

describe('findIdReferences', () => {
  it('finds each kind of KDD id', () => {
    const text =
      'UC-001 runs CMD-004 and QRY-002, checked by BR-DOCUMENT-001 and BR-007, emits EVT-Pedido-Creado; ' +
      'REQ-001 is covered by SCN-IndexEntity-001.';
    expect(findIdReferences(text)).toEqual([
      'UC-001',
      'CMD-004',
      'QRY-002',
      'BR-DOCUMENT-001',
      'BR-007',
      'EVT-Pedido-Creado',
      'REQ-001',
      'SCN-IndexEntity-001',
    ]);
  });

  it('stops numbered ids at their number and keeps accents in names', () => {
    expect(findIdReferences('see CMD-004-MergeIndex and EVT-Pedido-Cancelación.')).toEqual(['CMD-004', 'EVT-Pedido-Cancelación']);
  });

  it('respects word boundaries around ids', () => {
    expect(findIdReferences('XUC-001 UC-001_x uc-001 MYEVT-Foo')).toEqual([]);
    expect(findIdReferences('@UC-001 (BR-INDEX-001) [[QRY-003]]')).toEqual(['UC-001', 'BR-INDEX-001', 'QRY-003']);
  });

  it('deduplicates, keeping the order of first appearance', () => {
    expect(findIdReferences('UC-002, UC-001, UC-002')).toEqual(['UC-002', 'UC-001']);
  });
});
