/**
 * The page: hash routes, the header search box, and one worker that answers every query.
 * Routes: `#/search?q=`, `#/node/ID?section=`, `#/graph/ID?depth=1|2|3`, `#/impact/ID`, `#/layers?focus=ID`,
 * `#/violations`, `#/health`.
 */
import { createClient, QueryError } from './client.js';
import { followDevStatus } from './dev-reload.js';
import { h } from './dom.js';
import { renderGraph } from './pages/graph.js';
import { renderHealth, renderImpact, renderViolations } from './pages/reports.js';
import { createSearchPage } from './pages/search.js';

// The page's folder: kdd.json and the bundles sit next to index.html, wherever that is served from.
const base = new URL('.', location.href.split('#')[0]).href;
const client = createClient(base);
followDevStatus(base);
const main = document.getElementById('main')!;
const input = document.getElementById('q') as HTMLInputElement;
const infoLine = document.getElementById('index-info')!;
const info = client.request('info', {});
const searchPage = createSearchPage(client, info, input);

info.then(
  (i) => (infoLine.textContent = `${i.nodes} nodes · ${i.edges} edges · ${i.index_level}`),
  (error: Error) => show(failure(error)),
);

let route = 0;

async function render(): Promise<void> {
  const mine = ++route;
  const hash = location.hash.slice(1) || '/search';
  const [path = '', query = ''] = hash.split('?');
  const params = new URLSearchParams(query);
  const [, page = 'search', ...rest] = path.split('/');
  const id = decodeURIComponent(rest.join('/'));
  document.body.dataset.page = page;
  if (page === 'search') {
    show(searchPage.element);
    searchPage.show(params);
    return;
  }
  show(h('p', { class: 'muted loading' }, 'Loading…'));
  try {
    const { element, shown } = await load(page, id, params);
    if (mine !== route) return;
    show(element);
    // Read by bench/scenarios/site.ts: milliseconds from navigation to the first drawn page.
    document.body.dataset.firstViewMs ??= performance.now().toFixed(0);
    await shown?.();
  } catch (error) {
    if (mine === route) show(failure(error as Error));
  }
}

/** A page, and what to do once it is in the document (draw diagrams and arrows: they need layout). */
interface Loaded {
  element: HTMLElement;
  shown?: () => Promise<void> | void;
}

async function load(page: string, id: string, params: URLSearchParams): Promise<Loaded> {
  switch (page) {
    case 'node': {
      // Code-split: the document sanitizer is not part of the first search's download. The document
      // piece and the graph facts come from different files: fetch them at once.
      const [{ renderNode }, { drawDiagrams, scrollToSection }, view, doc] = await Promise.all([import('./pages/node.js'), import('./document.js'), client.request('node', { id }), client.request('doc', { id })]);
      const element = renderNode(view, doc);
      return {
        element,
        shown: async () => {
          scrollToSection(element, params.get('section'));
          await drawDiagrams(element);
        },
      };
    }
    case 'layers': {
      const [{ drawLayerArrows, renderLayerMap }, map] = await Promise.all([import('./pages/layers.js'), client.request('layers', {})]);
      const element = renderLayerMap(map, params.get('focus'));
      return { element, shown: () => drawLayerArrows(element) };
    }
    default:
      return { element: await loadReport(page, id, params) };
  }
}

async function loadReport(page: string, id: string, params: URLSearchParams): Promise<HTMLElement> {
  switch (page) {
    case 'graph': {
      const depth = Math.min(3, Math.max(1, Number(params.get('depth')) || 1));
      return await renderGraph(client.request('graph', { id, depth }), depth);
    }
    case 'impact':
      return renderImpact(await client.request('impact', { id }));
    case 'violations':
      return renderViolations(await client.request('violations', {}));
    case 'health':
      return renderHealth(await client.request('health', {}));
    default:
      return h('p', {}, `Unknown page '${page}'. `, h('a', { href: '#/search' }, 'Search'));
  }
}

function show(element: HTMLElement): void {
  main.replaceChildren(element);
  document.body.dataset.ready = String(route);
}

function failure(error: Error): HTMLElement {
  const code = error instanceof QueryError ? `${error.code}: ` : '';
  return h('div', { class: 'page error' }, h('h1', {}, 'Cannot show this page'), h('p', {}, code + error.message));
}

window.addEventListener('hashchange', () => void render());
document.addEventListener('keydown', (event) => {
  const target = event.target as HTMLElement;
  const typing = target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement;
  if (event.key === '/' && !typing) {
    event.preventDefault();
    input.focus();
    input.select();
  } else if (event.key === 'Escape' && target === input) {
    input.blur();
  }
});
void render();
