/**
 * The static site (#7) end to end in headless Chromium: build the `kinds` fixture, write the site
 * next to its bundle, serve the folder with `kdd serve`'s server, then search, open a node, follow
 * an edge, open the graph and impact views, violations and health. Screenshots go to
 * test/artifacts/site/ (git-ignored) for a person to look at.
 *
 * Needs /usr/bin/chromium (`apt-get install -y chromium`); skips with a message without it.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { build as viteBuild } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../compiler/pipeline.js';
import { writeSite } from '../../library/site.js';
import { createServer, type KddServer } from '../../server/http.js';
import { CHROMIUM, hasChromium as chromiumPresent, launchChromium, type Chromium } from './_chromium.js';

const ARTIFACTS = resolve('test/artifacts/site');
const hasChromium = chromiumPresent();
if (!hasChromium) console.warn(`site.e2e: skipped, ${CHROMIUM} is absent (apt-get install -y chromium)`);

describe.skipIf(!hasChromium)('static site in Chromium', () => {
  let work: string;
  let server: KddServer;
  let browser: Chromium;
  let page: Page;
  let url: string;
  const errors: string[] = [];

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'kdd-site-e2e-'));
    const dist = join(work, 'dist');
    await viteBuild({ configFile: resolve('site/vite.config.ts'), logLevel: 'warn', build: { outDir: join(work, 'app') } });
    await build({ specsDir: 'test/fixtures/kinds', outDir: dist, indexDir: join(work, 'idx') });
    await writeSite(dist, { appDir: join(work, 'app') });
    server = createServer({ dir: dist, log: () => undefined });
    // A sub-path, as on a static host: every URL the site uses must be relative.
    ({ url } = await server.listen(0));
    await mkdir(ARTIFACTS, { recursive: true });
    browser = await launchChromium();
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
  const waitPage = (name: string) => page.waitForFunction((p) => document.body.dataset.page === p && !document.querySelector('.loading'), name);

  it('finds the use case first when typing "crear pedido"', async () => {
    await page.goto(`${url}/`);
    await page.waitForFunction(() => /nodes/.test(document.getElementById('index-info')?.textContent ?? ''));
    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('q');
    await page.keyboard.type('crear pedido', { delay: 20 });
    await page.waitForFunction(() => document.body.dataset.searched === 'crear pedido');
    const ids = await page.$$eval('#results li', (items) => items.map((li) => (li as HTMLElement).dataset.id));
    expect(ids[0]).toBe('UC:UC-001');
    expect(ids).toContain('CMD:CMD-001');
    const marks = await page.$$eval('#results li:first-child mark', (found) => found.map((m) => m.textContent?.toLowerCase() ?? ''));
    expect(marks.some((m) => m.includes('pedido'))).toBe(true);
    // Each result says why it ranked, in the words `--explain` uses at the other doors.
    expect(await page.textContent('#results li:first-child .why')).toMatch(/^Why: matched: crear \([^)]*title[^)]*\); pedido \([^)]*title/);
    expect(page.url()).toContain('#/search?q=crear+pedido');
    await shot('01-search');
  });

  it('moves through results with the arrow keys and opens one with Enter', async () => {
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    expect(await page.$eval('#results li[aria-current="true"]', (li) => (li as HTMLElement).dataset.id)).toBe('UC:UC-001');
    await page.keyboard.press('Enter');
    await waitPage('node');
    expect(await page.textContent('h1')).toContain('CrearPedido');
    expect(await page.textContent('main')).toContain('Main flow');
    expect(await page.$$eval('main ol li', (items) => items.length)).toBeGreaterThanOrEqual(3);
    await shot('02-node-use-case');
  });

  it('follows an outgoing edge to the command', async () => {
    await page.click('#edges-outgoing a[href="#/node/CMD%3ACMD-001"]');
    await page.waitForFunction(() => document.querySelector('.node-id')?.textContent === 'CMD:CMD-001');
    await waitPage('node');
    expect(await page.textContent('main')).toContain('EMPTY_CART');
    await shot('03-node-command');
  });

  it('renders the entity with its attribute table and state machine', async () => {
    await page.goto(`${url}/#/node/Entity%3APedido`);
    await page.waitForFunction(() => document.querySelector('.node-id')?.textContent === 'Entity:Pedido');
    const text = await page.textContent('main');
    expect(text).toContain('borrador');
    expect(await page.$$eval('.state-machine tbody tr', (rows) => rows.length)).toBe(3);
    await shot('04-node-entity');
  });

  it('draws the neighbourhood graph and re-centres on click', async () => {
    await page.click('#open-graph');
    await waitPage('graph');
    expect(await page.$$eval('svg.graph .graph-node', (nodes) => nodes.length)).toBeGreaterThan(3);
    await shot('05-graph-depth-1');
    await page.click('#depth-2');
    await page.waitForFunction(() => location.hash.endsWith('depth=2') && !!document.querySelector('svg.graph'));
    await shot('06-graph-depth-2');
    await page.click('svg.graph a[data-id="UC:UC-001"] circle');
    await page.waitForFunction(() => decodeURIComponent(location.hash).startsWith('#/graph/UC:UC-001'));
  });

  it('filters the graph by edge type and layer, and walks up to depth 3', async () => {
    await page.goto(`${url}/#/graph/Entity%3APedido?depth=1`);
    await waitPage('graph');
    const drawn = () => page.$$eval('svg.graph .graph-node', (nodes) => nodes.map((n) => (n as SVGElement).dataset.id!));
    const edgeTypes = () => page.$$eval('svg.graph line.edge', (lines) => [...new Set(lines.map((l) => (l as SVGElement).dataset.type!))]);
    const all = await drawn();
    expect(await edgeTypes()).toContain('ENTITY_RULE');
    await page.uncheck('#edge-filter input[value="ENTITY_RULE"]');
    expect(await edgeTypes()).not.toContain('ENTITY_RULE');
    expect(all).toEqual(expect.arrayContaining(await drawn()));
    await page.check('#edge-filter input[value="ENTITY_RULE"]');
    expect(await drawn()).toEqual(all);
    await page.uncheck('#layer-filter input[value="02-behavior"]');
    const layers = await page.$$eval('svg.graph .graph-node title', (titles) => titles.map((t) => t.textContent ?? ''));
    expect(layers.filter((t) => t.includes('02-behavior'))).toEqual([]);
    // The centre stays whatever the filters say.
    expect(await drawn()).toContain('Entity:Pedido');
    await page.click('#depth-3');
    await page.waitForFunction(() => location.hash.endsWith('depth=3') && document.querySelector('#depth-3')?.tagName === 'STRONG');
    expect((await drawn()).length).toBeGreaterThan(all.length);
    await shot('06b-graph-depth-3');
  });

  it('highlights a node, its neighbours and its edges on hover', async () => {
    await page.goto(`${url}/#/graph/Entity%3APedido?depth=2`);
    await waitPage('graph');
    await page.hover('svg.graph a[data-id="CMD:CMD-001"] circle');
    expect(await page.$eval('svg.graph', (svg) => svg.classList.contains('focused'))).toBe(true);
    const lit = await page.$$eval('svg.graph .graph-node.lit', (nodes) => nodes.map((n) => (n as SVGElement).dataset.id));
    expect(lit).toContain('CMD:CMD-001');
    expect(lit).toContain('Entity:Pedido');
    const litEdges = await page.$$eval('svg.graph line.edge.lit', (lines) => lines.map((l) => [(l as SVGElement).dataset.from, (l as SVGElement).dataset.to]));
    expect(litEdges.length).toBeGreaterThan(0);
    for (const [from, to] of litEdges) expect([from, to]).toContain('CMD:CMD-001');
    await shot('06c-graph-hover');
    await page.mouse.move(1, 1);
    await page.hover('h1');
    expect(await page.$eval('svg.graph', (svg) => svg.classList.contains('focused'))).toBe(false);
  });

  it('shows what a change to the entity affects, with scenarios to re-run', async () => {
    await page.goto(`${url}/#/impact/Entity%3APedido`);
    await waitPage('impact');
    const text = (await page.textContent('main')) ?? '';
    expect(text).toMatch(/Directly affected \([1-9]/);
    expect(text).toContain('Scenarios to re-run');
    await shot('07-impact');
  });

  it('lists layer violations and index health', async () => {
    await page.click('a[href="#/violations"]');
    await waitPage('violations');
    expect(await page.$$eval('main tbody tr', (rows) => rows.length)).toBeGreaterThanOrEqual(1);
    await shot('08-violations');
    await page.click('a[href="#/health"]');
    await waitPage('health');
    expect(await page.textContent('main')).toContain('Dangling links (1)');
    await shot('09-health');
  });

  it('matches a word still being typed', async () => {
    await page.goto(`${url}/`);
    await page.fill('#q', '');
    await page.click('#q');
    await page.keyboard.type('crear ped', { delay: 20 });
    await page.waitForFunction(() => document.body.dataset.searched === 'crear ped');
    expect(await page.$$eval('#results li', (items) => items.slice(0, 3).map((li) => (li as HTMLElement).dataset.id))).toContain('UC:UC-001');
    await page.fill('#q', 'crear pedi');
    await page.waitForFunction(() => document.body.dataset.searched === 'crear pedi');
    const ids = await page.$$eval('#results li', (items) => items.slice(0, 3).map((li) => (li as HTMLElement).dataset.id));
    expect(ids).toContain('UC:UC-001');
  });

  it('sends brotli or gzip copies when the browser accepts them, and caches hashed files for good', async () => {
    const responses: { url: string; encoding: string | null; cache: string | null }[] = [];
    const listener = async (response: import('playwright-core').Response) => {
      const headers = await response.allHeaders();
      responses.push({ url: response.url(), encoding: headers['content-encoding'] ?? null, cache: headers['cache-control'] ?? null });
    };
    const fresh = await browser.context.newPage();
    fresh.on('response', listener);
    await fresh.goto(`${url}/#/node/Entity%3APedido`);
    await fresh.waitForFunction(() => document.body.dataset.page === 'node' && !document.querySelector('.loading'));
    await fresh.close();
    const script = responses.find((r) => /kdd-site-assets\/index-.*\.js$/.test(r.url));
    expect(script?.encoding).toBe('br');
    expect(script?.cache).toContain('immutable');
    const pieces = responses.filter((r) => /kdd-s-[0-9a-f]{12}\.msgpack$/.test(r.url));
    expect(pieces.length).toBeGreaterThan(0);
    for (const piece of pieces) expect(piece.cache).toContain('immutable');
    expect(pieces.some((p) => p.encoding === 'br')).toBe(true);
    // Without Accept-Encoding the same file comes as is.
    const plain = await fetch(script!.url, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
  });

  it('filters search results by kind', async () => {
    await page.goto(`${url}/#/search?q=pedido&kind=command`);
    await page.waitForFunction(() => document.body.dataset.searched === 'pedido');
    const kinds = await page.$$eval('#results .result-meta', (metas) => metas.map((m) => m.textContent?.split(' · ')[0]));
    expect(kinds.length).toBeGreaterThan(0);
    expect(new Set(kinds)).toEqual(new Set(['command']));
  });

  it('keeps searching offline once loaded', async () => {
    // The fixture's bundle is small, so the worker fetched it in the background after the first search.
    await page.context().setOffline(true);
    await page.fill('#q', 'ship order');
    await page.waitForFunction(() => document.body.dataset.searched === 'ship order');
    expect(await page.$$eval('#results li', (items) => items.length)).toBeGreaterThan(0);
    await page.context().setOffline(false);
  });

  it('logged no page errors', () => {
    expect(errors).toEqual([]);
  });
});
