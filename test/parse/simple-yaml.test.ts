import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import matter from 'gray-matter';
import { describe, expect, it } from 'vitest';
import { readSimpleMapping } from '../../compiler/parse/simple-yaml.js';

/** What front-matter.ts makes of a block through gray-matter (js-yaml's safe loader), for the shapes compared here; `error` when js-yaml refuses it. */
function throughYaml(block: string): unknown {
  let data: unknown;
  try {
    // Options given: gray-matter does not cache by text.
    data = matter(block, { language: 'yaml' }).data;
  } catch {
    return 'error';
  }
  const copy = (value: unknown): unknown => {
    if (value instanceof Date) {
      const iso = value.toISOString();
      return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
    }
    if (Array.isArray(value)) return value.map(copy);
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, copy(item)]));
    return value;
  };
  return copy(data);
}

const simple = (block: string) => {
  const lines = block.split('\n');
  return readSimpleMapping(lines, 1, lines.length - 1);
};

/** Values the reader should take (and must then read as js-yaml does)… */
const plain = ['draft', 'Merge Conflict Resolution', 'UC-001', 'Índice', 'año', 'e\u0301', "it's", 'say "hi"', 'a|b', 'a > b', '¿qué?', '\u00A0lead', 'x\u00A0', 'Ωmega', '"Ünïcode [ok]"', 'yes', 'no', 'on', 'nan', '0', '7', '123', '999999999999999'];
const exact = ['2024-01-15', '2024-02-30', '2024-13-01', '0001-01-01', '0099-12-31', '"RetrievalQuery Received"', '"a: b # c"', '""', "''", "'single'", '"2024-01-15"', '"true"'];
/** …and look-alikes that YAML reads otherwise or refuses, which it must leave to js-yaml. */
const tricky = ['a: b', 'C#', 'x #y', 'tab\there', 'a, b', '[x]', 'a{b}', 'trailing ', 'null', 'Null', '~', 'true', 'FALSE', '.inf', '-', '- x', '&anchor', '*alias', '!tag', '|', '>', '%x', '@x', '`x`', 'x\u0085y', 'x\u2028y', 'x\u0007y', 'x\uFEFFy', '\uD83D\uDE00', 'x\uD83Dy', 'a\\b', '"x\u0085y"', '01', '-1', '+2', '1.5', '1e3', '0x1F', '0o7', '1_000', '12:30', '1234567890123456', '2024-1-1', '2024-01-15T10:30:00Z', '2024-01-15 10:30', "'it''s'", '"esc\\"aped"', '"back\\\\slash"', '"x\ty"', '"open'];
const scalarText = fc.oneof({ arbitrary: fc.constantFrom(...plain, ...exact), weight: 8 }, { arbitrary: fc.constantFrom(...tricky), weight: 1 });
const flowText = fc.array(scalarText, { maxLength: 4 }).chain((items) => fc.constantFrom(`[${items.join(', ')}]`, `[${items.join(',')}]`, `[ ${items.join(' , ')} ]`, `[${items.join(', ')},]`));
const keyText = fc.oneof({ arbitrary: fc.constantFrom('kind', 'status', 'title', 'id', 'tags', 'a-b', 'x_y', '_k'), weight: 8 }, { arbitrary: fc.constantFrom('true', 'Null', '__proto__', '1abc', 'k k'), weight: 1 });

const entry = fc.oneof(
  { arbitrary: fc.tuple(keyText, scalarText).map(([key, value]) => `${key}: ${value}`), weight: 6 },
  { arbitrary: fc.tuple(keyText, flowText).map(([key, value]) => `${key}: ${value}`), weight: 2 },
  { arbitrary: fc.tuple(keyText, fc.constantFrom('', '  ', '    '), fc.array(scalarText, { maxLength: 3 })).map(([key, indent, items]) => [`${key}:`, ...items.map((item) => `${indent}- ${item}`)].join('\n')), weight: 2 },
  { arbitrary: fc.constantFrom('', '# comment', '  indented: x', 'kind:value', 'kind:  spaced', 'kind: ', '  continued', '...', 'key:\n  sub: x', 'tags:\n  - a\n   - b'), weight: 1 },
);

describe('readSimpleMapping', () => {
  it('gives what js-yaml gives, or leaves the block to it (generated blocks, fixed seed)', () => {
    let read = 0;
    let runs = 0;
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 6 }), (entries) => {
        runs++;
        const block = `---\n${entries.join('\n')}\n---`;
        const fast = simple(block);
        if (fast === null) return;
        read++;
        expect(fast).toEqual(throughYaml(block));
        expect(Object.getPrototypeOf(fast)).toBe(Object.prototype);
      }),
      { seed: 17, numRuns: 3_000 },
    );
    // The comparison means something only if both sides were reached often.
    expect(read).toBeGreaterThan(runs / 10);
    expect(read).toBeLessThan(runs);
  });

  it('reads every front-matter of the kdd-engine specs exactly as js-yaml does', () => {
    const root = new URL('../../../shared/corpora/kdd-engine/specs/', import.meta.url).pathname;
    const blocks: string[] = [];
    const walk = (dir: string) => {
      for (const item of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, item.name);
        if (item.isDirectory()) walk(path);
        else if (item.name.endsWith('.md')) {
          const block = /^---\n[\s\S]*?\n---(?=\n)/.exec(readFileSync(path, 'utf8').replace(/\r\n?/g, '\n'))?.[0];
          if (block) blocks.push(block);
        }
      }
    };
    walk(root);
    expect(blocks.length).toBeGreaterThan(40);
    for (const block of blocks) expect(simple(block), block).toEqual(throughYaml(block));
  });

  it('leaves errors to js-yaml: a duplicate key, an unclosed quote, a tab', () => {
    expect(simple('---\nkind: a\nkind: b\n---')).toBeNull();
    expect(simple('---\ntitle: "open\n---')).toBeNull();
    expect(simple('---\ntitle: a\tb\n---')).toBeNull();
  });

  it('reads words, integers, dates, quoted text and both list forms', () => {
    expect(simple("---\nkind: entity\nversion: 1\ncreated: 2024-02-30\ntitle: \"A: B\"\nnote: 'x'\ntags: [a, b]\nempty: []\naliases:\n  - Uno\n  - Dos\n---")).toEqual({
      kind: 'entity',
      version: 1,
      created: '2024-03-01',
      title: 'A: B',
      note: 'x',
      tags: ['a', 'b'],
      empty: [],
      aliases: ['Uno', 'Dos'],
    });
  });
});
