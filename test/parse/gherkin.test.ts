import { describe, expect, it } from 'vitest';
import { GherkinError, parseGherkin } from '../../compiler/parse/index.js';

const SPANISH = `# language: es
@UC-004 @retrieval
Característica: Recuperar contexto para un agente
  Como agente de código
  Quiero el contexto de una entidad

  Antecedentes:
    Dado un índice construido con [[IndexManifest]]

  @REQ-001
  Escenario: SCN-Context-001 — Contexto de una entidad
    Dado un fichero "Pedido.md" con:
      """markdown
      # Pedido
      Pertenece a un [[Usuario]] según BR-PEDIDO-009.
        (sangría conservada)
      \\"\\"\\" escapado
      """
    Cuando consulto QRY-007 con:
      | consulta | profundidad |
      | Pedido   | 2           |
      | a \\| b   | [[Carrito]] |
    Entonces recibo el nodo "Entity:Pedido"
    Y no recibo nada de [[Usuario]]
    Pero el coste es menor que CMD-001

  Esquema del escenario: Límite de tokens
    Dado un presupuesto de <tokens> tokens
    Cuando pido el contexto
    Entonces el resultado cabe
    @cobertura
    Ejemplos: límites válidos
      | tokens | regla       |
      | 1000   | BR-TOKENS-001 |
`;

describe('parseGherkin (Spanish)', () => {
  const feature = parseGherkin(SPANISH);

  it('reads language, name, description, tags and background', () => {
    expect(feature.language).toBe('es');
    expect(feature.name).toBe('Recuperar contexto para un agente');
    expect(feature.description).toBe('Como agente de código\nQuiero el contexto de una entidad');
    expect(feature.tags).toEqual(['UC-004', 'retrieval']);
    expect(feature.background).toEqual([{ keyword: 'Dado', text: 'un índice construido con [[IndexManifest]]', docString: null, table: null }]);
  });

  it('links the feature from its tags, description and background', () => {
    expect(feature.links.map((link) => link.target)).toEqual(['UC-004', 'IndexManifest']);
  });

  it('reads scenario id, name, keyword and tags', () => {
    const [first, outline] = feature.scenarios;
    expect(first).toMatchObject({
      id: 'SCN-Context-001',
      name: 'SCN-Context-001 — Contexto de una entidad',
      keyword: 'Escenario',
      tags: ['REQ-001'],
    });
    expect(outline).toMatchObject({ id: null, name: 'Límite de tokens', keyword: 'Esquema del escenario', tags: [] });
  });

  it('keeps doc strings dedented, with escaped delimiters restored', () => {
    const step = feature.scenarios[0]!.steps[0]!;
    expect(step.keyword).toBe('Dado');
    expect(step.docString).toBe('# Pedido\nPertenece a un [[Usuario]] según BR-PEDIDO-009.\n  (sangría conservada)\n""" escapado');
  });

  it('reads data tables with escaped pipes', () => {
    expect(feature.scenarios[0]!.steps[1]).toEqual({
      keyword: 'Cuando',
      text: 'consulto QRY-007 con:',
      docString: null,
      table: [
        ['consulta', 'profundidad'],
        ['Pedido', '2'],
        ['a | b', '[[Carrito]]'],
      ],
    });
  });

  it('takes links from name, tags, steps and tables, but not from doc strings', () => {
    const targets = feature.scenarios[0]!.links.map((link) => link.target);
    expect(targets).toEqual(['REQ-001', 'QRY-007', 'Carrito', 'Usuario', 'CMD-001']);
    expect(targets).not.toContain('BR-PEDIDO-009');
    expect(targets).not.toContain('SCN-Context-001');
  });

  it('reads outline examples with their tags and links', () => {
    const outline = feature.scenarios[1]!;
    expect(outline.steps.map((step) => step.keyword)).toEqual(['Dado', 'Cuando', 'Entonces']);
    expect(outline.examples).toEqual([
      { name: 'límites válidos', tags: ['cobertura'], table: [['tokens', 'regla'], ['1000', 'BR-TOKENS-001']] },
    ]);
    expect(outline.links.map((link) => link.target)).toEqual(['BR-TOKENS-001']);
  });
});

describe('parseGherkin (English)', () => {
  const ENGLISH = [
    '@UC-001',
    'Feature: Index a document',
    '',
    '  Background:',
    '    Given a specs folder',
    '',
    '  Scenario: SCN-Index-001 Index an entity',
    '    Given a file with:',
    '      ```yaml',
    '      kind: entity',
    '      ```',
    '    When I run CMD-001',
    '    Then the node links to [[Order|orders]]',
    '    And nothing else',
    '    * it is fast',
    '',
    '  Scenario Outline: Many',
    '    Given <n> files',
    '    Examples:',
    '      | n |',
    '      | 3 |',
  ].join('\r\n');
  const feature = parseGherkin(ENGLISH);

  it('defaults to English and accepts CRLF line endings', () => {
    expect(feature.language).toBe('en');
    expect(feature.name).toBe('Index a document');
    expect(feature.description).toBe('');
    expect(feature.background.map((step) => step.text)).toEqual(['a specs folder']);
  });

  it('reads backtick doc strings and every step keyword', () => {
    const scenario = feature.scenarios[0]!;
    expect(scenario.id).toBe('SCN-Index-001');
    expect(scenario.steps.map((step) => step.keyword)).toEqual(['Given', 'When', 'Then', 'And', '*']);
    expect(scenario.steps[0]!.docString).toBe('kind: entity');
    expect(scenario.links.map((link) => [link.target, link.alias])).toEqual([
      ['CMD-001', null],
      ['Order', 'orders'],
    ]);
  });

  it('reads a Scenario Outline and its Examples', () => {
    expect(feature.scenarios[1]).toMatchObject({ keyword: 'Scenario Outline', examples: [{ name: '', tags: [], table: [['n'], ['3']] }] });
  });
});

describe('parseGherkin errors', () => {
  function lineOf(source: string): number {
    try {
      parseGherkin(source);
    } catch (error) {
      expect(error).toBeInstanceOf(GherkinError);
      expect((error as GherkinError).message).toMatch(/\(line \d+\)$/);
      return (error as GherkinError).line;
    }
    throw new Error('expected a GherkinError');
  }

  it('rejects a file without a Feature line, naming the first offending line', () => {
    expect(lineOf('# language: es\n\nEscenario: huérfano\n  Dado algo\n')).toBe(3);
    expect(lineOf('just some text\n')).toBe(1);
    expect(lineOf('# only a comment\n')).toBe(1);
  });

  it('rejects an unclosed doc string at its opening line', () => {
    expect(lineOf('Feature: F\n  Scenario: S\n    Given x\n      """\n      never closed\n')).toBe(4);
  });

  it('rejects steps and tables that belong to nothing', () => {
    expect(lineOf('Feature: F\n  | a | b |\n')).toBe(2);
    expect(lineOf('Feature: F\n  Scenario: S\n    Given x\n    stray prose after steps\n')).toBe(4);
  });

  it('rejects a second feature', () => {
    expect(lineOf('Feature: A\nFeature: B\n')).toBe(2);
  });
});
