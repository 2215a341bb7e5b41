/**
 * Hot swap for `kdd serve` and `kdd mcp` (#5): holds the current {@link KddIndex} of a `dist/`
 * folder and replaces it when `kdd.json` starts naming another bundle.
 *
 * - Watching: `fs.watch` on the folder (the compiler replaces `kdd.json` by rename, which a watch on
 *   the file itself would lose) plus a stat poll every `pollMs` as a fallback for file systems where
 *   watching is unreliable (network mounts, some containers). Events are debounced.
 * - Loading happens in the background; the reference is swapped in one assignment. Adapters call
 *   {@link BundleHolder.current} once at the start of a request, so an in-flight request finishes
 *   on the bundle it started with and no answer mixes two bundles.
 * - A new bundle that fails to load (corrupt bytes, hash tag mismatch, unknown format, bad
 *   pointer) is rejected with one log line; the previous one keeps serving. The same broken
 *   pointer is reported once, not on every poll.
 * - Until the first successful load, {@link BundleHolder.require} throws `INDEX_UNAVAILABLE`, and
 *   the poller retries every tick.
 */
import { watch, type FSWatcher } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { loadBundle } from '../library/load-bundle.js';
import { POINTER_FILE } from '../formats/bundle/types.js';
import { createError, toKddError } from '../model/errors.js';
import type { KddIndex } from '../runtime/kdd-index.js';
import { parsePointer } from '../runtime/load.js';

/** One loaded bundle, as every request sees it. Never mutated after creation. */
export interface LoadedBundle {
  readonly index: KddIndex;
  /** File name the pointer named (`kdd-<hash>.msgpack`). */
  readonly file: string;
  /** First 12 hex chars of the bundle's SHA-256. */
  readonly hash: string;
  /** ISO-8601 wall-clock time this process finished loading it. */
  readonly loadedAt: string;
}

export type ReloadOutcome =
  | { status: 'loaded'; hash: string; previous: string | null }
  | { status: 'unchanged'; hash: string }
  | { status: 'rejected'; code: string; message: string };

export interface BundleHolderOptions {
  /** Folder holding `kdd.json` and the bundles (e.g. `dist`). */
  dir: string;
  /** One line per event (load, swap, rejection). Default: stderr. */
  log?: (line: string) => void;
  /** Watch the folder for new pointers. Default true. */
  watch?: boolean;
  /** Stat-poll interval of the fallback watcher, ms. Default 1000. */
  pollMs?: number;
  /** Quiet period after a change before reloading, ms. Default 75. */
  debounceMs?: number;
  /** Loader (tests inject delays). Default `loadBundle` from the library. */
  load?: (bundlePath: string) => Promise<KddIndex>;
}

export interface BundleHolder {
  /** The bundle to answer with, or null before the first successful load. Grab it once per request. */
  current(): LoadedBundle | null;
  /** Like {@link current} but throws `INDEX_UNAVAILABLE` (HTTP 503) when nothing is loaded. */
  require(): LoadedBundle;
  /** Reads the pointer now and swaps if it names a new, loadable bundle. Calls are serialised. */
  reload(): Promise<ReloadOutcome>;
  /** Resolves after the first load attempt (successful or not). */
  readonly ready: Promise<ReloadOutcome>;
  /** Stops watching; the loaded bundle stays readable. */
  close(): void;
}

const stderrLog = (line: string) => process.stderr.write(`${line}\n`);

