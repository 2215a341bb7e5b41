/**
 * Product (English) steps for the docs site in a real browser (docs-site.feature SCN-Site-002/003).
 *
 * The Background (en-serve.ts) builds this repository's specs, runs `kdd site` (needs
 * `npm run build:site`) and serves `dist/` on a loopback port. These steps drive that site in the
 * system's headless Chromium (`/usr/bin/chromium`, launched as test/browser/_chromium.ts does:
 * fresh profile, no background networking). Without that binary the scenario stops as pending
 * and says why; nothing is downloaded.
 *
 * Network: every request of the browser context (page and query worker) is recorded. An init
 * script wraps `window.Worker` so a step can ask the query worker, through the site's own
 * protocol, for a view that needs the full bundle: its answer means the bundle is loaded (no
 * timing guess), and it sends no request of its own once the background download has started.
 *
 * Time limits in the feature (`within 1 second`) are recorded in `world.timings`, not asserted
 * (docs/acceptance.md); the waits here are functional (10 s).
 */
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { CHROMIUM, hasChromium } from '../../browser/_chromium.js';
import { defineStep } from '../runner.js';
import type { World } from '../world.js';

const WAIT = 10_000;

interface Recorded {
  url: string;
  /** performance.now() in the test process when the browser issued it. */
  at: number;
}

interface Browser {
  context: BrowserContext;
  page: Page;
  requests: Recorded[];
  errors: string[];
  /** Index into `requests` after which no request is expected (set once the bundle is loaded). */
  mark?: number;
}

/** Test instrumentation: keep a handle on the site's query worker (the page builds exactly one). */
function wrapWorker(): void {
  const Native = window.Worker;
  const probe = { worker: null as Worker | null };
  (window as unknown as { __kddProbe: typeof probe }).__kddProbe = probe;
  window.Worker = class extends Native {
    constructor(url: string | URL, options?: WorkerOptions) {
      super(url, options);
      probe.worker = this;
    }
  };
}

async function browser(world: World): Promise<Browser> {
  if (world.vars.browser) return world.vars.browser as Browser;
  if (!hasChromium()) world.stop(`needs headless Chromium at ${CHROMIUM} (apt-get install -y chromium); it is absent here`);
  const { launchChromium } = await import('../../browser/_chromium.js');
  const chromium = await launchChromium();
  world.onDispose(() => chromium.close());
  const { context } = chromium;
  const requests: Recorded[] = [];
  const errors: string[] = [];
  // Context-level events include the dedicated worker's fetches (shards, bundle) in Chromium.
  context.on('request', (request) => requests.push({ url: request.url(), at: performance.now() }));
  await context.addInitScript(wrapWorker);
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  page.setDefaultTimeout(WAIT);
  const state: Browser = { context, page, requests, errors };
  world.vars.browser = state;
  return state;
}

const siteUrl = (world: World) => String(world.vars.siteUrl);

async function bundleName(world: World): Promise<string> {
  return (await world.readJson<{ bundle: string }>('dist/kdd.json')).bundle;
}

// ── SCN-Site-002: search ───────────────────────────────────────────────────────────────────

defineStep(/^headless Chromium opened the site root and the search box is enabled$/, async (world) => {
  const { page } = await browser(world);
  await page.goto(`${siteUrl(world)}/`);
  // The header line is drawn from the worker's first answer (`info`): the site is up.
  await page.waitForFunction(() => /\d+ nodes/.test(document.getElementById('index-info')?.textContent ?? ''));
  expect(await page.isEnabled('#q'), 'search box enabled').toBe(true);
});

defineStep(/^the worker downloaded the bundle named in "dist\/kdd\.json" in the background$/, async (world) => {
  const state = await browser(world);
  const bundle = await bundleName(world);
  const isBundle = (url: string) => new URL(url).pathname.endsWith(`/${bundle}`);
  // docs/site.md: bundles ≤ 8 MB are fetched after the first answer without any user action.
  if (!state.requests.some((r) => isBundle(r.url))) await state.page.waitForRequest((request) => isBundle(request.url()), { timeout: WAIT });
  // Ask the worker for a node view: it awaits the same full-bundle promise, so its answer means the
  // bundle is downloaded, hash-checked and decoded (search answers from it from now on).
  const answer = await state.page.evaluate(
    (timeout) =>
      new Promise<{ ok: boolean; error?: { code: string } }>((resolve, reject) => {
        const worker = (window as unknown as { __kddProbe: { worker: Worker | null } }).__kddProbe.worker;
        if (!worker) return reject(new Error('the site created no query worker'));
        const id = -1; // never issued by site/src/client.ts, which ignores unknown ids
        const timer = setTimeout(() => reject(new Error('the worker did not load the full bundle')), timeout);
        worker.addEventListener('message', function on(event: MessageEvent<{ id: number; ok: boolean; error?: { code: string } }>) {
          if (event.data.id !== id) return;
          worker.removeEventListener('message', on);
          clearTimeout(timer);
          resolve(event.data);
        });
        worker.postMessage({ id, type: 'node', params: { id: '(acceptance probe)' } });
      }),
    WAIT,
  );
  expect(answer.error?.code, 'probe answered from the loaded bundle').toBe('NODE_NOT_FOUND');
  expect(state.requests.filter((r) => isBundle(r.url)), `requests for ${bundle}`).toHaveLength(1);
  state.mark = state.requests.length;
});

