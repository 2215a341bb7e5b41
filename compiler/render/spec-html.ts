/**
 * A spec as its author wrote it, as HTML for the docs site (#18): Markdown through markdown-it,
 * Gherkin through our own parser. Wiki-links resolve with the compiler's resolver, so a link in the
 * prose goes where the graph's edge goes. Raw HTML in a spec is shown as text (markdown-it `html:
 * false`) and markdown-it refuses `javascript:`/`vbscript:`/`data:` link targets: the output holds
 * only tags markdown-it itself writes. The browser sanitizes it once more before inserting it.
 */
import MarkdownIt from 'markdown-it';
import { SECTION_ID_PREFIX } from '../../formats/site-docs.js';
import { slug } from '../embed/chunk.js';
import { LINK_KEYS } from '../kinds/markdown.js';
import { dialectFor } from '../parse/gherkin-dialects.js';
import { parseGherkin } from '../parse/gherkin.js';
import type { GherkinExamples, GherkinStep } from '../parse/types.js';
import { parseWikiLink } from '../parse/wiki-links.js';

/** Where a wiki-link goes: a node id, or null when nothing resolves (a dangling link). */
export type ResolveLink = (target: string, explicitDomain: string | null) => string | null;

export interface RenderContext {
  /** The node being rendered: `[[#Section]]` links point into it. */
  nodeId: string;
  /** Its title: the page shows it as its heading, so a leading `# Title` is dropped when equal, else kept as a subtitle. */
  title: string;
  resolve: ResolveLink;
}

export interface RenderedSpec {
  html: string;
  /** Mermaid diagrams in the document: the page loads the diagram renderer only when this is > 0. */
  diagrams: number;
}

/** `#/node/ID` or `#/node/ID?section=slug`: the site's hash routes. */
export function nodeRoute(id: string, section: string | null = null): string {
  return `#/node/${encodeURIComponent(id)}${section ? `?section=${encodeURIComponent(sectionSlug(section))}` : ''}`;
}

/** Heading anchor: accents folded, lower case, words joined by `-` (`Descripción` → `descripcion`). */
export function sectionSlug(heading: string): string {
  return slug(heading, '-');
}

export function renderMarkdown(body: string, context: RenderContext): RenderedSpec {
  const env: Env = { context, diagrams: 0 };
  const html = markdown.render(body, env);
  return { html, diagrams: env.diagrams };
}

/** markdown-it's per-render `env`: a type alias, so it fits markdown-it's open `Env` record. */
type Env = {
  context: RenderContext;
  diagrams: number;
};

type InlineRule = Parameters<Markdown['inline']['ruler']['before']>[2];
type Markdown = InstanceType<typeof MarkdownIt>;

function createMarkdown(): Markdown {
  const md = new MarkdownIt('default', { html: false, linkify: false, typographer: false });
  md.inline.ruler.before('link', 'wiki_link', wikiLinkRule);
  md.renderer.rules.wiki_link = (tokens, index, _options, env) => wikiLinkHtml(tokens[index]!.content, (env as Env).context);
  md.core.ruler.push('kdd_headings', (state) => {
    const tokens = state.tokens;
    const { context } = state.env as Env;
    // The page prints the node's title as its one h1; the document's own `# Title` would repeat it
    // (or, as `# UC-001 — IndexDocument`, say it again with more words: kept as a subtitle).
    if (tokens[0]?.type === 'heading_open' && tokens[0].tag === 'h1') {
      if (tokens[1]?.content.trim() === context.title.trim()) tokens.splice(0, 3);
      else {
        Object.assign(tokens[0], { type: 'paragraph_open', tag: 'p' }).attrSet('class', 'doc-title');
        Object.assign(tokens[2]!, { type: 'paragraph_close', tag: 'p' });
      }
    }
    const used = new Map<string, number>();
    for (let i = 0; i < tokens.length; i++) {
      if (tokens[i]!.type !== 'heading_open') continue;
      const slug = sectionSlug(plainText(tokens[i + 1]!.content));
      const seen = used.get(slug) ?? 0;
      used.set(slug, seen + 1);
      tokens[i]!.attrSet('id', SECTION_ID_PREFIX + (seen ? `${slug}-${seen}` : slug));
    }
  });
  const fence = md.renderer.rules.fence!;
  md.renderer.rules.fence = (tokens, index, options, env, self) => {
    const token = tokens[index]!;
    if (token.info.trim().split(/\s+/)[0]?.toLowerCase() !== 'mermaid') return fence(tokens, index, options, env, self);
    (env as Env).diagrams++;
    // Drawn in the browser (mermaid, loaded only on pages that have one); the source stays readable until then.
    return `<pre class="mermaid">${md.utils.escapeHtml(token.content)}</pre>\n`;
  };
  return md;
}

/** `[[...]]` as one token, before markdown-it's own `[text](url)` rule sees the brackets. */
const wikiLinkRule: InlineRule = (state, silent) => {
  const { src, pos } = state;
  if (src.charCodeAt(pos) !== 0x5b || src.charCodeAt(pos + 1) !== 0x5b) return false;
  const close = src.indexOf(']]', pos + 2);
  if (close < 0 || close > state.posMax) return false;
  const inner = src.slice(pos + 2, close);
  if (/[[\]\n]/.test(inner)) return false;
  if (!silent) state.push('wiki_link', '', 0).content = inner;
  state.pos = close + 2;
  return true;
};

const markdown = createMarkdown();

