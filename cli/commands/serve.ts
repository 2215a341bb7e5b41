/**
 * `kdd serve [DIR=dist]`: flags → {@link createServer} → listen until SIGINT/SIGTERM.
 * The server module (and sirv) is imported only when this command runs.
 */
import { resolve } from 'node:path';
import { parseFlags, UsageError, type Command, type FlagTable } from '../command.js';

export const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/** `--port` as given: an integer 0–65535 (0 picks a free port), else a usage error. */
export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d{1,5}$/.test(value) || port > 65535) throw new UsageError(`--port must be an integer between 0 and 65535 (got '${value}')`);
  return port;
}

/** Every `kdd serve` flag: what it parses and what `kdd serve --help` prints. */
const SERVE_FLAGS = {
  port: { type: 'string', default: '4700', value: 'N', description: 'TCP port (0 = any free port)' },
  host: { type: 'string', default: '127.0.0.1', value: 'HOST', description: 'Interface to listen on; anything but loopback makes the specs reachable from other machines' },
  cors: { type: 'string', value: 'ORIGIN|*', description: 'Allow browser pages from this origin to call the API (no CORS headers by default)' },
  // DNS-rebinding guard: Host names accepted besides loopback and --host (docs/serve.md).
  'allowed-hosts': { type: 'string', value: 'NAME,…', description: 'Host names or addresses clients may use besides loopback and --host; any other Host header gets 421' },
  'models-dir': { type: 'string', value: 'DIR', description: 'Local model store for embedding questions at L2 (default $KDD_MODELS_DIR or ~/.cache/kdd-index/models)' },
} as const satisfies FlagTable;

export const serveCommand: Command = {
  name: 'serve',
  summary: 'Serve DIR (bundles, kdd.json) and the retrieval API over HTTP, hot-swapping new bundles',
  usage: 'kdd serve [DIR=dist] [options]',
  flags: SERVE_FLAGS,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, SERVE_FLAGS);
    if (positionals.length > 1) throw new UsageError(`unexpected argument '${positionals[1]}'`);
    const port = parsePort(values.port);
    const dir = resolve(io.cwd, positionals[0] ?? 'dist');

    const { createServer } = await import('../../server/http.js');
    // At L2 text queries embed the question with the bundle's model from this store (default $KDD_MODELS_DIR).
    const modelsDir = values['models-dir'] ? resolve(io.cwd, values['models-dir']) : undefined;
    const allowedHosts = (values['allowed-hosts'] ?? '').split(',').map((name) => name.trim()).filter(Boolean);
    const server = createServer({ dir, cors: values.cors ?? null, allowedHosts, log: (line) => io.stderr(`${line}\n`), vectors: { modelsDir } });
    const { url } = await server.listen(port, values.host);
    // Privacy (REQ-003): specs stay on this machine unless the user asks for another interface.
    if (!LOOPBACK.has(values.host)) io.stderr(`kdd serve: warning: listening on ${values.host}, reachable from other machines (clients must name this address or a host of --allowed-hosts)\n`);
    const first = await server.holder.ready;
    if (first.status === 'rejected') io.stderr(`kdd serve: no bundle yet; API answers 503 until ${dir}/kdd.json names a valid bundle\n`);
    io.stdout(`kdd serve: listening on ${url} (serving ${dir})\n`);

    await new Promise<void>((done) => {
      process.once('SIGINT', done);
      process.once('SIGTERM', done);
    });
    await server.close();
    return 0;
  },
};
