/**
 * `kdd serve` (#5): `node:http` + sirv. Static files of DIR (the bundles, `kdd.json`, any pages)
 * and the retrieval API of {@link ROUTES}. Read-only: nothing here writes to disk.
 *
 * A request grabs the current bundle once ({@link BundleHolder.current}) and answers from it even
 * if a hot swap happens meanwhile. Every error is a {@link KddError} from the one table: its code
 * picks the status, the body is `{error:{code,message}}`, never a stack (5xx are logged to stderr
 * in one line).
 *
 * Time limit (what it really covers): queries are synchronous and cannot be interrupted, so their
 * cost is bounded up front by the limits the queries enforce (depth ≤ 5, limit ≤ 100) and by the
 * body and URL size limits here. The clock ({@link ServerLimits.bodyTimeoutMs}, answer 504
 * `TIMEOUT`) covers receiving the body. At L2 a text query first embeds its text with the local
 * model (library/query-vectors.ts: loaded once, on the first such query), which the slow-query
 * log counts in. Node's own `requestTimeout` and
 * `headersTimeout` close connections that trickle headers. Queries slower than
 * `slowQueryMs` are logged.
 */
import { createServer as createHttpServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { realpath, stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import sirv from 'sirv';
import { createError, toKddError, type KddError } from '../model/errors.js';
import { BodyError, readJsonBody } from './body.js';
import { createBundleHolder, type BundleHolder, type BundleHolderOptions, type LoadedBundle, type ReloadOutcome } from './bundle-holder.js';
import { createQueryVectors, type QueryVectorOptions } from '../library/query-vectors.js';
import { findRoute, isApiPath, queryParams, type Route } from './routes.js';

export interface ServerLimits {
  /** Largest JSON body, bytes. Default 64 KiB (413 `PAYLOAD_TOO_LARGE` above). */
  maxBodyBytes: number;
  /** Longest request target (path + query string), characters. Default 4096 (400 `INVALID_PARAMS`). */
  maxUrlLength: number;
  /** Deepest array/object nesting of a JSON body. Default 32 (400 `INVALID_PARAMS`). */
  maxJsonDepth: number;
  /** Time to receive a request body, ms. Default 5000 (504 `TIMEOUT`). */
  bodyTimeoutMs: number;
  /** Node `server.requestTimeout`: whole request received within, ms. Default 15000. */
  requestTimeoutMs: number;
  /** Node `server.headersTimeout`, ms. Default 10000. */
  headersTimeoutMs: number;
  /** Queries slower than this are logged, ms. Default 250. */
  slowQueryMs: number;
}

export const DEFAULT_LIMITS: Readonly<ServerLimits> = {
  maxBodyBytes: 64 * 1024,
  maxUrlLength: 4096,
  maxJsonDepth: 32,
  bodyTimeoutMs: 5000,
  requestTimeoutMs: 15_000,
  headersTimeoutMs: 10_000,
  slowQueryMs: 250,
};

export interface ServeOptions {
  /** Folder with `kdd.json` and the bundles; also the static root. */
  dir: string;
  /** `Access-Control-Allow-Origin` value (an origin or `*`); null/absent: no CORS headers. */
  cors?: string | null;
  limits?: Partial<ServerLimits>;
  /** One line per event on stderr by default. */
  log?: (line: string) => void;
  /** Passed to the bundle holder (watch, pollMs, debounceMs, load). */
  holder?: Omit<BundleHolderOptions, 'dir' | 'log'>;
  /** How text queries are embedded at L2 (`embedder`, `modelsDir`: library/query-vectors.ts). */
  vectors?: QueryVectorOptions;
  /**
   * Host names (or addresses) requests may name besides loopback ones and the address listened on
   * (`--allowed-hosts`). Any other `Host` header gets 421: a page on another site whose name was
   * re-pointed at 127.0.0.1 (DNS rebinding) cannot read the specs through a browser.
   */
  allowedHosts?: readonly string[];
}

export interface KddServer {
  /** Starts listening. Port 0 picks a free port. Default 4700 on 127.0.0.1. */
  listen(port?: number, host?: string): Promise<{ url: string; port: number; host: string }>;
  /** Stops accepting, closes open connections and the watcher. */
  close(): Promise<void>;
  /** Re-reads `kdd.json` now and swaps if it names a new loadable bundle (the watcher does this by itself). */
  swap(): Promise<ReloadOutcome>;
  readonly holder: BundleHolder;
  readonly server: Server;
}

/**
 * Content-hashed names — bundles, the site's search shards, Vite's hashed assets: their bytes never
 * change, so caches may keep them forever.
 */
const HASHED_FILE = /^\/(kdd-[0-9a-f]{12}\.msgpack|kdd-s-[0-9a-f]{12}\.msgpack|kdd-docs?-[0-9a-f]{12}\.json|kdd-site-assets\/.+-[\w-]{8,}\.\w+)$/;
const IMMUTABLE = 'public, max-age=31536000, immutable';
const MSGPACK_TYPE = 'application/vnd.msgpack';

export function createServer(options: ServeOptions): KddServer {
  const dir = resolve(options.dir);
  const limits: ServerLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const cors = options.cors ?? null;
  const holder = createBundleHolder({ ...options.holder, dir, log });
  // One per process: the model is loaded on the first text query and kept across hot swaps.
  const vectors = createQueryVectors(options.vectors);
  // dev mode: sirv stats the file on each request instead of caching the folder listing at start,
  // so bundles written after start are served and a rewritten kdd.json gets a correct length.
  const statics = sirv(dir, {
    dev: true,
    etag: true,
    extensions: ['html'],
    dotfiles: false,
    // `kdd site` writes X.br / X.gz next to the files worth compressing: sent when the client accepts them.
    brotli: true,
    gzip: true,
    setHeaders: (res, pathname) => {
      res.setHeader('Cache-Control', HASHED_FILE.test(pathname) ? IMMUTABLE : 'no-cache');
      if (pathname.endsWith('.msgpack')) res.setHeader('Content-Type', MSGPACK_TYPE);
    },
  });

  const server = createHttpServer((req, res) => {
    handle(req, res).catch((error: unknown) => sendError(req, res, error));
  });
  server.requestTimeout = limits.requestTimeoutMs;
  server.headersTimeout = limits.headersTimeoutMs;
  // Requests Node's parser refuses before any handler runs (headers over 16 KiB, bad syntax,
  // timeouts) still get a typed JSON answer instead of Node's bare status line.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const kdd =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? createError('INVALID_PARAMS', { field: 'headers', reason: 'request line and headers exceed the server limit (16 KiB)' })
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? createError('TIMEOUT', { timeout_ms: limits.requestTimeoutMs })
          : createError('INVALID_PARAMS', { field: 'request', reason: 'malformed HTTP request' });
    const text = JSON.stringify(kdd.toJSON());
    socket.end(
      `HTTP/1.1 ${kdd.status} ${STATUS_CODES[kdd.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
    );
  });

  const hosts = new Set((options.allowedHosts ?? []).map((host) => host.toLowerCase()));

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (cors) setCors(res, cors);
    const host = hostName(req.headers.host);
    if (host !== null && !isLoopbackName(host) && !hosts.has(host)) throw createError('HOST_NOT_ALLOWED', { host });
    const target = req.url ?? '/';
    if (target.length > limits.maxUrlLength) {
      throw createError('INVALID_PARAMS', { field: 'url', reason: `request target exceeds ${limits.maxUrlLength} characters` });
    }
    const url = parseTarget(target);
    if (req.method === 'OPTIONS' && cors) {
      res.writeHead(204, { 'Access-Control-Allow-Methods': 'GET, HEAD, POST, OPTIONS', 'Access-Control-Allow-Headers': 'Content-Type', 'Access-Control-Max-Age': '600' });
      res.end();
      return;
    }
    if (isApiPath(url.pathname)) await api(req, res, url);
    else await serveStatic(req, res, url);
  }

  async function api(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const match = findRoute(req.method ?? '', url.pathname);
    if (!match) throw createError('NOT_FOUND', { path: url.pathname });
    if ('allowed' in match) {
      res.setHeader('Allow', match.allowed.join(', '));
      throw createError('METHOD_NOT_ALLOWED', { method: String(req.method), path: url.pathname });
    }
    const { route } = match;
    // The one read of the current bundle for this request (hot swap, #5).
    const loaded = route.index === 'optional' ? holder.current() : holder.require();
    const params = await readParams(route, req, url);
    const started = performance.now();
    const result = await route.run(loaded, params, vectors);
    const took = performance.now() - started;
    if (took > limits.slowQueryMs) log(`kdd serve: slow query ${route.method} ${route.path} took ${Math.round(took)} ms`);
    sendJson(res, 200, result, loaded);
  }

  function readParams(route: Route, req: IncomingMessage, url: URL): Promise<unknown> | unknown {
    if (route.source === 'query') return queryParams(url.searchParams);
    return readJsonBody(req, { maxBytes: limits.maxBodyBytes, timeoutMs: limits.bodyTimeoutMs, maxDepth: limits.maxJsonDepth });
  }

  async function serveStatic(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      throw createError('METHOD_NOT_ALLOWED', { method: String(req.method), path: url.pathname });
    }
    // sirv already refuses paths that resolve outside DIR; this also refuses dot-segments and
    // dotfiles before any file-system call (sirv's dev mode would serve dotfiles).
    // Checked as sent (URL parsing would quietly resolve `/../x` to `/x`) and as normalised.
    const sent = (req.url ?? '/').split('?', 1)[0]!;
    if (!safeStaticPath(sent) || !safeStaticPath(url.pathname) || !(await staysInside(dir, url.pathname))) {
      throw createError('NOT_FOUND', { path: url.pathname });
    }
    // sirv reads req.url itself: hand it exactly the (normalised) path that was checked.
    req.url = `${url.pathname}${url.search}`;
    dropBadRange(req);
    statics(req, res, () => sendError(req, res, createError('NOT_FOUND', { path: url.pathname })));
  }

  function sendError(req: IncomingMessage, res: ServerResponse, error: unknown): void {
    const close = error instanceof BodyError && error.closeConnection;
    let kdd: KddError = error instanceof BodyError ? error.error : toKddError(error);
    if (kdd.status >= 500 && kdd.code !== 'INDEX_UNAVAILABLE' && kdd.code !== 'TIMEOUT') {
      const cause = kdd.cause instanceof Error ? kdd.cause : kdd;
      log(`kdd serve: ${req.method} ${req.url} failed: ${kdd.code}: ${cause.message.replace(/\s+/g, ' ')}`);
      // The message of an unexpected failure may name internals; the log has it, the client does not.
      if (kdd.code === 'INTERNAL_ERROR') kdd = createError('INTERNAL_ERROR', { detail: 'unexpected failure (see the server log)' });
    }
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (close) res.setHeader('Connection', 'close');
    sendJson(res, kdd.status, kdd.toJSON(), null);
  }

  return {
    holder,
    server,
    swap: () => holder.reload(),
    listen(port = 4700, host = '127.0.0.1') {
      return new Promise((resolveListen, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          // The address it was told to listen on is a name clients may use (a wildcard is not).
          if (host !== '0.0.0.0' && host !== '::') hosts.add(host.toLowerCase().replace(/^\[(.*)\]$/, '$1'));
          const address = server.address() as AddressInfo;
          const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
          resolveListen({ url: `http://${shown}:${address.port}`, port: address.port, host: address.address });
        });
      });
    },
    close() {
      holder.close();
      return new Promise<void>((resolveClose) => {
        server.close(() => resolveClose());
        server.closeAllConnections();
      }).then(() => vectors.close());
    },
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown, loaded: LoadedBundle | null): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  // Which bundle answered: clients (and the hot-swap test) can tell old from new answers.
  if (loaded) res.setHeader('X-Kdd-Bundle', loaded.hash);
  res.end(text);
}