function wikiLinkHtml(inner: string, context: RenderContext): string {
  const link = parseWikiLink(inner);
  const label = escapeHtml(link.alias ?? link.target ?? link.anchor ?? inner);
  if (link.target === null) return link.anchor === null ? escapeHtml(`[[${inner}]]`) : `<a class="wiki" href="${escapeHtml(nodeRoute(context.nodeId, link.anchor))}">${label}</a>`;
  const id = context.resolve(link.target, link.domain);
  if (id === null) return `<span class="wiki dangling" title="Dangling link: nothing is called ${escapeHtml(link.target)}">${label}</span>`;
  return `<a class="wiki" href="${escapeHtml(nodeRoute(id, link.anchor))}" data-node="${escapeHtml(id)}">${label}</a>`;
}

/**
 * Front-matter as `[key, html]` pairs in file order. Values of the keys the compiler links
 * (`related`, `depends_on`, …) become links, or dangling marks for the authored-reference keys.
 */
export function renderFrontMatter(data: Record<string, unknown>, context: RenderContext): [key: string, html: string][] {
  return Object.entries(data).map(([key, value]) => {
    const origin = LINK_KEYS[key];
    const items = Array.isArray(value) ? value.map(frontText) : [frontText(value)];
    if (!origin) return [key, escapeHtml(items.join(', '))];
    return [
      key,
      items
        .map((item) => {
          const inner = /^\[\[(.*)\]\]$/.exec(item)?.[1] ?? item;
          const target = parseWikiLink(inner).target;
          // `source: PRD` style values are free text unless they resolve.
          return origin === 'id' && (target === null || context.resolve(target, parseWikiLink(inner).domain) === null) ? escapeHtml(item) : wikiLinkHtml(inner, context);
        })
        .join(', '),
    ];
  });
}

function frontText(value: unknown): string {
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (Array.isArray(value)) return value.map(frontText).join(', ');
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return String(value ?? '');
}

/** Heading text without wiki-link brackets or inline marks, for its slug. */
function plainText(source: string): string {
  return source.replace(/\[\[([^\]]*)\]\]/g, (_, inner: string) => {
    const link = parseWikiLink(inner);
    return link.alias ?? link.target ?? link.anchor ?? '';
  }).replace(/[`*_~]/g, '');
}

function escapeHtml(text: string): string {
  return markdown.utils.escapeHtml(text);
}

/** Inline Markdown (bold, code, wiki-links) of one Gherkin line. */
function inline(text: string, env: Env): string {
  return markdown.renderInline(text, env);
}

/** A `.feature` file as its feature, background and scenarios, each step with its keyword. */
export function renderFeature(source: string, context: RenderContext): RenderedSpec {
  const feature = parseGherkin(source);
  const env: Env = { context, diagrams: 0 };
  const dialect = dialectFor(feature.language);
  const parts: string[] = [];
  parts.push(`<section class="gherkin-feature">`);
  if (feature.tags.length) parts.push(tags(feature.tags));
  parts.push(`<h2 id="${SECTION_ID_PREFIX}feature"><span class="keyword">${escapeHtml(dialect.feature[0]!)}:</span> ${inline(feature.name, env)}</h2>`);
  if (feature.description.trim()) parts.push(feature.description.trim().split(/\n\s*\n/).map((p) => `<p class="description">${inline(p.trim(), env)}</p>`).join(''));
  if (feature.background.length) parts.push(`<section class="gherkin-background"><h3 id="${SECTION_ID_PREFIX}background"><span class="keyword">${escapeHtml(dialect.background[0]!)}:</span></h3>${steps(feature.background, env)}</section>`);
  const used = new Map<string, number>();
  for (const scenario of feature.scenarios) {
    const slug = sectionSlug(scenario.id ?? scenario.name);
    const seen = used.get(slug) ?? 0;
    used.set(slug, seen + 1);
    parts.push(
      `<section class="gherkin-scenario">`,
      scenario.tags.length ? tags(scenario.tags) : '',
      `<h3 id="${SECTION_ID_PREFIX}${seen ? `${slug}-${seen}` : slug}"><span class="keyword">${escapeHtml(scenario.keyword)}:</span> ${inline(scenario.name, env)}</h3>`,
      steps(scenario.steps, env),
      (scenario.examples ?? []).map((examples) => examplesHtml(examples, env)).join(''),
      `</section>`,
    );
  }
  parts.push(`</section>`);
  return { html: parts.join('\n'), diagrams: 0 };
}

function tags(list: readonly string[]): string {
  return `<p class="gherkin-tags">${list.map((tag) => `<code>${escapeHtml(tag.startsWith('@') ? tag : `@${tag}`)}</code>`).join(' ')}</p>`;
}

function steps(list: readonly GherkinStep[], env: Env): string {
  const items = list.map((step) => {
    const docString = step.docString === null ? '' : `<pre><code>${escapeHtml(step.docString)}</code></pre>`;
    const table = step.table ? tableHtml(step.table, env) : '';
    return `<li><span class="keyword">${escapeHtml(step.keyword.trim())}</span> ${inline(step.text, env)}${docString}${table}</li>`;
  });
  return `<ol class="gherkin-steps">${items.join('')}</ol>`;
}

function examplesHtml(examples: GherkinExamples, env: Env): string {
  return `<div class="gherkin-examples"><h4>${escapeHtml(examples.name || 'Examples')}</h4>${tableHtml(examples.table, env)}</div>`;
}

/** First row as the header, as Gherkin tables are written. */
function tableHtml(rows: readonly string[][], env: Env): string {
  const [head = [], ...body] = rows;
  const row = (cells: readonly string[], tag: 'th' | 'td') => `<tr>${cells.map((cell) => `<${tag}>${inline(cell, env)}</${tag}>`).join('')}</tr>`;
  return `<table><thead>${row(head, 'th')}</thead><tbody>${body.map((cells) => row(cells, 'td')).join('')}</tbody></table>`;
}
