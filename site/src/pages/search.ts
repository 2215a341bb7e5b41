/**
 * `#/search?q=&kind=&layer=`: search as you type. Keys: ↓/↑ move through the results, Enter opens
 * the selected one, `/` (anywhere) focuses the box. Only the newest answer is drawn.
 */
import type { Client } from '../client.js';
import { h, layerClass, nodeHref } from '../dom.js';
import type { Info, SearchAnswer } from '../protocol.js';

export interface SearchPage {
  element: HTMLElement;
  /** Applies a route's parameters (from the hash) and searches. */
  show(params: URLSearchParams): void;
}

export function createSearchPage(client: Client, info: Promise<Info>, input: HTMLInputElement): SearchPage {
  const kind = h('select', { 'aria-label': 'Kind', id: 'filter-kind' }, h('option', { value: '' }, 'all kinds'));
  const layer = h('select', { 'aria-label': 'Layer', id: 'filter-layer' }, h('option', { value: '' }, 'all layers'));
  const status = h('p', { class: 'muted', id: 'search-status' });
  // A plain list of links, not a listbox: options may not hold links (axe nested-interactive), and a
  // link per result keeps middle-click and copy-link working. The keyboard choice is aria-current.
  const list = h('ol', { class: 'results', id: 'results', 'aria-label': 'Results' });
  const element = h('section', { class: 'page search' }, h('div', { class: 'filters' }, kind, layer, status), list);
  void info.then((i) => {
    kind.append(...i.kinds.map((k) => h('option', { value: k }, k)));
    layer.append(...i.layers.map((l) => h('option', { value: l }, l)));
  });

  let seq = 0;
  let drawn = 0;
  let selected = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const select = (i: number) => {
    const items = [...list.children] as HTMLElement[];
    if (items.length === 0) return;
    selected = Math.max(0, Math.min(items.length - 1, i));
    items.forEach((item, j) => item.setAttribute('aria-current', String(j === selected)));
    items[selected]!.scrollIntoView({ block: 'nearest' });
  };

  const draw = (answer: SearchAnswer) => {
    selected = 0;
    list.replaceChildren(
      ...answer.rows.map((row, i) =>
        h(
          'li',
          { 'aria-current': String(i === 0), 'data-id': row.id },
          h('a', { href: nodeHref(row.id), class: 'result-title' }, h('span', { class: layerClass(row.layer) }), row.title, ' ', h('code', {}, row.id)),
          h('div', { class: 'result-meta' }, `${row.kind} · ${row.layer}${row.status ? ` · ${row.status}` : ''} · ${row.source_file}${row.section ? ` · § ${row.section}` : ''}`),
          h('p', { class: 'snippet' }, row.snippet.map(([text, hit]) => (hit ? h('mark', {}, text) : text))),
          h('p', { class: 'why' }, `Why: ${row.why.join(' · ')}`),
        ),
      ),
    );
    status.textContent = answer.q.trim().length < 3 ? 'Type at least 3 characters.' : `${answer.rows.length} results · ${answer.ms.toFixed(0)} ms${answer.fetched ? ` · ${answer.fetched} shards fetched` : ''}`;
    document.body.dataset.searched = answer.q;
    // Read by bench/scenarios/site.ts: milliseconds from navigation to the first drawn answer.
    document.body.dataset.firstResultMs ??= performance.now().toFixed(0);
  };

  const run = () => {
    const q = input.value;
    const params = new URLSearchParams({ q });
    if (kind.value) params.set('kind', kind.value);
    if (layer.value) params.set('layer', layer.value);
    // replaceState: typing must not fill the history with one entry per key.
    history.replaceState(null, '', `#/search?${params}`);
    const mine = ++seq;
    client
      .request('search', { q, kinds: kind.value ? [kind.value] : [], layers: layer.value ? [layer.value] : [] })
      .then((answer) => {
        if (mine < drawn) return;
        drawn = mine;
        draw(answer);
      })
      .catch((error: Error) => {
        if (mine >= drawn) status.textContent = error.message;
      });
  };
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(run, 40);
  };

  input.addEventListener('input', () => {
    if (!location.hash.startsWith('#/search')) history.pushState(null, '', '#/search');
    if (!element.isConnected) window.dispatchEvent(new HashChangeEvent('hashchange'));
    schedule();
  });
  kind.addEventListener('change', run);
  layer.addEventListener('change', run);
  input.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      select(selected + (event.key === 'ArrowDown' ? 1 : -1));
    } else if (event.key === 'Enter') {
      const id = (list.children[selected] as HTMLElement | undefined)?.dataset.id;
      if (id) location.hash = nodeHref(id);
    }
  });

  return {
    element,
    show(params) {
      const q = params.get('q') ?? input.value;
      input.value = q;
      kind.value = params.get('kind') ?? '';
      layer.value = params.get('layer') ?? '';
      run();
    },
  };
}
