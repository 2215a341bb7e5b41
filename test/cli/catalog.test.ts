/**
 * The CLI's light catalog (cli/main.ts) against the command modules it loads lazily, every
 * command's `--help` against its flag table, the README's flags against the commands, and the
 * "did you mean" answer to a mistyped command.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { commandHelp, type Command } from '../../cli/command.js';
import { CATALOG, nearestCommand, runCli } from '../../cli/main.js';
import { capture } from '../helpers/cli-io.js';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const loaded = async (): Promise<Command[]> => Promise.all(CATALOG.map((entry) => entry.load()));

/** `--flag` words of the README's `kdd <command> …` lines (code blocks), by command. */
function readmeFlags(): Map<string, Set<string>> {
  const flags = new Map<string, Set<string>>();
  for (const block of README.matchAll(/```sh\n([\s\S]*?)```/g)) {
    let command: string | null = null;
    for (const line of block[1]!.split('\n')) {
      const code = line.replace(/\s+#.*$/, '');
      const head = /^(?:\S+=\S+\s+)*kdd (\w+)/.exec(code.trim());
      // A line that starts with spaces continues the synopsis above it.
      if (head) command = head[1]!;
      else if (!/^\s+\[/.test(line)) command = null;
      if (!command) continue;
      for (const [flag] of code.matchAll(/--[a-z][a-z-]*/g)) flags.set(command, (flags.get(command) ?? new Set()).add(flag.slice(2)));
    }
  }
  return flags;
}

describe('kdd catalog', () => {
  it('lists each command once, with the name and summary of the module it loads', async () => {
    const commands = await loaded();
    expect(new Set(CATALOG.map((entry) => entry.name)).size).toBe(CATALOG.length);
    for (const [i, command] of commands.entries()) {
      expect(command.name).toBe(CATALOG[i]!.name);
      expect(command.summary).toBe(CATALOG[i]!.summary);
    }
  });

  it('kdd --help lists every command of the catalog with its summary', async () => {
    const { io, out } = capture('/');
    expect(await runCli(['--help'], io)).toBe(0);
    for (const entry of CATALOG) expect(out.join('')).toMatch(new RegExp(`^  ${entry.name} +${entry.summary.replace(/[()|.*+?[\]\\]/g, '\\$&')}$`, 'm'));
  });

  it("every command's --help prints each flag of its table with a description", async () => {
    for (const command of await loaded()) {
      const { io, out } = capture('/');
      expect(await runCli([command.name, '--help'], io)).toBe(0);
      const help = out.join('');
      // Every command, query or not, prints its flag table the same way.
      expect(help).toBe(commandHelp(command));
      expect(help).toContain(`Usage: ${command.usage}`);
      for (const [name, flag] of Object.entries(command.flags ?? {})) {
        expect(flag.description.length, `${command.name} --${name}`).toBeGreaterThan(10);
        expect(help).toMatch(new RegExp(`--${name}\\b.*${flag.description.slice(0, 20).replace(/[()|.*+?[\]\\$]/g, '\\$&')}`));
      }
    }
  });

  it('every non-query command parses its flags from its help table', async () => {
    const tabled = ['build', 'merge', 'sync', 'hook', 'serve', 'site', 'mcp', 'model', 'enrich'];
    const commands = await loaded();
    for (const name of tabled) expect(Object.keys(commands.find((command) => command.name === name)!.flags ?? {}).length, name).toBeGreaterThan(0);
    // An unknown flag is a usage error, so the table is what the parser knows.
    const { io, err } = capture('/');
    expect(await runCli(['build', '--no-such-flag'], io)).toBe(2);
    expect(err.join('')).toContain("Unknown option '--no-such-flag'");
  });

  it("the README's flags exist, and its build synopsis lists every build flag", async () => {
    const commands = new Map((await loaded()).map((command) => [command.name, command]));
    const mentioned = readmeFlags();
    expect(mentioned.get('build')?.size).toBeGreaterThan(0);
    for (const [name, flags] of mentioned) {
      const command = commands.get(name);
      expect(command, `README names kdd ${name}`).toBeDefined();
      for (const flag of flags) expect(commandHelp(command!), `README: kdd ${name} --${flag}`).toContain(`--${flag}`);
    }
    for (const flag of Object.keys(commands.get('build')!.flags!)) expect(mentioned.get('build'), `README build synopsis: --${flag}`).toContain(flag);
  });

  it('start-up imports nothing but the catalog: cli/main.ts and cli/command.ts import no command module statically', () => {
    for (const file of ['main.ts', 'command.ts']) {
      const source = readFileSync(new URL(`../../cli/${file}`, import.meta.url), 'utf8');
      const imported = [...source.matchAll(/^import [^;]*? from '([^']+)';$/gm)].map((match) => match[1]!);
      expect(imported.length, file).toBeGreaterThan(0);
      for (const specifier of imported) expect(specifier.startsWith('node:') || specifier === './command.js', `${file} imports ${specifier}`).toBe(true);
    }
  });

  it('a mistyped command suggests the nearest one; a word far from every command does not', async () => {
    expect(nearestCommand('contxt')).toBe('context');
    expect(nearestCommand('buidl')).toBe('build');
    expect(nearestCommand('Serve')).toBe('serve');
    expect(nearestCommand('impcat')).toBe('impact');
    expect(nearestCommand('foo')).toBeNull();
    expect(nearestCommand('deploy')).toBeNull();
    const { io, err } = capture('/');
    expect(await runCli(['contxt', 'x'], io)).toBe(2);
    expect(err.join('')).toMatch(/^kdd: unknown command 'contxt' \(did you mean context\?\)/);
  });
});
