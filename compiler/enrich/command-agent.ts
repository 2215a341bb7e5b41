/**
 * A local agent command (`--agent-cmd "claude -p"`): any program that reads the prompt on stdin and
 * writes its answer (JSON) on stdout. Spawned without a shell — the command line is split into
 * argv by {@link splitCommand} (quotes and backslashes, no expansion, no globbing, no pipes) — with
 * a timeout after which it is killed (SIGTERM, then SIGKILL).
 */
import { spawn } from 'node:child_process';
import { basename } from 'node:path';
import { createError } from '../../model/errors.js';
import { excerpt, redact, type Agent } from './agent.js';
import { promptText } from './prompt.js';

export interface CommandAgentOptions {
  /** The command line, e.g. `claude -p` or `node ./my-agent.mjs --fast`. */
  command: string;
  /** Label for the cache key and the provenance. Default: the program's base name. */
  model?: string;
  /** Default 300 000 (local agents are slower than a bare API call). */
  timeoutMs?: number;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Stdout beyond this is an AGENT_ERROR. Default 4 MiB. */
  maxOutputBytes?: number;
  /** Secrets to remove from any stderr quoted in an error. */
  secrets?: readonly string[];
  onRequest?: () => void;
}

/** Grace period between SIGTERM and SIGKILL. */
const KILL_GRACE_MS = 2_000;

/**
 * POSIX-shell-like word splitting without any expansion: `'single'`, `"double \" escapes"`,
 * `back\ slash`. Throws on an unterminated quote.
 */
export function splitCommand(line: string): string[] {
  const args: string[] = [];
  let current = '';
  let started = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
      else current += c;
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1]!)) current += line[++i];
      else current += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      started = true;
    } else if (c === '\\' && i + 1 < line.length) {
      current += line[++i];
      started = true;
    } else if (/\s/.test(c)) {
      if (started) args.push(current);
      current = '';
      started = false;
    } else {
      current += c;
      started = true;
    }
  }
  if (quote) throw new Error(`unterminated ${quote} quote in agent command`);
  if (started) args.push(current);
  return args;
}

export function createCommandAgent(options: CommandAgentOptions): Agent {
  const argv = splitCommand(options.command);
  if (argv.length === 0) throw createError('INVALID_PARAMS', { field: 'agent-cmd', reason: 'empty command' });
  const [program, ...args] = argv as [string, ...string[]];
  const timeoutMs = options.timeoutMs ?? 300_000;
  const maxOutput = options.maxOutputBytes ?? 4 * 1024 * 1024;
  const secrets = options.secrets ?? [];
  const fail = (detail: string) => createError('AGENT_ERROR', { detail: redact(detail, secrets) });

  return {
    provider: 'command',
    model: options.model ?? basename(program),
    complete(prompt) {
      options.onRequest?.();
      return new Promise<string>((resolve, reject) => {
        const child = spawn(program, args, { cwd: options.cwd, env: options.env ?? process.env, shell: false, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
        const out: Buffer[] = [];
        let outBytes = 0;
        let err = '';
        let settled = false;
        let killTimer: NodeJS.Timeout | undefined;
        const finish = (error: Error | null, value?: string) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          if (error) reject(error);
          else resolve(value!);
        };
        const kill = () => {
          child.kill('SIGTERM');
          killTimer = setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS);
          killTimer.unref();
        };
        const timer = setTimeout(() => {
          kill();
          finish(createError('AGENT_TIMEOUT', { timeout_ms: timeoutMs }));
        }, timeoutMs);
        child.stdout.on('data', (chunk: Buffer) => {
          outBytes += chunk.length;
          if (outBytes > maxOutput) {
            kill();
            finish(fail(`${basename(program)} wrote more than ${maxOutput} bytes`));
          } else out.push(chunk);
        });
        child.stderr.on('data', (chunk: Buffer) => {
          if (err.length < 8_192) err += chunk.toString('utf8');
        });
        child.on('error', (error: NodeJS.ErrnoException) => {
          finish(fail(error.code === 'ENOENT' ? `command not found: ${program}` : `cannot run ${program}: ${error.message}`));
        });
        child.on('close', (code, signal) => {
          if (killTimer) clearTimeout(killTimer);
          if (code === 0) finish(null, Buffer.concat(out).toString('utf8'));
          else finish(fail(`${basename(program)} exited with ${signal ?? `code ${code}`}${err.trim() ? `: ${excerpt(err)}` : ''}`));
        });
        // A program that exits without reading stdin makes the write fail with EPIPE: its exit code tells more.
        child.stdin.on('error', () => {});
        child.stdin.end(promptText(prompt));
      });
    },
  };
}
