/**
 * `kdd dev` and the open site (#19) in headless Chromium: the page served by the dev loop reloads
 * itself when an edit is published, shows a banner with the warning while an edit is broken, and
 * keeps answering from the last good bundle. Uses the built site app (`npm run build:site`).
 */
import { appendFile, cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDev, type DevSession } from '../../server/dev.js';
import { CHROMIUM, hasChromium as chromiumPresent, launchChromium, type Chromium } from './_chromium.js';

const hasChromium = chromiumPresent();
if (!hasChromium) console.warn(`dev-reload.e2e: skipped, ${CHROMIUM} is absent (apt-get install -y chromium)`);
const FILE = '01-domain/entities/Pedido.md';

describe.skipIf(!hasChromium)('kdd dev: the open site follows the specs', () => {
  let work: string;
  let session: DevSession;
  let browser: Chromium;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'kdd-dev-e2e-'));
    await cp(resolve('test/fixtures/kinds'), join(work, 'specs'), { recursive: true });
    session = await startDev({ specsDir: join(work, 'specs'), outDir: join(work, 'dist'), indexDir: join(work, 'idx'), port: 0, debounceMs: 20, log: () => undefined });
    browser = await launchChromium();
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  });

  afterAll(async () => {
    await browser?.close();
    await session?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  const searchFor = async (text: string) => {
    await page.fill('#q', text);
    await page.waitForFunction((t) => document.body.dataset.searched === t, text);
    return page.$$eval('#results li', (items) => items.map((li) => (li as HTMLElement).dataset.id));
  };

  it('an edit reloads the open page, and the new text is searchable in it', async () => {
    await page.goto(`${session.url}/`);
    await page.waitForFunction(() => /nodes/.test(document.getElementById('index-info')?.textContent ?? ''));
    await page.evaluate(() => ((window as unknown as { beforeReload: boolean }).beforeReload = true));
    await appendFile(join(work, 'specs', FILE), '\nEl ornitorrinco revisa cada pedido.\n');
    await page.waitForFunction(() => !(window as unknown as { beforeReload?: boolean }).beforeReload, undefined, { timeout: 15_000 });
    await page.waitForFunction(() => /nodes/.test(document.getElementById('index-info')?.textContent ?? ''));
    expect(await searchFor('ornitorrinco')).toContain('Entity:Pedido');
  });

  it('a broken edit shows its warning on the page; fixing it removes the banner', async () => {
    const text = await readFile(join(work, 'specs', FILE), 'utf8');
    await writeFile(join(work, 'specs', FILE), text.replace(/^---\n/, '---\nid: [unclosed\n'));
    const banner = await page.waitForSelector('#kdd-dev-banner', { timeout: 15_000 });
    expect(await banner.textContent()).toContain('INVALID_FRONT_MATTER');
    expect(await banner.textContent()).toContain(FILE);
    // Still answering from the last good bundle.
    expect(await searchFor('ornitorrinco')).toContain('Entity:Pedido');
    await writeFile(join(work, 'specs', FILE), text);
    await page.waitForFunction(() => !document.getElementById('kdd-dev-banner'), undefined, { timeout: 15_000 });
  });

  it('logged no page errors', () => {
    expect(errors).toEqual([]);
  });
});
