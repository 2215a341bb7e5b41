/**
 * A node's rendered spec on the page: the piece's HTML sanitized once more with DOMPurify (the
 * piece is a file on a static host; nothing in it may run), then its Mermaid diagrams drawn as SVG.
 * The diagram renderer is large, so it is imported only when a page has a diagram.
 */
import DOMPurify from 'dompurify';
import { SECTION_ID_PREFIX, type DocPiece } from '../../formats/site-docs.js';
import { h } from './dom.js';

const DIAGRAM = 'pre.mermaid';

export function documentElement(doc: DocPiece): HTMLElement {
  return h('div', { class: `spec spec-${doc.format}`, 'data-source': doc.source_file }, sanitized(doc.html));
}

/** HTML from a piece as nodes, with anything that could run removed. */
export function sanitized(html: string): DocumentFragment {
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true }, FORBID_ATTR: ['style'], RETURN_DOM_FRAGMENT: true });
}

/** Draws the diagrams under `root` (which must be in the document: the renderer measures text). */
export async function drawDiagrams(root: HTMLElement): Promise<void> {
  const nodes = [...root.querySelectorAll<HTMLElement>(DIAGRAM)];
  if (nodes.length === 0) return;
  const { default: mermaid } = await import('mermaid');
  // Specs are untrusted input: `strict` turns click handlers off, and labels are SVG text, never HTML.
  const dark = matchMedia('(prefers-color-scheme: dark)').matches;
  // dagre: mermaid 12 defaults to ELK, a 1.5 MB layout engine a spec's small diagrams do not need.
  mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', htmlLabels: false, layout: 'dagre', theme: dark ? 'dark' : 'default', themeVariables: dark ? { edgeLabelBackground: '#15191d' } : {} });
  for (const node of nodes) {
    try {
      await mermaid.run({ nodes: [node] });
      node.classList.add('drawn');
    } catch (error) {
      // The source stays visible as written, with the reason beside it.
      node.classList.add('not-drawn');
      node.title = `Diagram not drawn: ${(error as Error).message}`;
    }
  }
}

/** Scrolls to the heading `[[Node#Section]]` pointed at (`#/node/ID?section=slug`). */
export function scrollToSection(root: HTMLElement, slug: string | null): void {
  if (!slug) return;
  const target = root.querySelector<HTMLElement>(`[id="${SECTION_ID_PREFIX}${CSS.escape(slug)}"]`);
  if (!target) return;
  target.scrollIntoView({ block: 'start' });
  target.classList.add('targeted');
}
