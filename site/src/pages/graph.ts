/**
 * `#/graph/ID?depth=1|2`: the neighbourhood as an SVG with a radial layout: the root in the
 * middle, ring k holds the nodes k hops away, each ring ordered by its parent's angle then id, so
 * the same graph always draws the same picture (no random force simulation).
 */
import type { GraphResult } from '../../../runtime/queries/graph.js';
import { h, nodeHref, s } from '../dom.js';

/** Nodes drawn at most; the rest are listed as a count (a 10k tree can have hubs). */
const MAX_NODES = 120;
const SIZE = 760;
/** Wider than tall: labels sit left and right of the outer ring. */
const WIDTH = 1000;
const LAYER_COLOURS: Record<string, string> = {
  '00': '#8e6c8a',
  '01': '#2f7d5b',
  '02': '#2c6ca3',
  '03': '#c07a1f',
  '04': '#b0413e',
  '05': '#5b6770',
};

export function layerColour(layer: string): string {
  return LAYER_COLOURS[layer.slice(0, 2)] ?? '#777';
}

interface Placed {
  id: string;
  title: string;
  layer: string;
  x: number;
  y: number;
  angle: number;
  distance: number;
}

export function renderGraph(result: GraphResult, depth: number): HTMLElement {
  const center = result.center_node;
  const shown = result.related_nodes.slice(0, MAX_NODES);
  const placed = new Map<string, Placed>([[center.id, { id: center.id, title: center.title, layer: center.layer, x: WIDTH / 2, y: SIZE / 2, angle: 0, distance: 0 }]]);
  const rings = new Map<number, typeof shown>();
  for (const node of shown) rings.set(node.distance, [...(rings.get(node.distance) ?? []), node]);
  const maxRing = Math.max(1, ...rings.keys());
  for (const [distance, ring] of [...rings.entries()].sort((a, b) => a[0] - b[0])) {
    const parentAngle = (n: (typeof shown)[number]) => {
      const via = n.reached_via;
      const parent = placed.get(via.from_node === n.id ? via.to_node : via.from_node);
      return parent?.angle ?? 0;
    };
    ring.sort((a, b) => parentAngle(a) - parentAngle(b) || (a.id < b.id ? -1 : 1));
    // Rings on an ellipse (labels need width more than height); the inner ring at 60 % leaves room for labels between rings.
    const share = distance === maxRing ? 1 : (0.6 * distance) / Math.max(1, maxRing - 1);
    const rx = (WIDTH / 2 - 170) * share;
    const ry = (SIZE / 2 - 50) * share;
    ring.forEach((node, i) => {
      const angle = (2 * Math.PI * i) / ring.length - Math.PI / 2 + (distance % 2 ? 0 : Math.PI / ring.length);
      placed.set(node.id, { id: node.id, title: node.title, layer: node.layer, x: WIDTH / 2 + rx * Math.cos(angle), y: SIZE / 2 + ry * Math.sin(angle), angle, distance });
    });
  }
  const edges = result.edges.filter((e) => placed.has(e.from_node) && placed.has(e.to_node) && e.from_node !== e.to_node);
  const svg = s(
    'svg',
    { viewBox: `0 0 ${WIDTH} ${SIZE}`, class: 'graph', role: 'img', 'aria-label': `Graph around ${center.id}` },
    s('defs', {}, s('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: '10', refY: '5', markerWidth: '6', markerHeight: '6', orient: 'auto-start-reverse' }, s('path', { d: 'M 0 0 L 10 5 L 0 10 z', fill: '#999' }))),
    edges.map((e) => {
      const a = placed.get(e.from_node)!;
      const b = placed.get(e.to_node)!;
      const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
      const r = 9;
      return s('line', { x1: a.x, y1: a.y, x2: b.x - ((b.x - a.x) * r) / len, y2: b.y - ((b.y - a.y) * r) / len, class: 'edge', 'marker-end': 'url(#arrow)' }, s('title', {}, `${e.from_node} ${e.edge_type} ${e.to_node}`));
    }),
    [...placed.values()].map((p) => {
      const anchor = p.distance === 0 ? 'middle' : Math.cos(p.angle) < -0.05 ? 'end' : Math.cos(p.angle) > 0.05 ? 'start' : 'middle';
      const dx = anchor === 'start' ? 12 : anchor === 'end' ? -12 : 0;
      const dy = anchor === 'middle' ? (Math.sin(p.angle) < 0 ? -14 : 22) : 4;
      const link = s(
        'a',
        { href: p.distance === 0 ? `#/node/${encodeURIComponent(p.id)}` : `#/graph/${encodeURIComponent(p.id)}?depth=${depth}`, class: 'graph-node', 'data-id': p.id },
        s('circle', { cx: p.x, cy: p.y, r: p.distance === 0 ? 12 : 8, fill: layerColour(p.layer) }),
        s('text', { x: p.x + dx, y: p.y + (p.distance === 0 ? 30 : dy), 'text-anchor': anchor }, short(p.title)),
        s('title', {}, `${p.id} — ${p.title} (${p.layer})`),
      );
      return link;
    }),
  );
  return h(
    'section',
    { class: 'page graph-page' },
    h('h1', {}, 'Neighbourhood of ', h('a', { href: nodeHref(center.id) }, center.title), ' ', h('code', {}, center.id)),
    h(
      'p',
      { class: 'muted' },
      'Depth: ',
      [1, 2].map((d) => [d === depth ? h('strong', {}, String(d)) : h('a', { href: `#/graph/${encodeURIComponent(center.id)}?depth=${d}`, id: `depth-${d}` }, String(d)), ' ']),
      `· ${result.total_nodes} nodes, ${edges.length} edges drawn`,
      result.related_nodes.length > MAX_NODES ? ` (first ${MAX_NODES} of ${result.related_nodes.length} neighbours shown)` : '',
      '. Click a node to centre the graph on it; the centre opens its page.',
    ),
    h('div', { class: 'legend' }, Object.entries(LAYER_COLOURS).map(([prefix, colour]) => h('span', {}, h('span', { class: 'swatch', style: `background:${colour}` }), ` ${prefix} `))),
    svg,
  );
}

function short(title: string): string {
  return title.length > 26 ? `${title.slice(0, 25)}…` : title;
}
