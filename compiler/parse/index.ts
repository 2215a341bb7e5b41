/** Parse stage: source text → plain data (see types.ts). Re-exports only. */
export type * from './types.js';
export { FrontMatterError, parseFrontMatter } from './front-matter.js';
export { parseMarkdown } from './markdown.js';
export { findIdReferences, findWikiLinks, parseWikiLink, renderWikiLinks } from './wiki-links.js';
export { mermaidKind, parseStateDiagram, type StateDiagram, type StateTransition } from './mermaid.js';
export { GherkinError, parseGherkin } from './gherkin.js';
