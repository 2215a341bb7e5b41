import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { locateField, locateLink, positionAt } from '../../compiler/check/locate.js';

/** Prose without brackets or the target word, so the inserted link is the only match. */
const word = fc.stringMatching(/^[a-z]{1,8}$/).filter((w) => w !== 'pedido');
const line = fc.array(fc.oneof(word, fc.constantFrom('á', 'ñ', '—', '🙂')), { maxLength: 8 }).map((words) => words.join(' '));
const lines = fc.array(line, { minLength: 1, maxLength: 12 });

describe('locate (kdd check positions)', () => {
  it('positionAt gives the 1-based line and UTF-16 column of any offset', () => {
    fc.assert(
      fc.property(lines, fc.nat(), (rows, pick) => {
        const text = rows.join('\n');
        const offset = pick % (text.length + 1);
        const { line: at, column } = positionAt(text, offset);
        const before = text.slice(0, offset).split('\n');
        expect(at).toBe(before.length);
        expect(column).toBe(before.at(-1)!.length + 1);
      }),
      { seed: 19 },
    );
  });

  it('finds the link inserted anywhere, whatever its alias, anchor, domain or case', () => {
    const link = fc.constantFrom('[[Pedido]]', '[[pedido|el pedido]]', '[[ventas::Pedido#Estados]]', '[[PEDIDO\\|x]]');
    fc.assert(
      fc.property(lines, fc.nat(), fc.nat(), link, (rows, rowPick, colPick, written) => {
        const row = rowPick % rows.length;
        const column = colPick % (rows[row]!.length + 1);
        const edited = [...rows];
        edited[row] = rows[row]!.slice(0, column) + written + rows[row]!.slice(column);
        expect(locateLink(edited.join('\n'), ['Pedido'])).toEqual({ line: row + 1, column: column + 1 });
      }),
      { seed: 19 },
    );
  });

  it('prefers the link inside the named section, falls back to a bare mention, else null', () => {
    const text = '# Doc\n\nSee [[Pedido]].\n\n## Relaciones\n\n- also [[Pedido]]\n';
    expect(locateLink(text, ['Pedido'])).toEqual({ line: 3, column: 5 });
    expect(locateLink(text, ['Pedido'], 'Relaciones')).toEqual({ line: 7, column: 8 });
    expect(locateLink('Scenario: uses UC-001 here\n', ['UC-001'])).toEqual({ line: 1, column: 16 });
    expect(locateLink('Scenario: uses UC-0012 here\n', ['UC-001'])).toBeNull();
    expect(locateLink('no link', [])).toBeNull();
  });

  it('finds a front-matter key, only inside the front-matter', () => {
    const text = '---\ntitle: X\nid: Pedido\nkind: entity\n---\nid: not this\n';
    expect(locateField(text, 'id')).toEqual({ line: 3, column: 1 });
    expect(locateField(text, 'kind')).toEqual({ line: 4, column: 1 });
    expect(locateField(text, 'status')).toBeNull();
    expect(locateField('# no front-matter\nid: x\n', 'id')).toBeNull();
  });
});
