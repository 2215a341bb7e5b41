/**
 * Gherkin `.feature` files → plain data, in English and Spanish (`# language: es`).
 *
 * Hand-written, line-oriented and dependency-free: the index needs names, tags, steps and the
 * references they make, not an executable pickle. What a scenario validates is read from its name,
 * tags, step text and tables. Doc strings are left out of `links`: in KDD features they usually
 * hold a whole example spec, whose links describe the example, not the scenario.
 */
import type { GherkinExamples, GherkinFeature, GherkinScenario, GherkinStep, WikiLink } from './types.js';
import { dialectFor, type Dialect } from './gherkin-dialects.js';
import { findIdReferences, findWikiLinks, idReferenceLink, replaceWikiLinks, uniqueLinks } from './wiki-links.js';

export class GherkinError extends Error {
  readonly code = 'INVALID_GHERKIN';
  constructor(
    message: string,
    /** 1-based line in the `.feature` file. */
    readonly line: number,
  ) {
    super(`${message} (line ${line})`);
    this.name = 'GherkinError';
  }
}

const LANGUAGE = /^\s*#\s*language\s*:\s*([\w-]+)\s*$/;
const DOC_STRING = /^("""|```)/;
/** A leading scenario id: `SCN-IndexEntity-001 — Indexar entidad…`. */
const SCENARIO_ID = /^SCN-[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*(?![\p{L}\p{N}_])/u;

type HeaderType = 'feature' | 'rule' | 'background' | 'outline' | 'scenario' | 'examples';
const HEADER_ORDER: readonly HeaderType[] = ['feature', 'rule', 'background', 'outline', 'scenario', 'examples'];

/**
 * @throws GherkinError with the offending line: no `Feature:` line, text before it, a second
 * feature, a step, table or doc string with nothing to belong to, an unclosed doc string, or
 * free text after steps.
 */
export function parseGherkin(source: string): GherkinFeature {
  const lines = source.replace(/^\uFEFF/, '').split(/\r\n?|\n/);
  const language = languageOf(lines);
  const feature = new FeatureReader(lines, dialectFor(language)).read();
  return { language, ...feature };
}

/** `# language: xx` among the comment lines before the first keyword; `en` by default. */
function languageOf(lines: readonly string[]): string {
  for (const line of lines) {
    const trimmed = line.trim();
    if (trimmed === '') continue;
    if (!trimmed.startsWith('#')) break;
    const match = LANGUAGE.exec(trimmed);
    if (match) return match[1]!;
  }
  return 'en';
}

interface Header {
  type: HeaderType;
  keyword: string;
  name: string;
}

/** Reads one feature top to bottom, keeping only what the current line may attach to. */
class FeatureReader {
  private feature: Omit<GherkinFeature, 'language' | 'links'> | null = null;
  private readonly description: string[] = [];
  private scenario: GherkinScenario | null = null;
  private examples: GherkinExamples | null = null;
  /** Where steps go: the background or the current scenario. */
  private steps: GherkinStep[] | null = null;
  /** The latest step, while a doc string or table may still follow it. */
  private step: GherkinStep | null = null;
  /** Tags wait for the header below them. */
  private pendingTags: string[] = [];
  /** Free text is a description only right under a header, before its steps or table. */
  private descriptionTarget: 'feature' | 'ignored' | null = null;

  constructor(
    private readonly lines: readonly string[],
    private readonly dialect: Dialect,
  ) {}

  read(): Omit<GherkinFeature, 'language'> {
    for (let index = 0; index < this.lines.length; index++) {
      index = this.readLine(index);
    }
    if (!this.feature) throw new GherkinError('No Feature line found', 1);
    const feature = { ...this.feature, description: this.description.join('\n').trim() };
    for (const scenario of feature.scenarios) scenario.links = scenarioLinks(scenario);
    return { ...feature, links: featureLinks(feature) };
  }

  /** Handles the line at `index`; returns the index of the last line it consumed. */
  private readLine(index: number): number {
    const raw = this.lines[index]!;
    const text = raw.trim();
    const line = index + 1;
    if (text === '') {
      if (this.descriptionTarget === 'feature') this.description.push('');
      return index;
    }
    if (text.startsWith('#')) return index;
    if (text.startsWith('@')) {
      this.pendingTags.push(...parseTags(text));
      this.descriptionTarget = null;
      return index;
    }
    if (DOC_STRING.test(text)) return this.readDocString(index);
    if (text.startsWith('|')) {
      this.addRow(parseRow(text), line);
      return index;
    }
    const header = this.matchHeader(text);
    if (header) this.openHeader(header, line);
    else if (!this.addStep(text, line)) this.addText(text, line);
    return index;
  }

  private matchHeader(text: string): Header | null {
    for (const type of HEADER_ORDER) {
      for (const keyword of this.dialect[type]) {
        if (text.startsWith(`${keyword}:`)) return { type, keyword, name: text.slice(keyword.length + 1).trim() };
      }
    }
    return null;
  }

  private openHeader(header: Header, line: number): void {
    const tags = this.pendingTags;
    this.pendingTags = [];
    this.step = null;
    this.examples = null;
    if (header.type === 'feature') {
      if (this.feature) throw new GherkinError('A file holds one Feature; found a second one', line);
      this.feature = { name: header.name, description: '', tags, background: [], scenarios: [] };
      this.descriptionTarget = 'feature';
      return;
    }
    if (!this.feature) throw new GherkinError(`Expected a Feature line before '${header.keyword}:'`, line);
    this.descriptionTarget = 'ignored';
    switch (header.type) {
      case 'rule':
        // Rules only group scenarios; their scenarios belong to the feature.
        this.scenario = null;
        this.steps = null;
        return;
      case 'background':
        // A rule's background is merged into the feature's: the index does not model rules.
        this.scenario = null;
        this.steps = this.feature.background;
        return;
      case 'scenario':
      case 'outline':
        this.scenario = newScenario(header, tags);
        this.feature.scenarios.push(this.scenario);
        this.steps = this.scenario.steps;
        return;
      case 'examples':
        if (!this.scenario) throw new GherkinError(`'${header.keyword}:' outside a scenario outline`, line);
        this.examples = { name: header.name, tags, table: [] };
        (this.scenario.examples ??= []).push(this.examples);
        this.steps = null;
        return;
    }
  }

  /** Reads a step line; false when the line starts with no step keyword. */
  private addStep(text: string, line: number): boolean {
    const keyword = this.dialect.steps.find((word) => text.startsWith(`${word} `));
    if (keyword === undefined) return false;
    // Under a header, before any step container, a line such as `Y además…` is description text.
    if (!this.steps && this.descriptionTarget !== null) return false;
    if (!this.steps) throw new GherkinError(`Step '${text}' outside a Background or Scenario`, line);
    this.step = { keyword, text: text.slice(keyword.length).trim(), docString: null, table: null };
    this.steps.push(this.step);
    this.descriptionTarget = null;
    return true;
  }

  private addText(text: string, line: number): void {
    if (!this.feature) throw new GherkinError(`Expected a Feature line, found '${text}'`, line);
    if (this.descriptionTarget === 'feature') this.description.push(text);
    else if (this.descriptionTarget === null) throw new GherkinError(`Unexpected text '${text}'`, line);
  }

  private addRow(cells: string[], line: number): void {
    this.descriptionTarget = null;
    if (this.step && this.step.docString === null) (this.step.table ??= []).push(cells);
    else if (this.examples) this.examples.table.push(cells);
    else throw new GherkinError('Table row outside a step or Examples block', line);
  }

  /** Reads a `"""` or ``` block up to its closing delimiter; returns the closing line's index. */
  private readDocString(start: number): number {
    const opening = this.lines[start]!;
    const delimiter = opening.trim().slice(0, 3);
    const line = start + 1;
    if (!this.step || this.step.table !== null || this.step.docString !== null) {
      throw new GherkinError('Doc string without a step above it', line);
    }
    // Gherkin removes the opening delimiter's indentation from every content line.
    const indent = opening.indexOf(delimiter);
    const content: string[] = [];
    for (let index = start + 1; index < this.lines.length; index++) {
      const raw = this.lines[index]!;
      if (raw.trim() === delimiter) {
        this.step.docString = content.join('\n');
        this.descriptionTarget = null;
        return index;
      }
      content.push(dedent(raw, indent).split(`\\${delimiter[0]}`.repeat(3)).join(delimiter));
    }
    throw new GherkinError(`Doc string opened with ${delimiter} is never closed`, line);
  }
}

