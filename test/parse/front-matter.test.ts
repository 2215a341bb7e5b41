import { describe, expect, it } from 'vitest';
import { FrontMatterError, parseFrontMatter } from '../../compiler/parse/index.js';

const declared = globalThis as { pwned?: unknown };

describe('parseFrontMatter', () => {
  it('reads a YAML mapping and returns the body after the block', () => {
    const source = '---\nkind: entity\naliases: [Orden, Order]\nstatus: draft\n---\n# Pedido\n\nTexto.\n';
    expect(parseFrontMatter(source)).toEqual({
      data: { kind: 'entity', aliases: ['Orden', 'Order'], status: 'draft' },
      body: '# Pedido\n\nTexto.\n',
    });
  });

  it('returns null data and the whole text when there is no front-matter', () => {
    const source = '# Notes\n\nNo metadata here.\n';
    expect(parseFrontMatter(source)).toEqual({ data: null, body: source });
  });

  it('treats a leading thematic break of four dashes as Markdown', () => {
    const source = '----\n\nText\n';
    expect(parseFrontMatter(source)).toEqual({ data: null, body: source });
  });

  it('strips a BOM and normalizes CRLF line endings', () => {
    const source = '\uFEFF---\r\nkind: command\r\nid: CMD-001\r\n---\r\n# CMD-001\r\n\r\nBody\r\n';
    expect(parseFrontMatter(source)).toEqual({ data: { kind: 'command', id: 'CMD-001' }, body: '# CMD-001\n\nBody\n' });
  });

  it('returns an empty mapping for an empty block', () => {
    expect(parseFrontMatter('---\n---\nBody')).toEqual({ data: {}, body: 'Body' });
  });

  it('keeps timestamps as deterministic strings, never Date objects', () => {
    const { data } = parseFrontMatter('---\ncreated: 2024-01-15\nreviewed: 2024-01-15T10:30:00+02:00\n---\n');
    expect(data).toEqual({ created: '2024-01-15', reviewed: '2024-01-15T08:30:00.000Z' });
    expect(JSON.parse(JSON.stringify(data))).toEqual(data);
  });

  it('keeps a __proto__ key as plain data', () => {
    const { data } = parseFrontMatter('---\n__proto__: {polluted: true}\n---\n');
    expect(Object.keys(data!)).toEqual(['__proto__']);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('is not fooled by the gray-matter cache: the same text parses the same twice', () => {
    const source = '---\ntitle: cached\n---\nx';
    const first = parseFrontMatter(source);
    first.data!.title = 'mutated';
    expect(parseFrontMatter(source).data).toEqual({ title: 'cached' });
  });

  describe('refuses executable front-matter', () => {
    it.each(['js', 'javascript', 'JS', 'coffee'])('never runs ---%s', (language) => {
      delete declared.pwned;
      const source = `---${language}\n{ title: (globalThis.pwned = 'yes') }\n---\n# Body\n`;
      expect(() => parseFrontMatter(source)).toThrow(FrontMatterError);
      expect(() => parseFrontMatter(source)).toThrow(/only YAML/);
      expect(declared.pwned).toBeUndefined();
    });
  });

  it('accepts an explicit yaml language tag', () => {
    expect(parseFrontMatter('---yaml\nkind: query\n---\n').data).toEqual({ kind: 'query' });
  });

  it('names the line of a YAML syntax error', () => {
    const source = '---\nkind: entity\naliases: [Orden, Order\nstatus: draft\n---\n# Pedido\n';
    const error = captureError(() => parseFrontMatter(source));
    expect(error).toBeInstanceOf(FrontMatterError);
    expect(error.message).toMatch(/line \d+/);
    expect(error.line).toBeGreaterThanOrEqual(3);
    expect(error.code).toBe('INVALID_FRONT_MATTER');
  });

  it('reports the exact file line of a bad indentation', () => {
    const error = captureError(() => parseFrontMatter('---\nkind: entity\n  status: draft\n---\n'));
    expect(error.line).toBe(3);
    expect(error.message).toContain('line 3');
  });

  it('rejects duplicated keys', () => {
    expect(() => parseFrontMatter('---\nkind: a\nkind: b\n---\n')).toThrow(/duplicated mapping key/);
  });

  it.each([
    ['a list', '---\n- a\n- b\n---\n'],
    ['a string', '---\njust text\n---\n'],
    ['a number', '---\n42\n---\n'],
  ])('rejects front-matter that is %s', (shape, source) => {
    expect(() => parseFrontMatter(source)).toThrow(new RegExp(`mapping.*${shape}`));
  });

  it('rejects a block that is never closed', () => {
    expect(() => parseFrontMatter('---\nkind: entity\n# Pedido\n')).toThrow(/never closed/);
  });

  it('refuses YAML aliases that expand into a huge tree or refer to themselves', () => {
    const lines = ['---', 'l0: &l0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let level = 1; level < 9; level++) lines.push(`l${level}: &l${level} [${Array(10).fill(`*l${level - 1}`).join(', ')}]`);
    lines.push('---', '');
    expect(() => parseFrontMatter(lines.join('\n'))).toThrow(/more than 100000 values/);
    expect(() => parseFrontMatter('---\na: &self\n  b: *self\n---\n')).toThrow(/refers to itself/);
  });

  it('rejects a YAML custom tag that would build a function', () => {
    expect(() => parseFrontMatter('---\nx: !!js/function "function () { return 1 }"\n---\n')).toThrow(FrontMatterError);
  });
});

function captureError(run: () => unknown): FrontMatterError {
  try {
    run();
  } catch (error) {
    return error as FrontMatterError;
  }
  throw new Error('expected an error');
}
