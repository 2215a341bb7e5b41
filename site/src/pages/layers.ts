/**
 * `#/layers?focus=ID`: the layers as columns, lowest (requirements) on the left, each with its kinds
 * and node counts. References should point left, down the hierarchy; every layer violation
 * (BR-LAYER-001) is an arrow pointing right, the wrong way. The same violations are listed below as
 * a table (the arrows are decoration for sighted readers; the table is what a screen reader reads).
 */
import { h, layerClass, nodeHref, s } from '../dom.js';
import type { LayerMap, MapNode } from '../../../formats/site-bundle.js';

export function renderLayerMap(map: LayerMap, focus: string | null): HTMLElement {
  const ends = new Set(map.violations.flatMap((v) => [v.from.id, v.to.id]));
  const chip = (node: MapNode) =>
    h('li', {}, h('a', { href: nodeHref(node.id), class: `map-node${node.id === focus ? ' focused' : ''}${ends.has(node.id) ? ' in-violation' : ''}`, 'data-id': node.id, title: node.id, 'aria-current': node.id === focus ? 'true' : null }, node.title));
  return h(
    'section',
    { class: 'page layers' },
    h('h1', {}, 'Layer map'),
    h(
      'p',
      { class: 'map-summary' },
      `${map.nodes} nodes, ${map.edges} edges · `,
      h('a', { href: '#/violations', id: 'map-violations', class: map.violations.length ? 'bad' : '' }, `${map.violations.length} layer violations`),
      ' · ',
      h('a', { href: '#/health', id: 'map-dangling' }, `${map.dangling} dangling links`),
      ' · ',
      h('a', { href: '#/health', id: 'map-orphans' }, `${map.orphans} orphans`),
    ),
    h('p', { class: 'muted legend' }, 'A spec may reference specs in its own layer or the layers to its left. ', h('span', { class: 'bad' }, 'Red arrows'), ' are references that go the wrong way, to a layer on the right.'),
    h(
      'div',
      { class: 'layer-map' },
      h(
        'div',
        { class: 'layer-columns', style: `grid-template-columns: repeat(${map.layers.length}, minmax(0, 1fr))` },
        map.layers.map((layer) =>
          h(
            'section',
            { class: 'layer-column', 'data-layer': layer.layer, 'aria-label': `Layer ${layer.layer}` },
            h('h2', {}, h('span', { class: layerClass(layer.layer) }), layer.layer, h('span', { class: 'count' }, String(layer.count))),
            layer.kinds.map((kind) =>
              h(
                'div',
                { class: 'kind-box' },
                h('h3', {}, kind.kind, h('span', { class: 'count' }, String(kind.count))),
                kind.shown.length ? h('ul', { class: 'map-nodes' }, kind.shown.map(chip)) : null,
                kind.count > kind.shown.length ? h('p', { class: 'muted more' }, `${kind.count - kind.shown.length} more without violations`) : null,
              ),
            ),
          ),
        ),
      ),
      s('svg', { class: 'violation-arrows', 'aria-hidden': 'true' }),
    ),
    h('h2', {}, `Layer violations (${map.violations.length})`),
    map.violations.length
      ? h(
          'table',
          { class: 'map-violations' },
          h('thead', {}, h('tr', {}, ['From', 'To', 'Edge', 'Why'].map((c) => h('th', {}, c)))),
          h(
            'tbody',
            {},
            map.violations.map((v) => h('tr', {}, h('td', {}, h('a', { href: nodeHref(v.from.id) }, v.from.title)), h('td', {}, h('a', { href: nodeHref(v.to.id) }, v.to.title)), h('td', {}, h('code', {}, v.edge_type)), h('td', {}, v.explanation))),
          ),
        )
      : h('p', { class: 'muted' }, 'No layer violations.'),
  );
}

/**
 * Draws one arrow per violation, from the citing node to the cited one. Needs the page in the
 * document (it reads where the chips landed) and redraws when the layout changes size.
 */
export function drawLayerArrows(page: HTMLElement): void {
  const area = page.querySelector<HTMLElement>('.layer-map');
  const svg = page.querySelector<SVGSVGElement>('svg.violation-arrows');
  if (!area || !svg) return;
  const pairs = [...page.querySelectorAll<HTMLTableRowElement>('.map-violations tbody tr')].map((row) => {
    const [from, to] = [...row.querySelectorAll('a')].map((a) => decodeURIComponent(a.getAttribute('href')!.replace('#/node/', '')));
    return { from: from!, to: to! };
  });
  const draw = () => {
    if (!area.isConnected) return observer.disconnect();
    const box = area.getBoundingClientRect();
    svg.setAttribute('width', String(box.width));
    svg.setAttribute('height', String(box.height));
    svg.setAttribute('viewBox', `0 0 ${box.width} ${box.height}`);
    const chips = new Map([...area.querySelectorAll<HTMLElement>('.map-node')].map((a) => [a.dataset.id!, a.getBoundingClientRect()]));
    const marker = s('marker', { id: 'arrow-head', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' }, s('path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrow-head' }));
    const paths = pairs.flatMap(({ from, to }) => {
      const a = chips.get(from);
      const b = chips.get(to);
      if (!a || !b) return [];
      const x1 = a.right - box.left;
      const y1 = a.top + a.height / 2 - box.top;
      const x2 = b.left - box.left;
      const y2 = b.top + b.height / 2 - box.top;
      const bend = Math.max(30, (x2 - x1) / 2);
      return [s('path', { class: 'violation-arrow', d: `M${x1},${y1} C${x1 + bend},${y1} ${x2 - bend},${y2} ${x2},${y2}`, 'marker-end': 'url(#arrow-head)', 'data-from': from, 'data-to': to })];
    });
    svg.replaceChildren(s('defs', {}, marker), ...paths);
  };
  const observer = new ResizeObserver(draw);
  draw();
  observer.observe(area);
  page.querySelector<HTMLElement>('.map-node.focused')?.scrollIntoView({ block: 'center' });
}