function newScenario(header: Header, tags: string[]): GherkinScenario {
  return { id: SCENARIO_ID.exec(header.name)?.[0] ?? null, name: header.name, keyword: header.keyword, tags, steps: [], links: [] };
}

/** Removes up to `indent` leading whitespace characters. */
function dedent(line: string, indent: number): string {
  let cut = 0;
  while (cut < indent && cut < line.length && /\s/.test(line[cut]!)) cut++;
  return line.slice(cut);
}

/** `@UC-001 @wip #comment` → `['UC-001', 'wip']`: stored like front-matter tags, without `@`. */
function parseTags(text: string): string[] {
  const withoutComment = text.replace(/\s#.*$/, '');
  return withoutComment
    .split(/\s+/)
    .filter((word) => word.startsWith('@') && word.length > 1)
    .map((word) => word.slice(1));
}

/** `| a | b\|c |` → `['a', 'b|c']`; `\\` and `\n` escapes resolved as Gherkin does. */
function parseRow(text: string): string[] {
  const cells: string[] = [];
  let cell = '';
  for (let index = 1; index < text.length; index++) {
    const char = text[index]!;
    if (char === '\\' && index + 1 < text.length) {
      const next = text[++index]!;
      cell += next === 'n' ? '\n' : next === '|' || next === '\\' ? next : `\\${next}`;
    } else if (char === '|') {
      cells.push(cell.trim());
      cell = '';
    } else {
      cell += char;
    }
  }
  if (cell.trim() !== '') cells.push(cell.trim()); // a row missing its closing `|`
  return cells;
}

/**
 * Links of a scenario: its name, tags, step text and tables, examples; never doc strings. The
 * scenario's own `SCN-…` id, read from its name, is not a reference to something else.
 */
function scenarioLinks(scenario: GherkinScenario): WikiLink[] {
  const texts = [
    scenario.name,
    ...scenario.tags,
    ...stepTexts(scenario.steps),
    ...(scenario.examples ?? []).flatMap((examples) => [examples.name, ...examples.tags, ...examples.table.flat()]),
  ];
  return linksIn(texts).filter((link) => scenario.id === null || link.raw !== scenario.id);
}

/** Links of the feature itself: its tags, description and background. */
function featureLinks(feature: Omit<GherkinFeature, 'language' | 'links'>): WikiLink[] {
  return linksIn([...feature.tags, feature.description, ...stepTexts(feature.background)]);
}

function stepTexts(steps: readonly GherkinStep[]): string[] {
  return steps.flatMap((step) => [step.text, ...(step.table ?? []).flat()]);
}

/** Wiki-links and bare ids, in text order; an id written as `[[UC-001]]` counts once. */
function linksIn(texts: readonly string[]): WikiLink[] {
  const links = texts.flatMap((text) => [
    ...findWikiLinks(text),
    ...findIdReferences(replaceWikiLinks(text, () => ' ')).map(idReferenceLink),
  ]);
  return uniqueLinks(links);
}
