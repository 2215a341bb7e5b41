/**
 * `#/graph/ID?depth=1|2|3`: the neighbourhood as a force-directed picture (d3-force, loaded only on
 * this page) with edge-type and layer filters and highlight on hover. The worker answers the whole
 * neighbourhood once per depth; filters narrow it here without another request
 * (graph/walk.ts filterNeighbourhood). The layout runs a fixed number of ticks before drawing, from
 * d3-force's deterministic start, so the same graph always draws the same picture and nothing moves
 * under the pointer. The SVG is a group, not an image: its nodes are links that the keyboard and
 * screen readers reach.
 */
import type { SimulationLinkDatum, SimulationNodeDatum } from 'd3-force';
import { h, nodeHref, s } from '../dom.js';
import { filterNeighbourhood } from '../graph/walk.js';
import type { Neighbourhood, NeighbourhoodNode } from '../protocol.js';

export const DEPTHS = [1, 2, 3] as const;
const LAYER_COLOURS: Record<string, string> = {
  '00': '#8e6c8a',
  '01': '#2f7d5b',
  '02': '#2c6ca3',
  '03': '#c07a1f',
  '04': '#b0413e',
  '05': '#5b6770',
};
/** Above this many nodes only the centre and its direct neighbours carry a label (the rest on hover). */
const LABEL_ALL = 60;
const TICKS = 300;

export function layerColour(layer: string): string {
  return LAYER_COLOURS[layer.slice(0, 2)] ?? '#777';
}

interface Placed extends SimulationNodeDatum, NeighbourhoodNode {}

/** Takes the worker's answer as a promise so the layout code downloads while the worker walks. */
export async function renderGraph(answer: Promise<Neighbourhood>, depth: number): Promise<HTMLElement> {
  const [d3, result] = await Promise.all([import('d3-force'), answer]);
  const types = [...new Set(result.edges.map((e) => e.type))].sort();
  const layers = [...new Set(result.nodes.map((n) => n.layer))].sort();
  const shownTypes = new Set(types);
  const shownLayers = new Set(layers);
  const picture = h('div', { class: 'graph-picture' });
  const counts = h('span', { id: 'graph-counts' });

  const draw = () => {
    const view = filterNeighbourhood(result, depth, shownTypes, shownLayers);
    counts.textContent = `${view.nodes.length} nodes, ${view.edges.length} edges shown${result.truncated ? ` (the first ${result.nodes.length} nodes within depth ${depth})` : ''}.`;
    picture.replaceChildren(layout(d3, view, depth));
  };
  const checkbox = (name: string, set: Set<string>, value: string, label: Node | string) =>
    h(
      'label',
      { class: 'filter' },
      h('input', {
        type: 'checkbox',
        checked: true,
        'data-filter': name,
        value,
        onchange: ((event: Event) => {
          const input = event.target as HTMLInputElement;
          if (input.checked) set.add(value);
          else set.delete(value);
          draw();
        }) as EventListener,
      }),
      ' ',
      label,
    );
  draw();
  return h(
    'section',
    { class: 'page graph-page' },
    h('h1', {}, 'Neighbourhood of ', h('a', { href: nodeHref(result.center) }, result.nodes[0]?.title ?? result.center), ' ', h('code', {}, result.center)),
    h(
      'p',
      { class: 'muted' },
      'Depth: ',
      DEPTHS.map((d) => [d === depth ? h('strong', { id: `depth-${d}`, 'aria-current': 'true' }, String(d)) : h('a', { href: `#/graph/${encodeURIComponent(result.center)}?depth=${d}`, id: `depth-${d}` }, String(d)), ' ']),
      '· ',
      counts,
      ' Hover a node to see its links; click it to centre the graph on it; the centre opens its page.',
    ),
    h('fieldset', { class: 'graph-filter', id: 'edge-filter' }, h('legend', {}, 'Edge types'), types.map((t) => checkbox('edge', shownTypes, t, h('code', {}, t)))),
    h(
      'fieldset',
      { class: 'graph-filter', id: 'layer-filter' },
      h('legend', {}, 'Layers'),
      layers.map((l) => checkbox('layer', shownLayers, l, h('span', {}, h('span', { class: 'swatch', style: `background:${layerColour(l)}` }), ` ${l}`))),
    ),
    picture,
  );
}

