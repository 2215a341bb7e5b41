#!/usr/bin/env node
/**
 * `kdd` entry: picks the sub-command, loads its module, runs it, maps errors to exit codes.
 *
 * Start-up time is the product here: `kdd --help` and a one-shot query must not pay for modules
 * they never use (the compiler, the MCP SDK, the HTTP server…). So this file imports nothing but
 * `command.ts`, and the catalog below holds what `kdd --help` lists; each command's module is
 * imported only when that command runs. test/cli/catalog.test.ts checks the catalog against the
 * modules it loads.
 */
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { commandHelp, UsageError, type CliIO, type Command } from './command.js';

interface CatalogEntry {
  name: string;
  summary: string;
  load(): Promise<Command>;
}

const queryCommand = (name: string) => async () => {
  const { QUERY_COMMANDS } = await import('./commands/query-commands.js');
  return QUERY_COMMANDS.find((command) => command.name === name)!;
};

/** Every command, in the order `kdd --help` lists them. */
export const CATALOG: readonly CatalogEntry[] = [
  { name: 'build', summary: 'Index a specs tree into .kdd-index/ and a content-hashed bundle in dist/', load: async () => (await import('./commands/build.js')).buildCommand },
  { name: 'check', summary: 'Report every problem of a specs tree with file, line and rule (CI gate; text, json, sarif, github)', load: async () => (await import('./commands/check.js')).checkCommand },
  { name: 'merge', summary: 'Merge several indexes (.kdd-index/ folders, bundles or git refs) into one bundle (BR-MERGE-001)', load: async () => (await import('./commands/merge.js')).mergeCommand },
  { name: 'sync', summary: "Push this index to a shared folder or git remote, pull the team's merged index (UC-007); never sends spec files", load: async () => (await import('./commands/sync.js')).syncCommand },
  { name: 'hook', summary: 'Install or remove the git hook that keeps .kdd-index/ up to date (incremental build)', load: async () => (await import('./commands/hook.js')).hookCommand },
  { name: 'context', summary: 'Hybrid retrieval: the specs to read for a task, ranked, with snippets and the edges between them, within a token budget (QRY-003)', load: queryCommand('context') },
  { name: 'search', summary: 'Ranked search over every spec: semantic at L2 (with the model), lexical otherwise; no graph expansion (QRY-002)', load: queryCommand('search') },
  { name: 'hints', summary: 'Context from what you have at hand (file paths, names, ids, keywords): the rules and constraints first, then related behaviour (QRY-007)', load: queryCommand('hints') },
  { name: 'graph', summary: 'The specs within a few hops of one node, how each was reached, and the edges between them (QRY-001)', load: queryCommand('graph') },
  { name: 'impact', summary: 'What a change to a spec affects, directly and transitively, with a reason each, and the BDD scenarios to re-run (QRY-004)', load: queryCommand('impact') },
  { name: 'coverage', summary: 'Which related artefacts KDD expects for a spec of this kind, which exist and which are missing (QRY-005)', load: queryCommand('coverage') },
  { name: 'violations', summary: 'Links that go up the KDD layer hierarchy, which BR-LAYER-001 forbids, each explained (QRY-006)', load: queryCommand('violations') },
  { name: 'health', summary: 'Index health: wiki-links that resolve to no spec (dangling) and specs with no links at all (orphans)', load: queryCommand('health') },
  { name: 'chunks', summary: 'The spec passages most similar to a query, each with its URL, position and a 0–1 score, for RAG (docs/chunks.md)', load: async () => (await import('./commands/chunks.js')).chunksCommand },
  { name: 'serve', summary: 'Serve DIR (bundles, kdd.json) and the retrieval API over HTTP, hot-swapping new bundles', load: async () => (await import('./commands/serve.js')).serveCommand },
  { name: 'dev', summary: 'Watch the specs, rebuild on change and serve the site and API with live reload', load: async () => (await import('./commands/dev.js')).devCommand },
  { name: 'site', summary: 'Write the static search site (and its search sub-bundle) next to the bundle in DIR', load: async () => (await import('./commands/site.js')).siteCommand },
  { name: 'mcp', summary: 'MCP server on stdio (tools: kdd_context, kdd_search, kdd_impact, …) for AI agents', load: async () => (await import('./commands/mcp.js')).mcpCommand },
  { name: 'model', summary: 'Download (pull) or list the local embedding models used for L2 semantic indexing', load: async () => (await import('./commands/model.js')).modelCommand },
  { name: 'enrich', summary: 'Enrich nodes with your AI agent: summary, implicit relations, impact notes (CMD-003, L3)', load: async () => (await import('./commands/enrich.js')).enrichCommand },
];

function help(): string {
  const width = Math.max(...CATALOG.map((entry) => entry.name.length));
  const rows = CATALOG.map((entry) => `  ${entry.name.padEnd(width)}  ${entry.summary}`);
  return `Usage: kdd <command> [options]\n\nCommands:\n${rows.join('\n')}\n\nRun 'kdd <command> --help' for a command's options.\n`;
}