defineStep(/^I type "([^"]+)" into the search box$/, async (world, text) => {
  const { page } = await browser(world);
  await page.keyboard.press('/'); // docs/site.md: "/" focuses the search box from anywhere
  expect(await page.evaluate(() => document.activeElement?.id), 'focus after "/"').toBe('q');
  await page.keyboard.type(text, { delay: 20 });
  world.vars.typedAt = performance.now();
  world.vars.typed = text;
});

defineStep(/^the first result listed is "([^"]+)" \("([^"]+)"\)(?:, within (\d+) seconds?)?$/, async (world, title, id, seconds) => {
  const { page } = await browser(world);
  await page.waitForFunction((q) => document.body.dataset.searched === q, String(world.vars.typed));
  if (seconds) world.timings[`first result within ${seconds} s`] = performance.now() - Number(world.vars.typedAt);
  const first = await page.$eval('#results li:first-child', (li) => ({
    id: (li as HTMLElement).dataset.id,
    title: Array.from(li.querySelector('.result-title')!.childNodes).filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent).join('').trim(),
  }));
  expect(first).toEqual({ id, title });
  expect(page.url()).toContain(`#/search?q=${encodeURIComponent(String(world.vars.typed))}`);
});

defineStep(/^the browser sent no request after the bundle download$/, async (world) => {
  const state = await browser(world);
  expect(state.mark, 'the bundle download was observed by an earlier step').toBeDefined();
  const after = state.requests.slice(state.mark).map((r) => r.url);
  expect(after, 'requests after the bundle was loaded').toEqual([]);
  const origin = new URL(siteUrl(world)).origin;
  const elsewhere = state.requests.map((r) => r.url).filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith('data:'));
  expect(elsewhere, 'requests to anything but the local site').toEqual([]);
});

// ── SCN-Site-003: node page, edges, graph ─────────────────────────────────────────────────

defineStep(/^(?:headless Chromium opened|I go to) "(#\/[^"]+)"$/, async (world, hash) => {
  const { page } = await browser(world);
  await page.goto(`${siteUrl(world)}/${hash}`);
});

async function waitShown(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.querySelector('#main .loading') && document.querySelector('#main')!.childElementCount > 0);
}

defineStep(/^the node page of "([^"]+)" is shown(?: with the heading "([^"]+)")?$/, async (world, id, heading) => {
  const { page } = await browser(world);
  await page.waitForFunction((want) => document.body.dataset.page === 'node' && document.querySelector('.node-id')?.textContent === want, id);
  if (heading) expect((await page.textContent('article.node h1'))?.trim()).toBe(heading);
});

defineStep(/^the "(Incoming|Outgoing) edges" group "([^"]+)" links to "([^"]+)"$/, async (world, direction, edgeType, target) => {
  const { page } = await browser(world);
  const groups = await page.$$eval(`#edges-${direction.toLowerCase()} .edge-group`, (divs) =>
    divs.map((div) => ({ type: div.querySelector('h3 code')?.textContent ?? div.querySelector('h3')?.textContent ?? '', targets: Array.from(div.querySelectorAll('a.node-link')).map((a) => ({ id: a.getAttribute('title'), href: a.getAttribute('href') })) })),
  );
  const group = groups.find((g) => g.type === edgeType);
  expect(group, `${direction} edge groups: ${groups.map((g) => g.type).join(', ')}`).toBeDefined();
  expect(group!.targets).toContainEqual({ id: target, href: `#/node/${encodeURIComponent(target)}` });
  // Grouped: each edge type heads exactly one group.
  expect(new Set(groups.map((g) => g.type)).size).toBe(groups.length);
});

defineStep(/^I follow the "([^"]+)" edge to "([^"]+)"$/, async (world, edgeType, target) => {
  const { page } = await browser(world);
  const group = page.locator('#edges-outgoing .edge-group', { has: page.locator('h3 code', { hasText: new RegExp(`^${edgeType}$`) }) });
  await group.locator(`a.node-link[title="${target}"]`).click();
});

defineStep(/^I open its neighbourhood graph$/, async (world) => {
  const { page } = await browser(world);
  await page.click('#open-graph');
});

defineStep(/^the graph is centred on "([^"]+)"(?: and draws "([^"]+)")?$/, async (world, centre, other) => {
  const { page } = await browser(world);
  await page.waitForFunction((id) => document.body.dataset.page === 'graph' && document.querySelector('svg.graph')?.getAttribute('aria-label') === `Graph around ${id}`, centre);
  expect(await page.textContent('.graph-page h1 code')).toBe(centre);
  // The centre links to its node page; the other nodes re-centre the graph.
  expect(await page.getAttribute(`svg.graph a.graph-node[data-id="${centre}"]`, 'href')).toBe(`#/node/${encodeURIComponent(centre)}`);
  if (other) expect(await page.getAttribute(`svg.graph a.graph-node[data-id="${other}"]`, 'href')).toBe(`#/graph/${encodeURIComponent(other)}?depth=1`);
});

defineStep(/^I click "([^"]+)" in the graph$/, async (world, id) => {
  const { page } = await browser(world);
  // The node's circle: the link's box (circle and label) may lie partly under its neighbours.
  await page.click(`svg.graph a.graph-node[data-id="${id}"] circle`);
});

defineStep(/^the page reports "([^"]+)" under "([^"]+)"$/, async (world, message, heading) => {
  const { page } = await browser(world);
  await waitShown(page);
  expect((await page.textContent('#main h1'))?.trim()).toBe(heading);
  expect((await page.textContent('#main p'))?.trim()).toBe(message);
});

defineStep(/^the page logged no error$/, async (world) => {
  const { errors } = await browser(world);
  expect(errors).toEqual([]);
});
