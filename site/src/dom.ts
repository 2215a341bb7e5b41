/** A tiny element builder: enough for a few pages, no framework (#7: dependency-free site). */

type Child = Node | string | number | null | undefined | false | Child[];
type Attrs = Record<string, string | number | boolean | null | undefined | EventListener>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  setAttrs(element, attrs);
  append(element, children);
  return element;
}

const SVG = 'http://www.w3.org/2000/svg';

export function s(tag: string, attrs: Attrs = {}, ...children: Child[]): SVGElement {
  const element = document.createElementNS(SVG, tag);
  setAttrs(element, attrs);
  append(element, children);
  return element;
}

function setAttrs(element: Element, attrs: Attrs): void {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.replace(/^on/, ''), value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
}

function append(element: Element, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(element, child);
    else element.append(typeof child === 'number' ? String(child) : child);
  }
}

/** `#/node/UC%3AUC-001` */
export function nodeHref(id: string): string {
  return `#/node/${encodeURIComponent(id)}`;
}

export function layerClass(layer: string): string {
  return `layer layer-${layer.slice(0, 2) || 'xx'}`;
}

/** A link to a node with its layer colour chip. */
export function nodeLink(node: { id: string; title: string; layer: string }, label?: string): HTMLElement {
  return h('a', { href: nodeHref(node.id), class: 'node-link', title: node.id }, h('span', { class: layerClass(node.layer) }), label ?? node.title, ' ', h('code', {}, node.id));
}

export function table(columns: string[], rows: Child[][]): HTMLTableElement {
  return h('table', {}, h('thead', {}, h('tr', {}, columns.map((c) => h('th', {}, c)))), h('tbody', {}, rows.map((row) => h('tr', {}, row.map((cell) => h('td', {}, cell))))));
}