function setCors(res: ServerResponse, origin: string): void {
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Access-Control-Expose-Headers', 'X-Kdd-Bundle');
  if (origin !== '*') res.setHeader('Vary', 'Origin');
}

/** The request target as a URL; absolute-form targets (`GET http://host/x`) keep only path + query. */
function parseTarget(target: string): URL {
  try {
    const url = new URL(target, 'http://kdd.local');
    return new URL(`${url.pathname}${url.search}`, 'http://kdd.local');
  } catch {
    throw createError('INVALID_PARAMS', { field: 'url', reason: 'is not a valid request target' });
  }
}

/** No `..`/`.` segments, no dotfiles, no NUL or backslash, once percent-decoded. */
export function safeStaticPath(pathname: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return false;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return false;
  return decoded.split('/').every((segment) => !segment.startsWith('.'));
}

/**
 * The file sirv would pick for `pathname` (its candidates, in its order: as is, `/index`, `.html`,
 * `/index.html`) must not be a symlink leading out of DIR.
 */
async function staysInside(dir: string, pathname: string): Promise<boolean> {
  const root = (await realOrNull(dir)) ?? dir;
  const base = join(dir, decodeURIComponent(pathname));
  for (const candidate of [base, join(base, 'index'), `${base}.html`, join(base, 'index.html')]) {
    const real = await realOrNull(candidate);
    if (real === null) continue;
    if (real !== root && !real.startsWith(root + sep)) return false;
    if ((await stat(real)).isFile()) return true;
  }
  return true;
}

async function realOrNull(path: string): Promise<string | null> {
  try {
    return await realpath(path);
  } catch {
    return null;
  }
}

/** sirv trusts `Range`; anything but one well-formed `bytes=a-b` range is dropped (full answer). */
function dropBadRange(req: IncomingMessage): void {
  const range = req.headers.range;
  if (range === undefined) return;
  const match = /^bytes=(\d{1,15})-(\d{0,15})$/.exec(range);
  if (!match || (match[2] !== '' && Number(match[2]) < Number(match[1]))) delete req.headers.range;
}

/** The host name of a `Host` header without its port (`[::1]:4700` → `::1`), lower case; null when absent. */
function hostName(header: string | undefined): string | null {
  if (!header) return null;
  const name = header.startsWith('[') ? header.slice(1, header.indexOf(']')) : header.replace(/:\d*$/, '');
  return name.toLowerCase().replace(/\.$/, '');
}

function isLoopbackName(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
