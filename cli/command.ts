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
}

export interface Command {
  name: string;
  summary: string;
  usage: string;
  /** `kdd <command> --help`: every flag explained (default: usage and summary). */
  help?: string;
  run(argv: string[], io: CliIO): Promise<number>;
}

export class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;

/** `node:util` parseArgs with strict checking; unknown flags become a UsageError naming the flag. */
type Parsed<T extends Options> = ReturnType<typeof parseArgs<{ args: string[]; options: T; allowPositionals: true; strict: true }>>;

export function parseFlags<T extends Options>(argv: string[], options: T): Parsed<T> {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
