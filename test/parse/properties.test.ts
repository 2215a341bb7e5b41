import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findIdReferences, findWikiLinks, parseMarkdown, parseWikiLink, renderWikiLinks } from '../../compiler/parse/index.js';

// Strings rich in the characters the parsers care about, so shrinking finds real edge cases.
const markdownish = fc.string({
  unit: fc.constantFrom('[', ']', '|', '\\', '#', ':', '`', '*', '-', '\n', ' ', 'a', 'B', '1', '>', '<', '!', '\uE000', '\uE001', 'é'),
  maxLength: 120,
});
const anyText = fc.oneof(markdownish, fc.string({ maxLength: 200 }));

describe('wiki-link laws', () => {
  it('findWikiLinks never throws and every raw occurs in the input between brackets', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        for (const link of findWikiLinks(text)) {
          expect(text).toContain(`[[${link.raw}]]`);
          expect(link.target !== null || link.anchor !== null).toBe(true);
        }
      }),
    );
  });

  it('a link built from parts parses back to those parts', () => {
    const part = fc.stringMatching(/^[A-Za-z0-9áé][A-Za-z0-9 áé_-]{0,12}[A-Za-z0-9áé]$|^[A-Za-z]$/);
    fc.assert(
      fc.property(fc.option(part), part, fc.option(part), fc.option(part), (domain, target, anchor, alias) => {
        const inner = `${domain ? `${domain}::` : ''}${target}${anchor ? `#${anchor}` : ''}${alias ? `|${alias}` : ''}`;
        expect(parseWikiLink(inner)).toEqual({ raw: inner, target, domain, anchor, alias });
      }),
    );
  });

  it('renderWikiLinks leaves no link behind', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        expect(findWikiLinks(renderWikiLinks(text)).length).toBeLessThanOrEqual(findWikiLinks(text).length);
      }),
    );
  });

  it('findIdReferences returns distinct substrings of the input', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('UC-001', 'BR-X-002', 'EVT-A-b', ' ', '-', 'x', '@', '9'), { maxLength: 30 }), (words) => {
        const text = words.join('');
        const ids = findIdReferences(text);
        expect(new Set(ids).size).toBe(ids.length);
        for (const id of ids) expect(text).toContain(id);
      }),
    );
  });
});

describe('parseMarkdown laws', () => {
  it('never throws, and parents always point to a shallower earlier section', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const { sections } = parseMarkdown(text);
        sections.forEach((section, index) => {
          expect(section.parent).toBeLessThan(index);
          if (section.parent >= 0) expect(sections[section.parent]!.depth).toBeLessThan(section.depth);
        });
      }),
    );
  });

  it('finds in a section only links written in the source, and leaks no placeholder', () => {
    fc.assert(
      fc.property(markdownish, (text) => {
        const parsed = parseMarkdown(text);
        for (const section of [parsed.preamble, ...parsed.sections]) {
          for (const link of section.links) expect(text.replace(/\\\|/g, '|')).toContain(link.raw.replace(/\\\|/g, '|'));
          if (!text.includes('\uE000')) expect(section.text).not.toContain('\uE000');
        }
      }),
    );
  });
});
