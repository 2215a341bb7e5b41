/**
 * `kdd serve [DIR=dist]`: flags → {@link createServer} → listen until SIGINT/SIGTERM.
 * The server module (and sirv) is imported only when this command runs.
 */
import { resolve } from 'node:path';
import { parseFlags, UsageError, type Command } from '../command.js';

export const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/** `--port` as given: an integer 0–65535 (0 picks a free port), else a usage error. */
export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d{1,5}$/.test(value) || port > 65535) throw new UsageError(`--port must be an integer between 0 and 65535 (got '${value}')`);
  return port;
}

export const serveCommand: Command = {
  name: 'serve',
  summary: 'Serve DIR (bundles, kdd.json) and the retrieval API over HTTP, hot-swapping new bundles',
  usage: 'kdd serve [DIR=dist] [--port 4700] [--host 127.0.0.1] [--cors ORIGIN|*] [--allowed-hosts NAME,…] [--models-dir DIR]',
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, {
      port: { type: 'string', default: '4700' },
      host: { type: 'string', default: '127.0.0.1' },
      cors: { type: 'string' },
      'models-dir': { type: 'string' },
      // DNS-rebinding guard: Host names accepted besides loopback and --host (docs/serve.md).
      'allowed-hosts': { type: 'string' },
    });
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
