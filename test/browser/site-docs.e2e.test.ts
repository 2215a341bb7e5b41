/**
 * The site reads like the specs (#18), in headless Chromium on the kdd-engine corpus: node pages
 * show the spec as written (lists, tables, wiki-links, the KDDDocument state diagram as SVG, a
 * Gherkin feature as scenarios), backlinks and the node's layer, the layer map with its 23
 * violations, dark mode and the print style; axe-core finds no serious accessibility violation
 * there nor on the search, graph, impact, violations and health pages,
 * and the page logs no error. A hostile spec tree checks that nothing in a spec runs.
 * Screenshots (1280×900) go to test/artifacts/site-docs/.
 */
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { build as viteBuild } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../compiler/pipeline.js';
import { writeSite } from '../../library/site.js';
import { createServer, type KddServer } from '../../server/http.js';
import { KDD_ENGINE_SPECS, removeTree, tempTree } from '../helpers/temp-tree.js';
import { CHROMIUM, hasChromium as chromiumPresent, launchChromium, type Chromium } from './_chromium.js';
import { existsSync } from 'node:fs';

const ARTIFACTS = resolve('test/artifacts/site-docs');
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const ready = chromiumPresent() && existsSync(KDD_ENGINE_SPECS);
if (!ready) console.warn(`site-docs.e2e: skipped, needs ${CHROMIUM} and the kdd-engine corpus at ${KDD_ENGINE_SPECS}`);

/** A spec that tries every way to run code in the page. */
const HOSTILE = [
  '---',
  'kind: entity',
  'aliases: ["<img src=x onerror=window.pwned=1>"]',
  '---',
  '# Hostile',
  '',
  '<script>window.pwned = 1</script>',
  '',
  '<img src=x onerror="window.pwned = 1"> [click](javascript:window.pwned=1) [[x" onmouseover="window.pwned=1|y]]',
  '',
  '```mermaid',
  'flowchart LR',
  '  A["<img src=x onerror=window.pwned=1>"] --> B',
  '  click A call alert(1)',
  '```',
].join('\n');

