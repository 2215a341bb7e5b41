/**
 * One query surface for glossary questions: in headless Chromium, the site's query worker answers
 * a question about a defined term from the sharded sub-bundle and from the full bundle with the
 * same rows, scores and reasons, the glossary's `definition` included. The full-bundle site is the
 * same site whose `kdd-site.json` claims another format, so this also checks that the worker leaves
 * a sub-bundle of an unknown format alone.
 *
 * Fixture: test/fixtures/apiary (a beekeeping cooperative; its glossary defines eight terms).
 * Needs /usr/bin/chromium; skips with a message without it.
 */
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { build as viteBuild } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../compiler/pipeline.js';
import { SITE_POINTER_FILE, type SitePointer } from '../../formats/site-bundle.js';
import { writeSite } from '../../library/site.js';
import { createServer, type KddServer } from '../../server/http.js';
import type { SearchAnswer } from '../../site/src/protocol.js';
import { CHROMIUM, hasChromium as chromiumPresent, launchChromium, type Chromium } from './_chromium.js';

const hasChromium = chromiumPresent();
if (!hasChromium) console.warn(`site-glossary.e2e: skipped, ${CHROMIUM} is absent (apt-get install -y chromium)`);

/** Questions about defined terms (the glossary row each must name), and one impact question (no definition). */
const QUESTIONS: [q: string, row: string | null][] = [
  ['what is a nuc', 'Nuc'],
  ['difference between a super and a brood box', 'Super'],
  ['queen excluder', 'Queen excluder'],
  ['varroa mite', 'Varroa'],
  ['if the Hive entity changes, what depends on it?', null],
];
const GLOSSARY = 'GLOSS:Apiary-Glossary';

describe.skipIf(!hasChromium)('glossary questions on the static site, sharded and full bundle', () => {
  let work: string;
  let server: KddServer;
  let browser: Chromium;
  let page: Page;
  let url: string;
  let workerScript: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'kdd-site-glossary-'));
    const app = join(work, 'app');
    await viteBuild({ configFile: resolve('site/vite.config.ts'), logLevel: 'warn', build: { outDir: app } });
    workerScript = `kdd-site-assets/${(await readdir(join(app, 'kdd-site-assets'))).find((name) => /^worker-.*\.js$/.test(name))!}`;
    const sharded = join(work, 'sharded');
    await build({ specsDir: 'test/fixtures/apiary', outDir: sharded, indexDir: join(work, 'idx') });
    await writeSite(sharded, { appDir: app });
    // The same site, its sub-bundle marked with a format this worker does not read.
    const bundle = join(work, 'bundle');
    await cp(sharded, bundle, { recursive: true });
    const pointer = JSON.parse(await readFile(join(bundle, SITE_POINTER_FILE), 'utf8')) as SitePointer;
    await writeFile(join(bundle, SITE_POINTER_FILE), JSON.stringify({ ...pointer, format: 'kdd-site/3' }));
    server = createServer({ dir: work, log: () => undefined });
    ({ url } = await server.listen(0));
    browser = await launchChromium();
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    await page.goto(`${url}/sharded/`);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  /** A fresh query worker for the site at `site` (the worker switches to a prefetched full bundle after its first answer). */
  const ask = (site: 'sharded' | 'bundle', q: string): Promise<SearchAnswer> =>
    page.evaluate(
      ({ script, base, q }) =>
        new Promise<SearchAnswer>((done, fail) => {
          const worker = new Worker(new URL(script, base), { type: 'module' });
          worker.onmessage = (event: MessageEvent<{ ok: boolean; result: SearchAnswer; error: { message: string } }>) => {
            worker.terminate();
            if (event.data.ok) done(event.data.result);
            else fail(new Error(event.data.error.message));
          };
          worker.onerror = (event) => fail(new Error(event.message));
          worker.postMessage({ base });
          worker.postMessage({ id: 1, type: 'search', params: { q } });
        }),
      { script: workerScript, base: `${url}/${site}/`, q },
    );

  it.each(QUESTIONS)('answers %j from the sub-bundle as from the full bundle', async (q, row) => {
    const sharded = await ask('sharded', q);
    const full = await ask('bundle', q);
    expect(sharded.source).toBe('sharded');
    expect(full.source).toBe('bundle');
    const shown = (answer: SearchAnswer) => answer.rows.map(({ id, score, why }) => ({ id, score, why }));
    expect(shown(sharded)).toEqual(shown(full));
    const glossary = sharded.rows.find((r) => r.id === GLOSSARY);
    if (row === null) {
      expect(sharded.rows.length).toBeGreaterThan(0);
      expect(sharded.rows.every((r) => r.why.every((phrase) => !phrase.startsWith('definition:')))).toBe(true);
    } else {
      // The definition reaches the glossary among the first three, and the row says so.
      expect(sharded.rows.slice(0, 3).map((r) => r.id)).toContain(GLOSSARY);
      expect(glossary!.why).toContain(`definition: the glossary row "${row}"`);
    }
  });
});
