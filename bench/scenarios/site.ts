/**
 * Static site, first search (#7): bytes the browser downloads and time until the first result is
 * drawn, in headless Chromium with a cold cache, for each corpus size. Two ways in:
 * - `sharded`: the site as `kdd site` writes it (search sub-bundle: meta + the shards a query needs);
 * - `bundle`: the same site without the sub-bundle, so the worker fetches the whole bundle.
 * Bytes are counted by the server (response bodies, no HTTP compression); the gzip column is what
 * a host that compresses would send for the same files. Pagefind's yardstick: under 300 kB for a
 * search over 10k pages.
 *
 * `npm run bench -- --scenario site --sizes 1000,10000`
 */
import { gzipSync } from 'node:zlib';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import sirv from 'sirv';
import { decodeBundle } from '../../formats/bundle/bundle.js';
import { int, median, type Corpus, type Scenario, type ScenarioReport } from '../scenario.js';

/** One cold browser per query; phrases from the generated corpus' vocabulary, both languages. */
const QUERIES = ['index a document', 'validación de capas', 'impact of renaming an entity', 'merge conflict resolution rules', 'CMD-001'];
const PAGEFIND_10K = 300 * 1024;
const CHROMIUM = '/usr/bin/chromium';

interface Served {
  url: string;
  /** Bytes and paths of every response body since the last reset. */
  sent: { path: string; bytes: number }[];
  close(): Promise<void>;
}

interface Sample {
  bytes: number;
  gzip: number;
  files: number;
  ms: number;
  rows: number;
}

const scenario: Scenario = {
  name: 'site',
  title: 'Static site: first search in Chromium (cold cache)',
  async run(corpora, context) {
    const { existsSync } = await import('node:fs');
    if (!existsSync(CHROMIUM)) return { skipped: `${CHROMIUM} is absent (apt-get install -y chromium)` };
    const { launchChromium } = await import('../../test/browser/_chromium.js');
    const work = await mkdtemp(join(tmpdir(), 'kdd-bench-site-'));
    try {
      const app = join(work, 'app');
      const { build } = await import('vite');
      await build({ configFile: resolve('site/vite.config.ts'), logLevel: 'warn', build: { outDir: app } });
      const report: ScenarioReport = {
        columns: ['docs', 'bundle MB', 'way in', 'first-search kB', 'gzip kB', 'files', 'time to first result ms (median)', 'max ms'],
        rows: [],
        notes: [
          `Queries (one fresh browser profile each): ${QUERIES.map((q) => `"${q}"`).join(', ')}; kB are medians over them, KiB of response bodies counted by the server.`,
          `First-search bytes: everything from navigation to the first drawn result (page, worker, kdd.json, kdd-site.json, meta, shards, doc chunks); Pagefind's reference is under ${PAGEFIND_10K / 1024} kB for 10k pages.`,
        ],
      };
      for (const corpus of corpora) {
        context.log(`site: ${corpus.documents} docs`);
        const dist = await prepareDist(work, corpus, await context.bundle(corpus), app);
        for (const way of ['sharded', 'bundle'] as const) {
          const served = await serve(dist, way === 'bundle' ? /^\/kdd-site\.json$/ : null);
          const samples: Sample[] = [];
          for (const q of way === 'bundle' ? QUERIES.slice(0, 1) : QUERIES) {
            const browser = await launchChromium();
            try {
              samples.push(await firstSearch(browser.context, served, dist, q, way));
            } finally {
              await browser.close();
            }
          }
          await served.close();
          const kb = (f: (s: Sample) => number) => int(median(samples.map(f)) / 1024);
          report.rows.push([
            int(corpus.documents),
            (await bundleBytes(dist) / 1024 / 1024).toFixed(1),
            way,
            kb((s) => s.bytes),
            kb((s) => s.gzip),
            int(median(samples.map((s) => s.files))),
            int(median(samples.map((s) => s.ms))),
            int(Math.max(...samples.map((s) => s.ms))),
          ]);
          if (samples.some((s) => s.rows === 0)) report.notes.push(`${corpus.documents} docs, ${way}: a query drew no result rows.`);
        }
      }
      return report;
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  },
};
export default scenario;

/** A `dist/` with the bundle, its pointer, the site app and the search sub-bundle. */
async function prepareDist(work: string, corpus: Corpus, bytes: Uint8Array, app: string): Promise<string> {
  const dist = join(work, `dist-${corpus.documents}`);
  await mkdir(dist, { recursive: true });
  const { bundleHash } = await import('../../compiler/pack/pack.js');
  const { writeDist } = await import('../../compiler/pack/dist.js');
  const { writeSite } = await import('../../library/site.js');
  const hash = bundleHash(bytes);
  await writeDist(dist, { bytes, hash, fileName: `kdd-${hash}.msgpack` }, decodeBundle(bytes).manifest);
  await writeSite(dist, { appDir: app });
  return dist;
}

async function bundleBytes(dist: string): Promise<number> {
  const pointer = JSON.parse(await readFile(join(dist, 'kdd.json'), 'utf8')) as { bytes: number };
  return pointer.bytes;
}

/** sirv over `dir`, counting response body bytes; `hide` answers 404 (to force the full-bundle way). */
async function serve(dir: string, hide: RegExp | null): Promise<Served> {
  const statics = sirv(dir, { dev: true, etag: false });
  const sent: Served['sent'] = [];
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]!);
    if (hide?.test(path)) {
      res.statusCode = 404;
      res.end();
      return;
    }
    let bytes = 0;
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => typeof res;
    const count = (chunk: unknown) => {
      if (typeof chunk === 'string') bytes += Buffer.byteLength(chunk);
      else if (chunk instanceof Uint8Array) bytes += chunk.byteLength;
    };
    res.write = ((chunk: unknown, ...rest: unknown[]) => (count(chunk), write(chunk, ...rest))) as typeof res.write;
    res.end = ((chunk?: unknown, ...rest: unknown[]) => (count(chunk), end(chunk, ...rest))) as typeof res.end;
    res.on('finish', () => sent.push({ path, bytes }));
    statics(req, res, () => {
      res.statusCode = 404;
      res.end();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, sent, close: () => new Promise((done) => server.close(() => done())) };
}

type Context = Awaited<ReturnType<typeof import('../../test/browser/_chromium.js').launchChromium>>['context'];

/** Opens `#/search?q=` in a cold browser; bytes and time until the first answer is drawn. */
async function firstSearch(context: Context, served: Served, dist: string, q: string, way: 'sharded' | 'bundle'): Promise<Sample> {
  served.sent.length = 0;
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`${served.url}/#/search?q=${encodeURIComponent(q)}`);
  await page.waitForFunction(() => document.body.dataset.firstResultMs !== undefined, undefined, { timeout: 300_000, polling: 50 });
  const ms = Number(await page.evaluate(() => document.body.dataset.firstResultMs));
  const rows = await page.$$eval('#results li', (items) => items.length);
  // Requests finished by now; anything later (a background prefetch) is not part of the first search.
  // The sharded way never needs the full bundle for a search: a request for it is the worker's
  // background prefetch (small bundles), started after the answer was computed.
  const sent = served.sent.filter((s) => !(way === 'sharded' && /^\/kdd-[0-9a-f]{12}\.msgpack$/.test(s.path)));
  let gzip = 0;
  for (const { path } of sent) {
    const file = join(dist, path === '/' ? 'index.html' : path);
    gzip += await readFile(file).then((data) => gzipSync(data, { level: 6 }).byteLength, () => 0);
  }
  return { bytes: sent.reduce((sum, s) => sum + s.bytes, 0), gzip, files: sent.length, ms, rows };
}
