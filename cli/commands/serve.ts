/**
 * `kdd serve [DIR=dist]`: flags → {@link createServer} → listen until SIGINT/SIGTERM.
 * The server module (and sirv) is imported only when this command runs.
 */
import { resolve } from 'node:path';
import { parseFlags, UsageError, type Command, type FlagTable } from '../command.js';

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/** Every `kdd serve` flag: what it parses and what `kdd serve --help` prints. */
const SERVE_FLAGS = {
  port: { type: 'string', default: '4700', value: 'N', description: 'TCP port (0 = any free port)' },
  host: { type: 'string', default: '127.0.0.1', value: 'HOST', description: 'Interface to listen on; anything but loopback makes the specs reachable from other machines' },
  cors: { type: 'string', value: 'ORIGIN|*', description: 'Allow browser pages from this origin to call the API (no CORS headers by default)' },
} as const satisfies FlagTable;

export const serveCommand: Command = {
  name: 'serve',
  summary: 'Serve DIR (bundles, kdd.json) and the retrieval API over HTTP, hot-swapping new bundles',
  usage: 'kdd serve [DIR=dist] [options]',
  flags: SERVE_FLAGS,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, SERVE_FLAGS);
    if (positionals.length > 1) throw new UsageError(`unexpected argument '${positionals[1]}'`);
    const port = Number(values.port);
    if (!/^\d{1,5}$/.test(values.port) || port > 65535) throw new UsageError(`--port must be an integer between 0 and 65535 (got '${values.port}')`);
    const dir = resolve(io.cwd, positionals[0] ?? 'dist');

    const { createServer } = await import('../../server/http.js');
    const server = createServer({ dir, cors: values.cors ?? null, log: (line) => io.stderr(`${line}\n`) });
    const { url } = await server.listen(port, values.host);
    // Privacy (REQ-003): specs stay on this machine unless the user asks for another interface.
    if (!LOOPBACK.has(values.host)) io.stderr(`kdd serve: warning: listening on ${values.host}, reachable from other machines\n`);
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
