import type { CliIO } from '../../cli/command.js';

/** A CliIO that records what a command prints, for in-process CLI tests. */
export function capture(cwd: string): { io: CliIO; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (s: string) => void out.push(s), stderr: (s: string) => void err.push(s), isTTY: false, cwd }, out, err };
}
