/**
 * What every `kdd` sub-command looks like. Commands parse their flags, call ONE library function and
 * print; they return an exit code instead of calling process.exit, so tests run them in-process.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  /** True when stdout is an interactive terminal (progress lines, colours). */
  isTTY: boolean;
  /** Working directory that relative paths resolve against. */
  cwd: string;
  /** A full collection of the heap: only a `kdd build` process of its own has one (cli/stage-collection.ts). */
  collectGarbage?: () => void;
}

export interface Command {
  name: string;
  summary: string;
  usage: string;
  /** What `kdd <command> --help` prints between the summary and the options (when to use it, arguments). */
  details?: string;
  /** The command's flags: what it parses and what `kdd <command> --help` prints, from one table. */
  flags?: FlagTable;
  run(argv: string[], io: CliIO): Promise<number>;
}

/** One flag: the `node:util` parseArgs option plus what a user reads about it. */
export interface FlagSpec {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  readonly multiple?: boolean;
  readonly default?: string | boolean;
  /** How the value is written in help (`DIR`, `N`, `auto|L1|L2`); string flags only. */
  readonly value?: string;
  readonly description: string;
}

export type FlagTable = Readonly<Record<string, FlagSpec>>;

export class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;

/** `node:util` parseArgs with strict checking; unknown flags become a UsageError naming the flag. */
type Parsed<T extends Options> = ReturnType<typeof parseArgs<{ args: string[]; options: T; allowPositionals: true; strict: true }>>;

/** Parses `argv` against a flag table (parseArgs ignores the help-only keys `value` and `description`). */
export function parseFlags<T extends Options>(argv: string[], options: T): Parsed<T> {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** The `Options:` block of `kdd <command> --help`: one aligned row per flag, its default last. */
export function flagHelp(flags: FlagTable): string {
  const rows = Object.entries(flags).map(([name, flag]) => {
    const short = flag.short ? `-${flag.short}, ` : '';
    const value = flag.type === 'string' ? ` ${flag.value ?? 'VALUE'}` : '';
    const fallback = flag.default !== undefined && flag.default !== false ? ` (default: ${flag.default})` : '';
    return [`${short}--${name}${value}`, `${flag.description}${fallback}`] as const;
  });
  const width = Math.max(...rows.map(([left]) => left.length));
  return `Options:\n${rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`).join('\n')}\n`;
}

/** What `kdd <command> --help` prints, for every command alike. */
export function commandHelp(command: Command): string {
  const details = command.details ? `${command.details}\n` : '';
  return `Usage: ${command.usage}\n\n${command.summary}\n${details}${command.flags ? `\n${flagHelp(command.flags)}` : ''}`;
}