function layout(d3: typeof import('d3-force'), view: Neighbourhood, depth: number): SVGElement {
  const nodes: Placed[] = view.nodes.map((n) => ({ ...n }));
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const centre = byId.get(view.center)!;
  centre.fx = 0;
  centre.fy = 0;
  const links: SimulationLinkDatum<Placed>[] = view.edges.map((e) => ({ source: e.from, target: e.to }));
  const simulation = d3
    .forceSimulation(nodes)
    .force('link', d3.forceLink<Placed, SimulationLinkDatum<Placed>>(links).id((n) => n.id).distance(70))
    .force('charge', d3.forceManyBody().strength(-220))
    .force('collide', d3.forceCollide(18))
    // Rings by hop distance keep the picture readable: the centre's neighbours near, the rest out.
    .force('radial', d3.forceRadial<Placed>((n) => n.distance * 150, 0, 0).strength(0.3))
    .stop();
  simulation.tick(TICKS);
  const pad = 120;
  const xs = nodes.map((n) => n.x ?? 0);
  const ys = nodes.map((n) => n.y ?? 0);
  const [minX, maxX, minY, maxY] = [Math.min(...xs) - pad, Math.max(...xs) + pad, Math.min(...ys) - 40, Math.max(...ys) + 40];
  const labelled = (n: Placed) => nodes.length <= LABEL_ALL || n.distance <= 1;
  const edgeLines = view.edges.map((e) => {
    const a = byId.get(e.from)!;
    const b = byId.get(e.to)!;
    const len = Math.hypot(b.x! - a.x!, b.y! - a.y!) || 1;
    const r = b === centre ? 12 : 8;
    return s(
      'line',
      { x1: a.x!, y1: a.y!, x2: b.x! - ((b.x! - a.x!) * r) / len, y2: b.y! - ((b.y! - a.y!) * r) / len, class: `edge${e.violation ? ' violation' : ''}`, 'data-from': e.from, 'data-to': e.to, 'data-type': e.type, 'marker-end': 'url(#arrow)' },
      s('title', {}, `${e.from} ${e.type} ${e.to}${e.violation ? ' (layer violation)' : ''}`),
    );
  });
  const svg = s(
    'svg',
    { viewBox: `${minX} ${minY} ${maxX - minX} ${maxY - minY}`, class: 'graph', role: 'group', 'aria-label': `Graph around ${view.center}` },
    s('defs', {}, s('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: '10', refY: '5', markerWidth: '6', markerHeight: '6', orient: 'auto-start-reverse' }, s('path', { d: 'M 0 0 L 10 5 L 0 10 z', fill: '#999' }))),
    s('g', { class: 'edges' }, edgeLines),
    s(
      'g',
      { class: 'nodes' },
      nodes.map((n) =>
        s(
          'a',
          { href: n === centre ? nodeHref(n.id) : `#/graph/${encodeURIComponent(n.id)}?depth=${depth}`, class: `graph-node${labelled(n) ? '' : ' quiet'}`, 'data-id': n.id },
          s('circle', { cx: n.x!, cy: n.y!, r: n === centre ? 12 : 8, fill: layerColour(n.layer) }),
          s('text', { x: n.x!, y: n.y! + (n === centre ? 28 : 22), 'text-anchor': 'middle' }, short(n.title)),
          s('title', {}, `${n.id} — ${n.title} (${n.kind}, ${n.layer})`),
        ),
      ),
    ),
  );
  highlightOnHover(svg, edgeLines as SVGLineElement[]);
  return svg;
}

/** Hovering (or focusing) a node lights it, its neighbours and its edges, and dims the rest. */
function highlightOnHover(svg: SVGElement, edges: SVGLineElement[]): void {
  const neighbours = new Map<string, { ids: Set<string>; edges: SVGLineElement[] }>();
  const entry = (id: string) => neighbours.get(id) ?? neighbours.set(id, { ids: new Set([id]), edges: [] }).get(id)!;
  for (const edge of edges) {
    const { from = '', to = '' } = edge.dataset;
    for (const [a, b] of [[from, to], [to, from]] as const) {
      entry(a).ids.add(b);
      entry(a).edges.push(edge);
    }
  }
  const clear = () => {
    svg.classList.remove('focused');
    for (const lit of svg.querySelectorAll('.lit')) lit.classList.remove('lit');
  };
  const light = (event: Event) => {
    const node = (event.target as Element).closest<SVGAElement>('.graph-node');
    if (!node) return;
    clear();
    const found = neighbours.get(node.dataset.id ?? '') ?? { ids: new Set([node.dataset.id ?? '']), edges: [] };
    svg.classList.add('focused');
    for (const other of svg.querySelectorAll<SVGAElement>('.graph-node')) if (found.ids.has(other.dataset.id ?? '')) other.classList.add('lit');
    for (const edge of found.edges) edge.classList.add('lit');
  };
  svg.addEventListener('mouseover', light);
  svg.addEventListener('focusin', light);
  svg.addEventListener('mouseleave', clear);
  svg.addEventListener('focusout', clear);
}

function short(title: string): string {
  return title.length > 26 ? `${title.slice(0, 25)}…` : title;
}
