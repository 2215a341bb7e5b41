/**
 * Static site, first view (#7, #18): bytes the browser downloads and time until the page is drawn,
 * in headless Chromium with a cold cache, for each corpus size and each page (search, node with its
 * rendered document, graph at depth 2, impact, and the whole-tree report pages: layer map,
 * violations, health). Two ways in:
 * - `sharded`: the site as `kdd site` writes it (search sub-bundle and graph pieces);
 * - `bundle`: the same site without the sub-bundle, so the worker fetches the whole bundle.
 * The server is sirv with the options `kdd serve` uses (brotli and gzip copies when accepted).
 * `raw kB` counts the uncompressed files, `sent kB` the response bodies as transferred. Budgets:
 * a first view ≤ 500 kB and ≤ 1 s at 10k documents (#18); Pagefind's yardstick for a search over
 * 10k pages is under 300 kB.
 *
 * `npm run bench -- --scenario site --sizes 54,1000,10000`
 */
import { mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import sirv from 'sirv';
import { decodeBundle } from '../../formats/bundle/bundle.js';
import { int, median, type Corpus, type Scenario, type ScenarioReport } from '../scenario.js';

/** One cold browser per query; phrases from the generated corpus' vocabulary, both languages. */
const QUERIES = ['index a document', 'validación de capas', 'impact of renaming an entity', 'merge conflict resolution rules', 'CMD-001'];
/** A node of the real corpus, so present at every size (copy 0 keeps the original ids). */
const NODE = 'Entity:KDDDocument';
/** Pages besides search, opened cold this many times each. */
const PAGES = [
  { page: 'node', hash: `#/node/${encodeURIComponent(NODE)}` },
  { page: 'graph', hash: `#/graph/${encodeURIComponent(NODE)}?depth=2` },
  { page: 'impact', hash: `#/impact/${encodeURIComponent(NODE)}` },
  { page: 'layer map', hash: '#/layers' },
  { page: 'violations', hash: '#/violations' },
  { page: 'health', hash: '#/health' },
] as const;
const PAGE_RUNS = 3;
const PAGEFIND_10K = 300 * 1024;
const CHROMIUM = '/usr/bin/chromium';

interface Served {
  url: string;
  /** Bytes and paths of every response body since the last reset. */
  sent: { path: string; bytes: number }[];
  close(): Promise<void>;
}

interface Sample {
  /** Uncompressed bytes of the files fetched. */
  bytes: number;
  /** Response bodies as sent (compressed copies when the browser accepted them). */
  sent: number;
  files: number;
  ms: number;
  rows: number;
  /** Graph page only: ms to redraw after unchecking one edge type (filter, layout, DOM). */
  redrawMs?: number;
}

const scenario: Scenario = {
  name: 'site',
  title: 'Static site: first view of each page in Chromium (cold cache)',
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
        columns: ['docs', 'bundle MB', 'page', 'way in', 'raw kB', 'sent kB', 'files', 'first view ms (median)', 'max ms'],
        rows: [],
        notes: [
          `Search: one fresh browser profile per query (${QUERIES.map((q) => `"${q}"`).join(', ')}); node (with its rendered document), graph (depth 2) and impact of ${NODE}, the layer map, violations and health: ${PAGE_RUNS} fresh profiles each. kB are medians, KiB.`,
          'First view: everything from navigation to the drawn page (app, worker, kdd.json, kdd-site.json, meta, shards or pieces); sent kB as the server wrote them (brotli when accepted), raw kB the same files uncompressed.',
          `Budget (#18): ≤ 500 kB and ≤ 1 s at 10k documents; Pagefind's reference for a search over 10k pages is under ${PAGEFIND_10K / 1024} kB.`,
        ],
      };
      for (const corpus of corpora) {
        context.log(`site: ${corpus.documents} docs`);
        const { dist, siteMs } = await prepareDist(work, corpus, await context.bundle(corpus), app);
        const mb = (await bundleBytes(dist) / 1024 / 1024).toFixed(1);
        const pieces = await pieceBytes(dist);
        const mib = (n: number) => (n / 1024 / 1024).toFixed(1);
        report.notes.push(`${corpus.documents} docs: \`kdd site\` (writeSite with the specs, one run) took ${(siteMs / 1000).toFixed(1)} s; its ${int(pieces.files)} pieces hold ${mib(pieces.raw)} MiB, and their brotli and gzip copies ${mib(pieces.copies)} MiB more (bundle ${mb} MiB).`);
        for (const way of ['sharded', 'bundle'] as const) {
          const served = await serve(dist, way === 'bundle' ? /^\/kdd-site\.json$/ : null);
          const runs: { page: string; hash: string; marker: 'firstResultMs' | 'firstViewMs' }[] = [
            ...(way === 'bundle' ? QUERIES.slice(0, 1) : QUERIES).map((q) => ({ page: 'search', hash: `#/search?q=${encodeURIComponent(q)}`, marker: 'firstResultMs' as const })),
            ...(way === 'bundle' ? PAGES.slice(0, 1) : PAGES).flatMap((p) => Array.from({ length: way === 'bundle' ? 1 : PAGE_RUNS }, () => ({ ...p, marker: 'firstViewMs' as const }))),
          ];
          const samples = new Map<string, Sample[]>();
          for (const run of runs) {
            const browser = await launchChromium();
            try {
              const sample = await firstView(browser.context, served, dist, run.hash, run.marker, way);
              samples.set(run.page, [...(samples.get(run.page) ?? []), sample]);
            } finally {
              await browser.close();
            }
          }
          await served.close();
          const redraws = (samples.get('graph') ?? []).flatMap((s) => (s.redrawMs === undefined ? [] : [s.redrawMs]));
          if (redraws.length > 0) report.notes.push(`${corpus.documents} docs, ${way}: graph at depth 2 redraws in ${int(median(redraws))} ms (median of ${redraws.length}) after an edge-type filter change.`);
          for (const [page, list] of samples) {
            const kb = (f: (s: Sample) => number) => int(median(list.map(f)) / 1024);
            report.rows.push([int(corpus.documents), mb, page, way, kb((s) => s.bytes), kb((s) => s.sent), int(median(list.map((s) => s.files))), int(median(list.map((s) => s.ms))), int(Math.max(...list.map((s) => s.ms)))]);
            if (page === 'search' && list.some((s) => s.rows === 0)) report.notes.push(`${corpus.documents} docs, ${way}: a query drew no result rows.`);
          }
        }
      }
      return report;
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  },
};
export default scenario;

