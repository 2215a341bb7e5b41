/**
 * The front-matter most specs have, read without a YAML parser: `key: value` lines whose values are
 * plain words, small integers, dates, quoted text without escapes, or lists of those (`[a, b]` or
 * `- a` lines). Anything else gives null, and the caller parses the block with js-yaml as before.
 *
 * Why: js-yaml's code is cold in a `kdd build` process, and parsing the 54 front-matters of a small
 * tree with it cost more than reading their Markdown bodies' first pass (docs/decisions/build-speed.md).
 * The contract is strict: where this returns a value, it is exactly what js-yaml's safe loader
 * followed by front-matter.ts's JSON-safe copy gives (test/parse/simple-yaml.test.ts checks it
 * against gray-matter on generated blocks). Every shape it is not sure of is left to js-yaml, which
 * also reports the errors.
 */

/** Words YAML reads as null or booleans rather than text (js-yaml's core schema). */
const NOT_TEXT = new Set(['null', 'Null', 'NULL', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE']);
/** `key:` or `key: value` at the start of a line; the key a plain identifier. */
const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_-]*):(?: +(.*))?$/;
/** `- value` of a block list, indented or not. */
const ITEM_LINE = /^( *)- +(.*)$/;
/**
 * Characters beyond ASCII that may stand anywhere in a value: printable BMP characters without the
 * C1 controls (U+0085 included), the line and paragraph separators, U+FEFF, U+FFFE/U+FFFF and
 * surrogates (a value with an astral character goes to js-yaml). Spelled as ranges rather than
 * Unicode property classes, which cost milliseconds to compile in a short process.
 */
const WIDE = '\u00A0-\u2027\u202A-\uD7FF\uE000-\uFEFE\uFF00-\uFFFD';
/**
 * Plain text that YAML keeps as text in a block value: starts with a letter (no indicator, number
 * or date can), and holds no `:` or `#` (mapping and comment markers) nor tabs or control characters.
 */
const PLAIN = new RegExp(`^[A-Za-z${WIDE}][A-Za-z0-9 _.,;/()'"?!+&*=%@$~<>|[\\]{}^\`${WIDE}-]*$`);
/** The same inside a flow list, where `,` `[` `]` `{` `}` end a value. */
const FLOW_PLAIN = new RegExp(`^[A-Za-z${WIDE}][A-Za-z0-9 _.;/()'"?!+&*=%@$~<>|^\`${WIDE}-]*$`);
/** Quoted text without escapes (`\` or a doubled quote), tabs or the characters {@link WIDE} leaves out. */
const QUOTED = new RegExp(`^(?:"([\\x20\\x21\\x23-\\x5B\\x5D-\\x7E${WIDE}]*)"|'([\\x20-\\x26\\x28-\\x7E${WIDE}]*)')$`);
const SMALL_INTEGER = /^(?:0|[1-9][0-9]{0,14})$/;
const DATE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;

/** Returned for a value this reader leaves to js-yaml. */
const UNSURE = Symbol('unsure');
type Scalar = string | number | typeof UNSURE;

/**
 * The mapping of the front-matter lines `lines[from]` … `lines[to - 1]` (between the `---` lines), or
 * null when the block is not one of the simple shapes.
 */
export function readSimpleMapping(lines: readonly string[], from: number, to: number): Record<string, unknown> | null {
  const entries: Array<[string, unknown]> = [];
  const keys = new Set<string>();
  for (let at = from; at < to; ) {
    const line = lines[at]!;
    if (line === '') {
      at++;
      continue;
    }
    const match = KEY_LINE.exec(line);
    if (!match) return null;
    const key = match[1]!;
    // A duplicate is an error js-yaml reports; `__proto__` and YAML's null/boolean words as keys are its to handle.
    if (keys.has(key) || key === '__proto__' || NOT_TEXT.has(key)) return null;
    keys.add(key);
    const text = match[2] ?? '';
    at++;
    if (text === '') {
      const list = blockList(lines, at, to);
      if (!list) return null;
      entries.push([key, list.items]);
      at = list.next;
      continue;
    }
    const value = text.startsWith('[') ? flowList(text) : scalar(text, PLAIN);
    if (value === UNSURE) return null;
    entries.push([key, value]);
  }
  return entries.length > 0 ? Object.fromEntries(entries) : null;
}

/** The `- item` lines from `at`, all at one indentation; null when there are none or one is not simple. */
function blockList(lines: readonly string[], at: number, to: number): { items: Scalar[]; next: number } | null {
  const items: Scalar[] = [];
  let indent: string | null = null;
  for (; at < to; at++) {
    const match = ITEM_LINE.exec(lines[at]!);
    if (!match) break;
    if (indent !== null && match[1] !== indent) return null;
    indent = match[1]!;
    const item = scalar(match[2]!, PLAIN);
    if (item === UNSURE) return null;
    items.push(item);
  }
  return items.length > 0 ? { items, next: at } : null;
}

/** `[a, b, "c"]` or `[]`. */
function flowList(text: string): Scalar[] | typeof UNSURE {
  if (!text.endsWith(']')) return UNSURE;
  const inner = spacesTrimmed(text.slice(1, -1));
  if (inner === '') return [];
  const items: Scalar[] = [];
  for (const part of inner.split(',')) {
    const item = scalar(spacesTrimmed(part), FLOW_PLAIN);
    if (item === UNSURE) return UNSURE;
    items.push(item);
  }
  return items;
}

/** YAML trims spaces around flow items, not the other white space `String.trim` removes (U+00A0…). */
const spacesTrimmed = (text: string) => text.replace(/^ +| +$/g, '');

function scalar(text: string, plain: RegExp): Scalar {
  if (text.endsWith(' ')) return UNSURE;
  const quoted = QUOTED.exec(text);
  if (quoted) return quoted[1] ?? quoted[2]!;
  if (SMALL_INTEGER.test(text)) return Number(text);
  const date = DATE.exec(text);
  // js-yaml makes `Date.UTC(y, m - 1, d)` of it (out-of-range parts roll over, as they do there);
  // front-matter.ts keeps a midnight date as its first ten characters.
  if (date) return new Date(Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3]))).toISOString().slice(0, 10);
  return plain.test(text) && !NOT_TEXT.has(text) ? text : UNSURE;
}
