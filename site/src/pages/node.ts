/**
 * `#/node/ID`: the spec as its author wrote it (a document piece, site/src/document.ts) beside a
 * panel with the node's facts, its place in the layer hierarchy, what references it and what it
 * links to (grouped by edge type), and its extracted fields. Without a piece the extracted fields
 * take the main column, rendered by shape (text, lists, tables, state machines).
 */
import { LAYERS } from '../../../model/graph.js';
import type { DocPiece } from '../../../formats/site-docs.js';
import { documentElement, sanitized } from '../document.js';
import { h, layerClass, nodeHref, nodeLink, table } from '../dom.js';
import type { EdgeView, NodeView } from '../../../formats/site-bundle.js';

/** Fields drawn as ordered lists (steps happen in order). */
const ORDERED = /flow|flujo|steps|pasos|main|alternat|exception/i;
const WIKI = /\[\[([^\]|#]+)(?:#[^\]|]*)?(?:\|([^\]]+))?\]\]/g;

export function renderNode(view: NodeView, doc: DocPiece | null): HTMLElement {
  const { node } = view;
  const fields = Object.keys(node.indexed_fields).sort((a, b) => order(a) - order(b) || (a < b ? -1 : 1));
  const fieldSections = fields.map((name) => h('section', { class: 'field' }, h('h3', {}, label(name)), value(name, node.indexed_fields[name], view.links)));
  return h(
    'article',
    { class: 'page node' },
    h('header', { class: 'node-head' }, h('h1', {}, h('span', { class: layerClass(node.layer) }), node.title), h('code', { class: 'node-id' }, node.id)),
    h(
      'nav',
      { class: 'node-actions', 'aria-label': 'Views of this node' },
      h('a', { href: `#/graph/${encodeURIComponent(node.id)}?depth=1`, id: 'open-graph' }, 'Neighbourhood graph'),
      ' · ',
      h('a', { href: `#/impact/${encodeURIComponent(node.id)}`, id: 'open-impact' }, 'Impact of a change'),
      ' · ',
      h('a', { href: `#/layers?focus=${encodeURIComponent(node.id)}`, id: 'open-layers' }, 'Layer map'),
    ),
    h(
      'div',
      { class: 'node-body' },
      doc
        ? h('div', { class: 'document' }, frontMatter(doc), documentElement(doc))
        : h('div', { class: 'document fields-only' }, fieldSections.length ? fieldSections : node.sections.map((section) => h('section', { class: 'field' }, h('h3', {}, section.heading), h('p', {}, section.text)))),
      h(
        'aside',
        { class: 'side', 'aria-label': 'About this node' },
        h(
          'dl',
          { class: 'facts' },
          fact('Kind', node.kind),
          fact('Status', node.status || '—'),
          fact('Source', h('code', {}, node.source_file)),
          node.domain ? fact('Domain', node.domain) : null,
          node.aliases.length ? fact('Aliases', node.aliases.join(', ')) : null,
          node.tags.length ? fact('Tags', node.tags.join(', ')) : null,
        ),
        layerPlace(view),
        edgeGroups('Referenced by', 'incoming', view.incoming),
        edgeGroups('Links to', 'outgoing', view.outgoing),
        view.dangling.length ? h('section', { class: 'side-part' }, h('h2', {}, `Dangling links (${view.dangling.length})`), h('ul', {}, view.dangling.map((t) => h('li', { class: 'bad' }, `[[${t}]]`)))) : null,
        doc && fieldSections.length ? h('details', { class: 'side-part extracted', id: 'extracted-fields' }, h('summary', {}, `Extracted fields (${fields.length})`), fieldSections) : null,
      ),
    ),
  );
}

/** Front-matter as a small header above the document, keys as written. */
function frontMatter(doc: DocPiece): HTMLElement | null {
  if (doc.front.length === 0) return null;
  return h('dl', { class: 'front-matter', 'aria-label': 'Front-matter' }, doc.front.map(([key, html]) => h('div', {}, h('dt', {}, key), h('dd', {}, sanitized(html)))));
}

/**
 * Where the node sits in the layer hierarchy: every layer, this one marked, with how many of its
 * links go to and come from each, and how many of its links go up the hierarchy (layer violations).
 */
function layerPlace(view: NodeView): HTMLElement {
  const count = (edges: EdgeView[], layer: string) => edges.filter((e) => e.other.layer === layer).length;
  return h(
    'section',
    { class: 'side-part layer-place' },
    h('h2', {}, 'Place in the layers'),
    h(
      'ol',
      { class: 'layer-ladder' },
      LAYERS.map((layer) => {
        const out = count(view.outgoing, layer);
        const inc = count(view.incoming, layer);
        const wrongWay = view.outgoing.filter((e) => e.layer_violation && e.other.layer === layer).length;
        const here = layer === view.node.layer;
        return h(
          'li',
          { class: here ? 'here' : null, 'aria-current': here ? 'true' : null },
          h('span', { class: layerClass(layer) }),
          h('span', { class: 'layer-name' }, layer),
          here ? h('strong', {}, ' ← this node') : null,
          out || inc ? h('span', { class: 'muted' }, ` ${out ? `${out} linked` : ''}${out && inc ? ', ' : ''}${inc ? `${inc} referencing` : ''}`) : null,
          wrongWay ? h('span', { class: 'bad' }, ` (${wrongWay} against the hierarchy)`) : null,
        );
      }),
    ),
  );
}

function fact(name: string, value: string | Node): HTMLElement[] {
  return [h('dt', {}, name), h('dd', {}, value)];
}

/** Description-like fields first. */
function order(name: string): number {
  return ['description', 'purpose', 'declaration', 'problem', 'objective', 'context', 'decision'].includes(name) ? 0 : 1;
}

function label(name: string): string {
  const text = name.replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function value(name: string, v: unknown, links: Record<string, string>): Node {
  if (v === null || v === undefined || v === '') return h('p', { class: 'muted' }, '—');
  if (typeof v === 'string') return h('p', {}, inline(v, links));
  if (typeof v !== 'object') return h('p', {}, String(v));
  if (Array.isArray(v)) {
    if (v.every((item) => item && typeof item === 'object' && !Array.isArray(item))) return records(v as Record<string, unknown>[], links);
    const items = v.map((item) => h('li', {}, typeof item === 'string' ? inline(item, links) : value(name, item, links)));
    return ORDERED.test(name) ? h('ol', {}, items) : h('ul', {}, items);
  }
  const object = v as Record<string, unknown>;
  if (Array.isArray(object.transitions)) return stateMachine(object, links);
  return h('dl', { class: 'nested' }, Object.keys(object).sort().map((key) => [h('dt', {}, label(key)), h('dd', {}, value(key, object[key], links))]));
}

function records(rows: Record<string, unknown>[], links: Record<string, string>): HTMLElement {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  // Name-like columns first, as the spec tables write them.
  columns.sort((a, b) => rank(a) - rank(b));
  return table(columns.map(label), rows.map((row) => columns.map((c) => cell(row[c], links))));
}

function rank(column: string): number {
  const i = ['name', 'code', 'relation', 'target', 'type', 'cardinality'].indexOf(column);
  return i < 0 ? 10 : i;
}

function cell(v: unknown, links: Record<string, string>): Node | string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return h('span', {}, inline(v, links));
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

function stateMachine(machine: Record<string, unknown>, links: Record<string, string>): HTMLElement {
  const states = Array.isArray(machine.states) ? (machine.states as string[]) : [];
  const transitions = machine.transitions as Record<string, string | null>[];
  return h(
    'div',
    { class: 'state-machine' },
    states.length ? h('p', {}, 'States: ', states.map((state, i) => [i ? ' → ' : '', h('code', {}, state)])) : null,
    table(
      ['From', 'To', 'On event'],
      transitions.map((t) => [h('code', {}, t.from ?? ''), h('code', {}, t.to ?? ''), t.event ? h('span', {}, inline(t.event, links)) : h('span', { class: 'muted' }, t.label ?? '—')]),
    ),
  );
}

/** Text with `[[wiki-links]]` and whole-id mentions turned into links when the node links there. */
function inline(text: string, links: Record<string, string>): (Node | string)[] {
  const whole = links[text.trim()];
  if (whole) return [h('a', { href: nodeHref(whole) }, text)];
  const out: (Node | string)[] = [];
  let at = 0;
  for (const m of text.matchAll(WIKI)) {
    const start = m.index ?? 0;
    if (start > at) out.push(text.slice(at, start));
    const target = m[1]!.trim();
    const id = links[target];
    out.push(id ? h('a', { href: nodeHref(id) }, m[2] ?? target) : h('span', { class: 'bad', title: 'unresolved link' }, m[2] ?? target));
    at = start + m[0].length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

function edgeGroups(title: string, id: string, edges: EdgeView[]): HTMLElement {
  const byType = new Map<string, EdgeView[]>();
  for (const edge of edges) byType.set(edge.edge_type, [...(byType.get(edge.edge_type) ?? []), edge]);
  const types = [...byType.keys()].sort();
  return h(
    'section',
    { class: 'side-part edges', id: `edges-${id}` },
    h('h2', {}, `${title} (${edges.length})`),
    edges.length === 0 ? h('p', { class: 'muted' }, 'None.') : null,
    types.map((type) =>
      h(
        'div',
        { class: 'edge-group' },
        h('h3', {}, h('code', {}, type), h('span', { class: 'muted' }, ` ${byType.get(type)!.length}`)),
        h('ul', {}, byType.get(type)!.map((edge) => h('li', { class: edge.layer_violation ? 'violation' : '' }, nodeLink(edge.other), edge.section ? h('span', { class: 'muted' }, ` § ${edge.section}`) : null, edge.layer_violation ? h('span', { class: 'bad' }, ' layer violation') : null))),
      ),
    ),
  );
}
