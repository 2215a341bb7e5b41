/**
 * `kdd dev [SPECS=specs]`: flags → {@link startDev} → run until SIGINT/SIGTERM, then close cleanly.
 * The dev loop (and the server it starts) is imported only when this command runs.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseFlags, UsageError, type Command } from '../command.js';
import { LOOPBACK, parsePort } from './serve.js';

export const devCommand: Command = {
  name: 'dev',
  summary: 'Watch the specs, rebuild on change and serve the site and API with live reload',
  usage: 'kdd dev [SPECS_DIR=specs] [--port 4700] [--host 127.0.0.1] [--out dist] [--index-dir .kdd-index]',
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, {
      port: { type: 'string', default: '4700' },
      host: { type: 'string', default: '127.0.0.1' },
      out: { type: 'string', default: 'dist' },
      'index-dir': { type: 'string', default: '.kdd-index' },
    });
    if (positionals.length > 1) throw new UsageError(`unexpected argument '${positionals[1]}'`);
    const port = parsePort(values.port);
    const specs = positionals[0] ?? 'specs';
    if (!existsSync(resolve(io.cwd, specs))) throw new UsageError(`no specs folder at ${specs} (give SPECS_DIR)`);

    const { startDev } = await import('../../server/dev.js');
    const session = await startDev({
      specsDir: resolve(io.cwd, specs),
      outDir: resolve(io.cwd, values.out),
      indexDir: resolve(io.cwd, values['index-dir']),
      port,
      host: values.host,
      log: (line) => io.stderr(`${line}\n`),
    });
    // Privacy (REQ-003), as kdd serve: specs stay on this machine unless the user asks otherwise.
    if (!LOOPBACK.has(values.host)) io.stderr(`kdd dev: warning: listening on ${values.host}, reachable from other machines\n`);
    const { warnings, bundle } = session.status();
    for (const warning of warnings) io.stderr(`kdd dev: ${warning.code} ${warning.message}\n`);
    io.stdout(`kdd dev: listening on ${session.url} (serving ${bundle}; watching ${specs})\n`);

    await new Promise<void>((done) => {
      process.once('SIGINT', done);
      process.once('SIGTERM', done);
    });
    await session.close();
    io.stdout('kdd dev: stopped\n');
    return 0;
  },
};
