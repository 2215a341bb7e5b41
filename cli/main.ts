#!/usr/bin/env node
/**
 * `kdd` entry: picks the sub-command, runs it, maps errors to exit codes. No logic of its own.
 */
import { pathToFileURL } from 'node:url';
import { realpathSync } from 'node:fs';
import { UsageError, type CliIO, type Command } from './command.js';
import { buildCommand } from './commands/build.js';
import { checkCommand } from './commands/check.js';
import { chunksCommand } from './commands/chunks.js';
import { devCommand } from './commands/dev.js';
import { enrichCommand } from './commands/enrich.js';
import { hookCommand } from './commands/hook.js';
import { mcpCommand } from './commands/mcp.js';
import { mergeCommand } from './commands/merge.js';
import { modelCommand } from './commands/model.js';
import { QUERY_COMMANDS } from './commands/query-commands.js';
import { serveCommand } from './commands/serve.js';
import { siteCommand } from './commands/site.js';
import { syncCommand } from './commands/sync.js';

const COMMANDS: readonly Command[] = [buildCommand, checkCommand, mergeCommand, syncCommand, hookCommand, ...QUERY_COMMANDS, chunksCommand, serveCommand, devCommand, siteCommand, mcpCommand, modelCommand, enrichCommand];

function help(): string {
  const width = Math.max(...COMMANDS.map((command) => command.name.length));
  const rows = COMMANDS.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`);
  return `Usage: kdd <command> [options]\n\nCommands:\n${rows.join('\n')}\n\nRun 'kdd <command> --help' for a command's options.\n`;
}

/** Runs the CLI in-process and returns the exit code (used by bin and tests). */
export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h') {
    io.stdout(help());
    return name ? 0 : 2;
  }
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (!command) {
    io.stderr(`kdd: unknown command '${name}'\n\n${help()}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout(command.help ?? `${command.usage}\n\n${command.summary}\n`);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`kdd ${name}: ${error.message}\nUsage: ${command.usage}\n`);
      return 2;
    }
    const coded = error as { code?: string; exitCode?: number; message?: string };
    if (typeof coded.exitCode === 'number') {
      io.stderr(`kdd ${name}: ${coded.code}: ${coded.message}\n`);
      return coded.exitCode;
    }
    io.stderr(`kdd ${name}: ${(error as Error).stack ?? String(error)}\n`);
    return 1;
  }
}

export const processIO = (): CliIO => ({
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  isTTY: Boolean(process.stdout.isTTY),
  cwd: process.cwd(),
});

const invokedDirectly = process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href;
if (invokedDirectly) {
  // `kdd health --json | head`: the reader went away, which is not an error of ours: stop quietly.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(0);
      throw error;
    });
  }
  process.exitCode = await runCli(process.argv.slice(2), processIO());
}