describe.skipIf(!ready)('the site reads like the specs (kdd-engine, Chromium)', () => {
  let work: string;
  let servers: KddServer[] = [];
  let browser: Chromium;
  let page: Page;
  let url: string;
  let hostileUrl: string;
  let hostileSpecs: string | undefined;
  const errors: string[] = [];
  const axeSource = readFile(AXE, 'utf8');

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'kdd-site-docs-'));
    const app = join(work, 'app');
    await viteBuild({ configFile: resolve('site/vite.config.ts'), logLevel: 'warn', build: { outDir: app } });
    const serve = async (specs: string, name: string) => {
      const dist = join(work, name);
      await build({ specsDir: specs, outDir: dist, indexDir: join(work, `${name}-idx`) });
      await writeSite(dist, { appDir: app, specsDir: specs });
      const server = createServer({ dir: dist, log: () => undefined });
      servers.push(server);
      return (await server.listen(0)).url;
    };
    url = await serve(KDD_ENGINE_SPECS, 'engine');
    hostileSpecs = await tempTree({ '01-domain/entities/Hostile.md': HOSTILE });
    hostileUrl = await serve(hostileSpecs, 'hostile');
    await mkdir(ARTIFACTS, { recursive: true });
    browser = await launchChromium();
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    await page.setViewportSize({ width: 1280, height: 900 });
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  });

  afterAll(async () => {
    await browser?.close();
    for (const server of servers) await server.close();
    servers = [];
    if (work) await rm(work, { recursive: true, force: true });
    if (hostileSpecs) await removeTree(hostileSpecs);
  });

  const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });
  const open = async (hash: string, page_: 'node' | 'layers') => {
    await page.goto(`${url}/${hash}`);
    await page.waitForFunction((p) => document.body.dataset.page === p && !document.querySelector('.loading') && !!document.querySelector('.page'), page_);
  };
  /** axe-core in the page: violations of impact serious or critical, as `rule: targets`. */
  const seriousA11y = async (): Promise<string[]> => {
    if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: await axeSource });
    return page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run(context: Element, options: object): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe;
      const result = await axe.run(document.body, { resultTypes: ['violations'] });
      return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    });
  };

  it('renders a use case as written: lists, tables, prose wiki-links to the right node', async () => {
    await open('#/node/UC%3AUC-001', 'node');
    const spec = page.locator('.spec');
    expect(await spec.locator('h2', { hasText: 'Flujo Principal' }).count()).toBe(1);
    expect(await spec.locator('ol > li').count()).toBeGreaterThanOrEqual(11);
    expect(await spec.locator('li', { hasText: 'En el paso 2, si el fichero no tiene front-matter' }).count()).toBe(1);
    expect(await spec.locator('strong', { hasText: 'Developer' }).count()).toBe(1);
    const link = spec.locator('p a.wiki', { hasText: 'UC-002-IndexIncremental' });
    expect(await link.getAttribute('href')).toBe('#/node/UC%3AUC-002');
    expect(await spec.locator('a.wiki[href="#/node/Entity%3AGraphEdge"]', { hasText: 'edges' }).count()).toBeGreaterThan(0);
    expect(await page.locator('.front-matter div', { hasText: 'actor' }).locator('dd').textContent()).toBe('Developer');
    expect(await seriousA11y()).toEqual([]);
    await shot('node-use-case');
    await link.click();
    await page.waitForFunction(() => document.querySelector('.node-id')?.textContent === 'UC:UC-002');
  });

  it('draws the KDDDocument state diagram as an SVG with its states, and lists backlinks and the layer', async () => {
    await open('#/node/Entity%3AKDDDocument', 'node');
    await page.waitForSelector('.spec pre.mermaid.drawn svg', { timeout: 30_000 });
    expect(await page.locator('.spec table').first().locator('th').first().textContent()).toBe('Atributo');
    expect(await page.locator('.spec table').count()).toBe(3);
    const svgText = (await page.locator('.spec pre.mermaid svg').textContent()) ?? '';
    for (const state of ['detected', 'parsing', 'indexed', 'stale']) expect(svgText).toContain(state);
    const referencedBy = page.locator('#edges-incoming');
    expect(await referencedBy.locator('h2').textContent()).toMatch(/Referenced by \(\d+\)/);
    expect(await referencedBy.locator('.edge-group h3 code').allTextContents()).toContain('DOMAIN_RELATION');
    expect(await referencedBy.locator('a[href="#/node/Entity%3AEmbedding"]').count()).toBeGreaterThan(0);
    expect(await page.locator('.layer-ladder li[aria-current="true"]').textContent()).toContain('01-domain');
    expect(await page.locator('#extracted-fields summary').textContent()).toMatch(/Extracted fields \(\d+\)/);
    expect(await seriousA11y()).toEqual([]);
    await shot('node-entity');
    await page.locator('.spec pre.mermaid').scrollIntoViewIfNeeded();
    await shot('node-entity-diagram');
  });

  it('goes to a section with ?section=, marks a dangling front-matter link and links against the hierarchy', async () => {
    await open('#/node/Entity%3AKDDDocument?section=ciclo-de-vida', 'node');
    await page.waitForSelector('#s-ciclo-de-vida.targeted');
    await open('#/node/PRD%3APRD-KDDEngine', 'node');
    expect(await page.locator('.front-matter .dangling').allTextContents()).toEqual(['OBJ-001-AgentRetrieval', 'OBJ-002-DistributedIndexing']);
    expect(await page.locator('.front-matter a.wiki[href="#/node/UC%3AUC-001"]').count()).toBe(1);
    // A rule that cites commands links up the hierarchy: its layer ladder says so.
    await open('#/node/BR%3ABR-INDEX-001', 'node');
    expect(await page.locator('.layer-ladder li', { hasText: '02-behavior' }).locator('.bad').textContent()).toMatch(/\(\d+ against the hierarchy\)/);
  });

  it('renders a Gherkin feature as scenarios with steps', async () => {
    await open('#/node/FEAT%3Aindex-entity', 'node');
    const scenarios = page.locator('.spec .gherkin-scenario');
    expect(await scenarios.count()).toBeGreaterThanOrEqual(3);
    expect(await scenarios.first().locator('h3').textContent()).toContain('Escenario: SCN-IndexEntity-001');
    expect(await scenarios.first().locator('.gherkin-steps > li .keyword').first().textContent()).toBe('Dado');
    expect(await seriousA11y()).toEqual([]);
    await shot('node-feature');
  });

  it('draws the layer map with the 23 violations as arrows, and goes to a node on click', async () => {
    await open('#/layers', 'layers');
    await page.waitForFunction(() => document.querySelectorAll('svg.violation-arrows .violation-arrow').length > 0);
    expect(await page.locator('.layer-column h2').allTextContents()).toEqual(['00-requirements1', '01-domain22', '02-behavior19', '04-verification12']);
    expect(await page.locator('.violation-arrow').count()).toBe(23);
    expect(await page.locator('.map-violations tbody tr').count()).toBe(23);
    expect(await page.locator('#map-violations').textContent()).toBe('23 layer violations');
    expect(await page.locator('#map-dangling').textContent()).toBe('2 dangling links');
    expect(await page.locator('#map-orphans').textContent()).toMatch(/^\d+ orphans$/);
    // Every arrow goes right, to a higher layer: the wrong way.
    const directions = await page.$$eval('.violation-arrow', (paths) => paths.map((p) => (p as SVGPathElement).getPointAtLength((p as SVGPathElement).getTotalLength()).x - (p as SVGPathElement).getPointAtLength(0).x));
    expect(directions.every((dx) => dx > 0)).toBe(true);
    expect(await seriousA11y()).toEqual([]);
    await shot('layer-map');
    await page.click('.map-node[data-id="Entity:KDDDocument"]');
    await page.waitForFunction(() => document.querySelector('.node-id')?.textContent === 'Entity:KDDDocument');
  });

  it('follows the system dark mode, and prints a spec without the navigation', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await open('#/node/Entity%3AKDDDocument', 'node');
    await page.waitForSelector('.spec pre.mermaid.drawn svg', { timeout: 30_000 });
    const background = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    expect(background).toBe('rgb(21, 25, 29)');
    expect(await seriousA11y()).toEqual([]);
    await shot('node-entity-dark');
    await open('#/layers', 'layers');
    await page.waitForSelector('.violation-arrow');
    expect(await seriousA11y()).toEqual([]);
    await shot('layer-map-dark');
    await page.emulateMedia({ colorScheme: 'light', media: 'print' });
    await open('#/node/UC%3AUC-001', 'node');
    const hidden = await page.evaluate(() => ['.top', '.side', '.node-actions'].map((s) => getComputedStyle(document.querySelector(s)!).display));
    expect(hidden).toEqual(['none', 'none', 'none']);
    expect(await page.locator('.spec').isVisible()).toBe(true);
    await page.emulateMedia({ media: 'screen' });
  });

  it('has no serious accessibility violation on the search, graph, impact, violations and health pages', async () => {
    await page.goto(`${url}/#/search?q=${encodeURIComponent('indexar fichero')}`);
    await page.waitForFunction(() => document.body.dataset.page === 'search' && document.querySelectorAll('#results li').length > 0);
    expect(await seriousA11y()).toEqual([]);
    await shot('search');
    for (const depth of [2, 1]) {
      await page.goto(`${url}/#/graph/${encodeURIComponent('Entity:KDDDocument')}?depth=${depth}`);
      await page.waitForFunction((d) => document.body.dataset.page === 'graph' && !document.querySelector('.loading') && document.querySelector('#depth-' + d)?.tagName === 'STRONG', depth);
      expect(await seriousA11y(), `graph depth ${depth}`).toEqual([]);
    }
    await shot('graph');
    for (const [hash, name] of [[`#/impact/${encodeURIComponent('Entity:KDDDocument')}`, 'impact'], ['#/violations', 'violations'], ['#/health', 'health']] as const) {
      await page.goto(`${url}/${hash}`);
      await page.waitForFunction((p) => document.body.dataset.page === p && !document.querySelector('.loading') && !!document.querySelector('main h1'), name);
      expect(await seriousA11y(), name).toEqual([]);
      await shot(name);
    }
  });

  it('logged no page errors on the corpus', () => {
    expect(errors).toEqual([]);
  });

  it('runs nothing a spec contains', async () => {
    let dialogs = 0;
    page.on('dialog', (dialog) => {
      dialogs++;
      void dialog.dismiss();
    });
    await page.goto(`${hostileUrl}/#/node/Entity%3AHostile`);
    await page.waitForFunction(() => !!document.querySelector('.spec'));
    await page.waitForFunction(() => !!document.querySelector('.spec pre.mermaid.drawn, .spec pre.mermaid.not-drawn'), null, { timeout: 30_000 });
    await page.hover('.spec');
    const found = await page.evaluate(() => {
      const root = document.querySelector('main')!;
      const handlers = Array.from(root.querySelectorAll('*')).flatMap((el) => el.getAttributeNames().filter((name) => name.startsWith('on')).map((name) => `${el.tagName}[${name}]`));
      const urls = Array.from(root.querySelectorAll('[href], [src]')).map((el) => el.getAttribute('href') ?? el.getAttribute('src') ?? '').filter((u) => /^\s*(javascript|data|vbscript):/i.test(u));
      return { handlers, urls, scripts: root.querySelectorAll('script').length, pwned: 'pwned' in window };
    });
    expect(found).toEqual({ handlers: [], urls: [], scripts: 0, pwned: false });
    expect(dialogs).toBe(0);
    expect(await page.locator('.spec').textContent()).toContain('<script>window.pwned = 1</script>');
  });

});
