/**
 * YAML front-matter → plain JSON-safe data, and the Markdown body after it.
 *
 * Specs are untrusted input. gray-matter 4 runs `---js` / `---javascript` front-matter through
 * `eval` (CVE-2022-25863), so this module finds the block itself, refuses any language tag other
 * than YAML before gray-matter sees the text, and also replaces every code-running engine with one
 * that throws, in case the first guard is ever loosened. Only gray-matter's YAML engine (js-yaml's
 * safe loader) ever parses anything.
 */
import matter from 'gray-matter';
import { readSimpleMapping } from './simple-yaml.js';
import type { FrontMatterResult } from './types.js';

export class FrontMatterError extends Error {
  readonly code = 'INVALID_FRONT_MATTER';
  constructor(
    message: string,
    /** 1-based line in the source file, when known. */
    readonly line: number | null = null,
  ) {
    super(message);
    this.name = 'FrontMatterError';
  }
}

/** `---` plus an optional language tag; `----` is a thematic break, not front-matter. */
const OPENING = /^---(?!-)[ \t]*(\S*)[ \t]*$/;
const CLOSING = /^---[ \t]*$/;
const YAML_TAGS = new Set(['', 'yaml', 'yml']);

const refuse = (language: string) => () => {
  throw new FrontMatterError(`Front-matter language '${language}' is not supported: only YAML is read`, 1);
};

// Passing an options object also keeps gray-matter from caching results by input string.
const SAFE_OPTIONS = {
  language: 'yaml',
  engines: {
    js: refuse('js'),
    javascript: refuse('javascript'),
    coffee: refuse('coffee'),
    coffeescript: refuse('coffeescript'),
    cson: refuse('cson'),
    json: refuse('json'),
    toml: refuse('toml'),
  },
};

/**
 * Splits a spec into front-matter and body. The body has its BOM removed and CRLF/CR line endings
 * normalized to LF (same text on every platform, whatever git's `autocrlf` did).
 * A file that does not start with a `---` line has no front-matter: `{ data: null, body }`.
 * @throws FrontMatterError for a non-YAML block, an unclosed block, invalid YAML or YAML that is not a mapping.
 */
export function parseFrontMatter(source: string): FrontMatterResult {
  const text = source.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const firstEnd = lineEnd(text, 0);
  const opening = OPENING.exec(text.slice(0, firstEnd));
  if (!opening) return { data: null, body: text };

  const language = opening[1]!.toLowerCase();
  if (!YAML_TAGS.has(language)) refuse(opening[1]!)();

  // Only the block is cut into lines: the body is one slice, not every line split and joined again.
  const { lines, bodyStart } = blockLines(text, firstEnd);
  const close = lines.length - 1;
  const body = text.slice(bodyStart);
  // Most blocks are plain `key: value` lines: read without js-yaml, with the same result (simple-yaml.ts).
  const data = readSimpleMapping(lines, 1, close) ?? toMapping(parseYaml(lines.join('\n')));
  return { data, body };
}

/** Offset of the `\n` ending the line that starts at `start`, or the text's length on the last line. */
function lineEnd(text: string, start: number): number {
  const end = text.indexOf('\n', start);
  return end === -1 ? text.length : end;
}

/**
 * The block's lines, opening to closing line, and where the body starts. The first later line
 * starting with `---` must be exactly `---` and closes the block.
 */
function blockLines(text: string, firstEnd: number): { lines: string[]; bodyStart: number } {
  const lines = [text.slice(0, firstEnd)];
  for (let end = firstEnd; end < text.length; ) {
    const start = end + 1;
    end = lineEnd(text, start);
    const line = text.slice(start, end);
    lines.push(line);
    if (!line.startsWith('---')) continue;
    // gray-matter closes on the first line starting with `---`; refusing anything else keeps
    // our split and its split identical.
    if (CLOSING.test(line)) return { lines, bodyStart: Math.min(end + 1, text.length) };
    throw new FrontMatterError(`Front-matter line ${lines.length} starts with '---' but is not a closing '---' line`, lines.length);
  }
  throw new FrontMatterError("Front-matter opened on line 1 is never closed by a '---' line", 1);
}

/** `block` is the whole `---` … `---` text, so YAML line numbers are file line numbers. */
function parseYaml(block: string): unknown {
  try {
    return matter(block, SAFE_OPTIONS).data;
  } catch (error) {
    if (error instanceof FrontMatterError) throw error;
    throw yamlError(error);
  }
}

function yamlError(error: unknown): FrontMatterError {
  const yaml = error as { reason?: string; message?: string; mark?: { line?: number; column?: number } };
  const mark = yaml.mark;
  if (mark && typeof mark.line === 'number') {
    // js-yaml counts from 0 starting just after the opening `---`, which is file line 1.
    const line = mark.line + 1;
    const column = (mark.column ?? 0) + 1;
    return new FrontMatterError(`Invalid YAML front-matter at line ${line}, column ${column}: ${yaml.reason ?? yaml.message}`, line);
  }
  return new FrontMatterError(`Invalid YAML front-matter: ${yaml.message ?? String(error)}`);
}

function toMapping(data: unknown): Record<string, unknown> {
  if (data === null || data === undefined) return {};
  if (typeof data !== 'object' || Array.isArray(data) || data instanceof Date) {
    const shape = Array.isArray(data) ? 'a list' : `a ${typeof data === 'object' ? 'date' : typeof data}`;
    throw new FrontMatterError(`Front-matter must be a YAML mapping (key: value lines), found ${shape}`, 2);
  }
  return jsonSafe(data) as Record<string, unknown>;
}

/**
 * YAML aliases let a few lines describe a huge tree (the "billion laughs" attack) or a cycle.
 * Front-matter is metadata: past this many values, or on a cycle, it is refused rather than copied.
 */
const MAX_VALUES = 100_000;

/**
 * Copies YAML values into plain JSON data, so the output is deterministic and serializable:
 * timestamps become strings (`2024-01-15` stays `2024-01-15`; a date-time becomes its UTC ISO
 * form) instead of Date objects that print in the local time zone; `!!binary` becomes base64;
 * `.nan` / `.inf` become strings. Objects are rebuilt with `Object.fromEntries`, so a
 * `__proto__` key stays an ordinary key.
 */
function jsonSafe(root: unknown): unknown {
  let budget = MAX_VALUES;
  const ancestors = new Set<object>();
  const copy = (value: unknown): unknown => {
    if (--budget < 0) throw new FrontMatterError(`Front-matter expands to more than ${MAX_VALUES} values (YAML aliases?)`, 1);
    if (value instanceof Date) {
      if (Number.isNaN(value.getTime())) return String(value);
      const iso = value.toISOString();
      return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
    }
    if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
    if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
    if (value === null || typeof value !== 'object') return value;
    if (ancestors.has(value)) throw new FrontMatterError('Front-matter contains a YAML alias that refers to itself', 1);
    ancestors.add(value);
    const copied = Array.isArray(value)
      ? value.map(copy)
      : Object.fromEntries(Object.entries(value).map(([key, item]) => [key, copy(item)]));
    ancestors.delete(value);
    return copied;
  };
  return copy(root);
}
