/**
 * `kdd dev` (#19): the live loop. Watches the specs tree, rebuilds incrementally after a quiet
 * moment, and serves the site and the retrieval API from the served folder with hot swap
 * (server/http.ts, server/bundle-holder.ts), so an edit is searchable over HTTP, by MCP servers
 * following the folder, and in the open site.
 *
 * Each build goes to a private staging folder (`<out>/.dev-build`, never served: the server refuses
 * dot paths). Only a build that adds no new warning is published — its bundle copied to the served
 * folder, the pointer moved, the site's search sub-bundle written. A broken edit (a new warning, or
 * a failed build) is reported and the last good bundle keeps serving. The outcome of every build is
 * written to `<out>/kdd-dev.json`, which the open site follows (site/src/dev-reload.ts): a new
 * bundle reloads the page, a broken edit shows its warnings on it.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { basename, join, relative, resolve } from 'node:path';
import { watch } from 'chokidar';
import { writeAtomic } from '../compiler/atomic.js';
import { readPointer, writeDist } from '../compiler/pack/dist.js';
import type { BuildWarning } from '../compiler/diagnostics.js';
import { buildIndex, type IndexBuildReport } from '../compiler/pipeline.js';
import { SKIPPED_DIRS, SPEC_EXTENSIONS } from '../compiler/read.js';
import { createServer, type KddServer } from './http.js';
import { DEV_MARKER, DEV_STATUS_FILE, type DevStatus } from '../formats/dev-status.js';
import { writeCompressedCopies } from '../compiler/pack/precompress.js';
import { writeDocuments, writeSearchBundle, writeSite } from '../library/site.js';

export { DEV_STATUS_FILE, type DevStatus };

const STAGING = '.dev-build';

export interface DevOptions {
  specsDir: string;
  /** Served folder: bundles, `kdd.json`, the site. Default `dist`. */
  outDir?: string;
  indexDir?: string;
  port?: number;
  host?: string;
  /** Quiet time after the last change before rebuilding, ms. Default 40. */
  debounceMs?: number;
  /** One line per event (build, publish, broken edit). */
  log?: (line: string) => void;
}

export interface DevSession {
  url: string;
  server: KddServer;
  /** Rebuilds now (the watcher calls this); resolves with the status written. */
  rebuild(): Promise<DevStatus>;
  /** The status of the last finished build. */
  status(): DevStatus;
  close(): Promise<void>;
}

const warningKey = (warning: BuildWarning) => `${warning.code}\u0000${warning.file}\u0000${warning.message}`;