/** A `dist/` with the bundle, its pointer, the site app, the sub-bundle and the rendered documents. */
async function prepareDist(work: string, corpus: Corpus, bytes: Uint8Array, app: string): Promise<{ dist: string; siteMs: number }> {
  const dist = join(work, `dist-${corpus.documents}`);
  await mkdir(dist, { recursive: true });
  const { bundleHash } = await import('../../compiler/pack/pack.js');
  const { writeDist } = await import('../../compiler/pack/dist.js');
  const { writeSite } = await import('../../library/site.js');
  const hash = bundleHash(bytes);
  await writeDist(dist, { bytes, hash, fileName: `kdd-${hash}.msgpack` }, decodeBundle(bytes).manifest);
  const started = performance.now();
  await writeSite(dist, { appDir: app, specsDir: corpus.specsDir });
  return { dist, siteMs: performance.now() - started };
}

/** Bytes on disk of the site's pieces (sub-bundle and documents), as written and with their compressed copies. */
async function pieceBytes(dist: string): Promise<{ raw: number; copies: number; files: number }> {
  const { readdir } = await import('node:fs/promises');
  const total = { raw: 0, copies: 0, files: 0 };
  for (const name of await readdir(dist)) {
    const match = /^kdd-(s|docs?)-[0-9a-f]{12}\.(msgpack|json)(\.br|\.gz)?$/.exec(name);
    if (!match) continue;
    const { size } = await stat(join(dist, name));
    if (match[3]) total.copies += size;
    else (total.raw += size), total.files++;
  }
  return total;
}

async function bundleBytes(dist: string): Promise<number> {
  const pointer = JSON.parse(await readFile(join(dist, 'kdd.json'), 'utf8')) as { bytes: number };
  return pointer.bytes;
}

/**
 * sirv over `dir` with `kdd serve`'s compression options, counting response body bytes; `hide`
 * answers 404 (to force the full-bundle way).
 */
async function serve(dir: string, hide: RegExp | null): Promise<Served> {
  const statics = sirv(dir, { dev: true, etag: false, brotli: true, gzip: true });
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

/** Opens `hash` in a cold browser; bytes and time until the page (or the first search answer) is drawn. */
async function firstView(context: Context, served: Served, dist: string, hash: string, marker: 'firstResultMs' | 'firstViewMs', way: 'sharded' | 'bundle'): Promise<Sample> {
  served.sent.length = 0;
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`${served.url}/${hash}`);
  await page.waitForFunction((m) => document.body.dataset[m] !== undefined, marker, { timeout: 300_000, polling: 50 });
  const ms = Number(await page.evaluate((m) => document.body.dataset[m], marker));
  const rows = await page.$$eval('#results li', (items) => items.length);
  const redrawMs = await page.evaluate(() => {
    const box = document.querySelector<HTMLInputElement>('#edge-filter input');
    if (!box) return undefined;
    const started = performance.now();
    box.click(); // the change handler filters, lays out and redraws synchronously
    return performance.now() - started;
  });
  // Requests finished by now; anything later (a background prefetch) is not part of the first view.
  // The sharded way never needs the full bundle: a request for it is the worker's background
  // prefetch (small bundles), started after the answer was computed.
  const sent = served.sent.filter((s) => !(way === 'sharded' && /^\/kdd-[0-9a-f]{12}\.msgpack$/.test(s.path)));
  let bytes = 0;
  for (const { path } of sent) bytes += await stat(join(dist, path === '/' ? 'index.html' : path)).then((s) => s.size, () => 0);
  return { bytes, sent: sent.reduce((sum, s) => sum + s.bytes, 0), files: sent.length, ms, rows, ...(redrawMs === undefined ? {} : { redrawMs }) };
}