export function createBundleHolder(options: BundleHolderOptions): BundleHolder {
  const dir = resolve(options.dir);
  const pointerPath = join(dir, POINTER_FILE);
  const log = options.log ?? stderrLog;
  const load = options.load ?? loadBundle;
  const debounceMs = options.debounceMs ?? 75;

  let loaded: LoadedBundle | null = null;
  /** Pointer text + error of the last rejected attempt: the same failure is logged once. */
  let lastRejected: string | null = null;
  let running: Promise<ReloadOutcome> | null = null;
  let again = false;
  let closed = false;

  async function attempt(): Promise<ReloadOutcome> {
    let text = '';
    try {
      text = await readPointerText(pointerPath);
      const pointer = parsePointer(parseJson(text, pointerPath), pointerPath);
      if (loaded && pointer.bundle === loaded.file) return { status: 'unchanged', hash: loaded.hash };
      const index = await load(join(dir, pointer.bundle));
      const previous = loaded?.hash ?? null;
      // The swap: one assignment. Requests that already hold the old LoadedBundle keep it.
      loaded = Object.freeze({ index, file: pointer.bundle, hash: index.hash, loadedAt: new Date().toISOString() });
      lastRejected = null;
      log(`kdd: ${previous ? `swapped bundle ${previous} -> ${index.hash}` : `loaded bundle ${index.hash}`} (${index.bundle.nodes.length} nodes) from ${dir}`);
      return { status: 'loaded', hash: index.hash, previous };
    } catch (error) {
      const kdd = toKddError(error);
      const key = `${text}\u0000${kdd.message}`;
      if (key !== lastRejected) {
        const keeping = loaded ? `; still serving ${loaded.hash}` : '';
        log(`kdd: rejected new bundle: ${kdd.code}: ${kdd.message.replace(/\s+/g, ' ')}${keeping}`);
      }
      lastRejected = key;
      return { status: 'rejected', code: kdd.code, message: kdd.message };
    }
  }

  /** Serialises reloads; a change during a load triggers exactly one more pass afterwards. */
  function reload(): Promise<ReloadOutcome> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let outcome: ReloadOutcome;
      do {
        again = false;
        outcome = await attempt();
      } while (again && !closed);
      running = null;
      return outcome;
    })();
    return running;
  }

  const ready = reload();

  let timer: NodeJS.Timeout | null = null;
  const schedule = () => {
    if (closed) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      void reload();
    }, debounceMs);
    timer.unref();
  };

  let watcher: FSWatcher | null = null;
  let poller: NodeJS.Timeout | null = null;
  if (options.watch ?? true) {
    watcher = watchDir(dir, schedule);
    let last = '';
    poller = setInterval(() => {
      void pointerSignature(pointerPath).then((signature) => {
        // While nothing is loaded, every tick retries (a transient read error, or a dist/ that
        // appears later); afterwards only a changed pointer does.
        if ((signature !== last && last !== '') || (loaded === null && !running)) schedule();
        last = signature;
      });
    }, options.pollMs ?? 1000);
    poller.unref();
    void pointerSignature(pointerPath).then((signature) => (last ||= signature));
  }

  return {
    current: () => loaded,
    require() {
      const now = loaded;
      if (!now) throw createError('INDEX_UNAVAILABLE', { reason: `no bundle loaded yet from ${dir} (run \`kdd build\`)` });
      return now;
    },
    reload,
    ready,
    close() {
      closed = true;
      watcher?.close();
      if (poller) clearInterval(poller);
      if (timer) clearTimeout(timer);
    },
  };
}

/** Watches the folder for `kdd.json` changes; null when the platform or folder does not allow it. */
function watchDir(dir: string, onChange: () => void): FSWatcher | null {
  try {
    const watcher = watch(dir, { persistent: false }, (_event, name) => {
      if (name === null || name === POINTER_FILE) onChange();
    });
    // A deleted folder or a platform error: the poller keeps going.
    watcher.on('error', () => watcher.close());
    return watcher;
  } catch {
    return null;
  }
}

async function readPointerText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw createError('INDEX_UNAVAILABLE', { reason: `cannot read ${path} (${code === 'ENOENT' ? 'no such file' : (error as Error).message})` });
  }
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw createError('INDEX_UNAVAILABLE', { reason: `${where} is not valid JSON` });
  }
}

/** mtime + size + inode: changes on every rewrite or rename-replace of the pointer. */
async function pointerSignature(path: string): Promise<string> {
  try {
    const info = await stat(path);
    return `${info.mtimeMs}:${info.size}:${info.ino}`;
  } catch {
    return 'missing';
  }
}