export async function startDev(options: DevOptions): Promise<DevSession> {
  const specsDir = resolve(options.specsDir);
  const outDir = resolve(options.outDir ?? 'dist');
  const indexDir = resolve(options.indexDir ?? '.kdd-index');
  const staging = join(outDir, STAGING);
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  await mkdir(staging, { recursive: true });

  let published = new Set<string>();
  let status: DevStatus = { generation: 0, state: 'ok', bundle: null, changed: [], warnings: [], error: null };

  const first = await buildIndex({ specsDir, outDir: staging, indexDir });
  await publish(first);
  await writeSite(outDir, { specsDir });
  await markDevPage(join(outDir, 'index.html'));
  await writeStatus({ state: 'ok', bundle: first.bundle.bundle, changed: first.changes.reindexed, warnings: first.warnings, error: null });

  const server = createServer({ dir: outDir, log });
  const { url } = await server.listen(options.port ?? 4700, options.host ?? '127.0.0.1');
  await server.holder.ready;

  async function publish(report: IndexBuildReport): Promise<void> {
    const bytes = await readFile(join(staging, report.bundle.bundle));
    const pointer = report.bundle;
    await writeDist(outDir, { bytes, hash: pointer.hash, fileName: pointer.bundle }, pointer);
    published = new Set(report.warnings.map(warningKey));
  }

  async function writeStatus(next: Omit<DevStatus, 'generation'>): Promise<DevStatus> {
    status = { generation: status.generation + 1, ...next, warnings: next.warnings.map(({ code, file, message }) => ({ code, file, message })) };
    await writeAtomic(join(outDir, DEV_STATUS_FILE), `${JSON.stringify(status, null, 2)}\n`);
    return status;
  }

  async function build(): Promise<DevStatus> {
    const started = performance.now();
    let report: IndexBuildReport;
    try {
      report = await buildIndex({ specsDir, outDir: staging, indexDir });
    } catch (error) {
      log(`kdd dev: build failed, still serving ${status.bundle}: ${(error as Error).message}`);
      return writeStatus({ state: 'broken', bundle: status.bundle, changed: [], warnings: [], error: (error as Error).message });
    }
    const fresh = report.warnings.filter((warning) => !published.has(warningKey(warning)));
    if (fresh.length > 0) {
      for (const warning of fresh) log(`kdd dev: ${warning.code} ${warning.message}`);
      log(`kdd dev: not published (${fresh.length} new warning${fresh.length === 1 ? '' : 's'}); still serving ${status.bundle}`);
      return writeStatus({ state: 'broken', bundle: status.bundle, changed: report.changes.reindexed, warnings: fresh, error: null });
    }
    const live = (await readPointer(outDir))?.bundle;
    if (live !== report.bundle.bundle) {
      await publish(report);
      // The API first (one explicit swap instead of waiting for the holder's watcher), then the site.
      await server.swap();
      await writeSearchBundle(outDir);
      // Node pages render the specs as written: the edited one from its new text.
      await writeDocuments(outDir, specsDir);
    } else published = new Set(report.warnings.map(warningKey));
    log(`kdd dev: ${report.changes.reindexed.length ? report.changes.reindexed.join(', ') : 'no spec changed'} → ${report.bundle.bundle} in ${Math.round(performance.now() - started)} ms`);
    return writeStatus({ state: 'ok', bundle: report.bundle.bundle, changed: report.changes.reindexed, warnings: report.warnings, error: null });
  }

  // One build at a time; changes during a build cause exactly one more afterwards.
  let running: Promise<DevStatus> | null = null;
  let queued: Promise<DevStatus> | null = null;
  function rebuild(): Promise<DevStatus> {
    if (!running) {
      running = build().finally(() => (running = null));
      return running;
    }
    queued ??= running.then(() => {
      queued = null;
      return rebuild();
    });
    return queued;
  }

  // chokidar, not node:fs `watch({recursive})`: Node 20's recursive watch on Linux loses a file
  // once an editor saves it by rename (vim, sed -i, atomic writes), and every later edit with it.
  let timer: NodeJS.Timeout | undefined;
  const watcher = watch(specsDir, { ignoreInitial: true, ignored: (path, stats) => ignoredPath(relative(specsDir, path), stats?.isFile() ?? false) });
  watcher.on('all', () => {
    clearTimeout(timer);
    timer = setTimeout(() => void rebuild(), options.debounceMs ?? 40);
  });
  watcher.on('error', (error) => log(`kdd dev: watcher error: ${(error as Error).message}`));
  await new Promise<void>((ready) => watcher.once('ready', ready));

  return {
    url,
    server,
    rebuild,
    status: () => status,
    async close() {
      clearTimeout(timer);
      await watcher.close();
      await running?.catch(() => undefined);
      await server.close();
    },
  };
}

/** What the build's walk skips (compiler/read.ts): hidden and output folders, files that are not specs (editor swap files). */
function ignoredPath(path: string, isFile: boolean): boolean {
  if (path === '') return false;
  if (path.split(/[\\/]/).some((part) => part.startsWith('.') || SKIPPED_DIRS.has(part))) return true;
  return isFile && !SPEC_EXTENSIONS.some((extension) => basename(path).endsWith(extension));
}

/** Adds the dev marker to the served page, so the site follows the status file (site/src/dev-reload.ts). */
async function markDevPage(page: string): Promise<void> {
  const html = await readFile(page, 'utf8');
  if (html.includes(DEV_MARKER)) return;
  const marked = html.replace('</head>', `  ${DEV_MARKER}\n  </head>`);
  await writeAtomic(page, marked);
  // The served page may be a compressed copy: it must carry the marker too.
  await writeCompressedCopies(page, new TextEncoder().encode(marked));
}