/** The catalog name closest to a mistyped one, when it is close enough to be what was meant. */
export function nearestCommand(typed: string): string | null {
  let best: { name: string; distance: number } | null = null;
  for (const { name } of CATALOG) {
    const distance = editDistance(typed.toLowerCase(), name);
    if (!best || distance < best.distance) best = { name, distance };
  }
  // One edit in four letters: `contxt`, `buidl`, `serv` are typos; `foo` is not a near miss of `hook`.
  return best && best.distance <= Math.max(1, Math.floor(best.name.length / 3)) ? best.name : null;
}

/** Damerau–Levenshtein distance (optimal string alignment): a swap of two letters is one typo. */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** Runs the CLI in-process and returns the exit code (used by bin and tests). */
export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h') {
    io.stdout(help());
    return name ? 0 : 2;
  }
  const entry = CATALOG.find((candidate) => candidate.name === name);
  if (!entry) {
    const nearest = nearestCommand(name);
    io.stderr(`kdd: unknown command '${name}'${nearest ? ` (did you mean ${nearest}?)` : ''}\n\n${help()}`);
    return 2;
  }
  const command = await entry.load();
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout(commandHelp(command));
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

/** Commands that leave nothing running once `run` resolves (no server, watcher or child): their process may end right then. */
const ENDS_WHEN_DONE = new Set(['build']);

/**
 * V8 hands a function to its optimising compiler (TurboFan, on background threads) once the function
 * has run a set amount of bytecode. In a `kdd build` or `kdd check` process most of the code runs a
 * few dozen times and the process is over in a fraction of a second, yet enough of it reaches that
 * mark that compiling it took a third of a 54-document build's CPU, competing with the build for the
 * second core. Eight times the default amount leaves the optimiser only what is really hot (the
 * tokenizer, the scanners, the encoders of a large tree). Measured in docs/decisions/build-speed.md;
 * output does not depend on it (it only changes when code is compiled, not what it computes).
 * A one-shot query gained nothing from it (same CPU), so only these two commands set it.
 */
const SHORT_PROCESSES = new Set(['build', 'check']);

/**
 * The V8 flag for {@link SHORT_PROCESSES} on the V8 running this process, or null. Only for V8 11
 * (Node 20), where it was measured: later V8 releases decide tier-up by invocation counts
 * (`--invocation-count-for-turbofan`) and at some release dropped `--interrupt-budget`, and setting
 * a flag V8 does not know prints an error on stderr. Newer lines get V8's defaults until measured.
 */
export function patientOptimiserFlag(v8Version: string): string | null {
  return Number(v8Version.split('.')[0]) === 11 ? '--interrupt-budget=540672' : null;
}

/** Commands whose process collects its heap between stages (cli/stage-collection.ts): only `build` packs an index. */
const COLLECTING_PROCESSES = new Set(['build']);

/**
 * A full collection of this process's heap when `command` is one of {@link COLLECTING_PROCESSES},
 * else undefined; given only to a process of its own (below), never to the library or `runCli`.
 * Node exposes `gc()` only with `--expose-gc`; set at run time the flag reaches contexts made after
 * it, so the function comes from a new context, made on the first call (~3 ms, which a build too
 * small to collect never pays).
 */
export function heapCollector(command: string | undefined): (() => void) | undefined {
  if (!command || !COLLECTING_PROCESSES.has(command)) return undefined;
  let gc: (() => void) | undefined;
  return () => {
    if (!gc) {
      process.getBuiltinModule('node:v8').setFlagsFromString('--expose-gc');
      gc = process.getBuiltinModule('node:vm').runInNewContext('gc') as () => void;
    }
    gc();
  };
}

const invokedDirectly = process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href;
if (invokedDirectly) {
  // Only for a process of its own: the library and in-process tests keep V8's defaults. The module
  // itself, not an ES-module facade of it (scripts/bundle-cli.mjs says why): 1 ms instead of 2.4.
  const v8Flag = SHORT_PROCESSES.has(process.argv[2]!) ? patientOptimiserFlag(process.versions.v8) : null;
  if (v8Flag) process.getBuiltinModule('node:v8').setFlagsFromString(v8Flag);
  // `kdd health --json | head`: the reader went away, which is not an error of ours: stop quietly.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(0);
      throw error;
    });
  }
  process.exitCode = await runCli(process.argv.slice(2), { ...processIO(), collectGarbage: heapCollector(process.argv[2]) });
  // A finished build leaves nothing running, but Node would still run V8's pending collection tasks
  // (a full mark-compact of ~15 ms at 54 documents) and tear the heap down before exiting. Ending
  // here skips that; only once every byte of output is written (stdout on a pipe is asynchronous
  // on some systems), and 'exit' listeners still run.
  if (ENDS_WHEN_DONE.has(process.argv[2]!) && !process.stdout.writableLength && !process.stderr.writableLength) process.exit();
}
