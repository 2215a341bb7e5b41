/** Plain data produced by the parse stage (compiler/parse). No Markdown AST leaves this folder. */

/** A `[[...]]` reference in any of its forms. */
export interface WikiLink {
  /** The text between the brackets, verbatim. */
  raw: string;
  /** Link target without domain, anchor or alias; null for a same-document anchor (`[[#Section]]`). */
  target: string | null;
  /** `core` in `[[core::Usuario]]`, else null. */
  domain: string | null;
  /** `Section` in `[[Target#Section]]` / `[[#Section]]`, else null. */
  anchor: string | null;
  /** `alias` in `[[Target|alias]]`, else null. */
  alias: string | null;
}

/** A Markdown table: header cells and rows, cell text plain (wiki-links rendered as written `[[X]]`). */
export interface Table {
  headers: string[];
  rows: string[][];
}

export interface CodeBlock {
  lang: string | null;
  value: string;
}

/** One heading and the content up to the next heading of any depth (children are separate entries). */
export interface Section {
  heading: string;
  /** 1 for `#`, 2 for `##`, … */
  depth: number;
  /** Index of the enclosing section in `ParsedMarkdown.sections`, or -1 at top level. */
  parent: number;
  /** Body as plain text: paragraphs separated by blank lines, list items as `- item` lines, tables as rows. */
  text: string;
  /** Paragraph texts in order (lists and tables excluded). */
  paragraphs: string[];
  /** Items of every list in the section, flattened in order (nested items included, plain text). */
  listItems: string[];
  tables: Table[];
  code: CodeBlock[];
  links: WikiLink[];
}

export interface ParsedMarkdown {
  /** Text of the first depth-1 heading, if any. */
  title: string | null;
  /** Content before the first heading (after front-matter), as a pseudo-section with heading ''. */
  preamble: Section;
  /** Every heading in document order (the `#` title included, at depth 1). */
  sections: Section[];
}

export interface FrontMatterResult {
  /** Parsed YAML mapping; null when the file has no front-matter block. */
  data: Record<string, unknown> | null;
  /** The Markdown after the front-matter block. */
  body: string;
}

export interface GherkinStep {
  keyword: string;
  text: string;
  docString: string | null;
  table: string[][] | null;
}

/** An `Examples:` / `Ejemplos:` block of a scenario outline: the values its `<placeholders>` take. */
export interface GherkinExamples {
  name: string;
  tags: string[];
  /** Header row first, cells as written (escapes resolved). */
  table: string[][];
}

export interface GherkinScenario {
  /** `SCN-IndexEntity-001` when the scenario name starts with such an id, else null. */
  id: string | null;
  name: string;
  keyword: string;
  tags: string[];
  steps: GherkinStep[];
  /** Examples tables of a scenario outline; absent when the scenario has none. */
  examples?: GherkinExamples[];
  /** Wiki-links and id-like references (`UC-001`, `BR-X-001`, `CMD-004`) found in name, tags and steps. */
  links: WikiLink[];
}

export interface GherkinFeature {
  /** `# language: es` value, default `en`. */
  language: string;
  name: string;
  description: string;
  tags: string[];
  background: GherkinStep[];
  scenarios: GherkinScenario[];
  /** Links found in feature tags, description and background. */
  links: WikiLink[];
}
