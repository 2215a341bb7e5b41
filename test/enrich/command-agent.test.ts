import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommandAgent, splitCommand } from '../../compiler/enrich/command-agent.js';
import { removeTree, tempTree } from '../helpers/temp-tree.js';
import { rejection } from '../helpers/rejection.js';

let dir: string;
const node = JSON.stringify(process.execPath);
const PROMPT = { system: 'SYSTEM PART', user: 'USER PART' };

beforeAll(async () => {
  dir = await tempTree({
    // Echoes what it read on stdin inside a JSON answer, plus its argv.
    'echo.mjs': `let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (c) => (input += c));
process.stdin.on('end', () => process.stdout.write(JSON.stringify({ summary: input, argv: process.argv.slice(2) })));
`,
    'slow.mjs': `import { writeFileSync } from 'node:fs';
writeFileSync(process.argv[2], String(process.pid));
setTimeout(() => process.stdout.write('{}'), 30000);
`,
    'fail.mjs': `process.stderr.write('model quota exceeded for sk-ant-cmdleak-0123456789abcdef\\n'); process.exit(3);`,
  });
});
afterAll(async () => {
  await removeTree(dir);
});


describe('splitCommand', () => {
  it('splits like a shell without expanding anything', () => {
    expect(splitCommand('claude -p')).toEqual(['claude', '-p']);
    expect(splitCommand(`"/opt/my tools/node" 'a b' c\\ d "x \\"y\\""`)).toEqual(['/opt/my tools/node', 'a b', 'c d', 'x "y"']);
    expect(splitCommand('echo $HOME; rm -rf / | cat')).toEqual(['echo', '$HOME;', 'rm', '-rf', '/', '|', 'cat']);
    expect(splitCommand('  a   ""  b ')).toEqual(['a', '', 'b']);
    expect(() => splitCommand('"unterminated')).toThrow(/unterminated/);
  });
});

describe('the command agent', () => {
  it('sends the prompt on stdin and returns stdout', async () => {
    const agent = createCommandAgent({ command: `${node} ${JSON.stringify(join(dir, 'echo.mjs'))} --flag 'two words'` });
    expect(agent.provider).toBe('command');
    const reply = JSON.parse(await agent.complete(PROMPT));
    expect(reply.summary).toContain('SYSTEM PART');
    expect(reply.summary).toContain('USER PART');
    expect(reply.argv).toEqual(['--flag', 'two words']);
  });

  it('runs no shell: metacharacters reach the program as plain arguments', async () => {
    const marker = join(dir, 'pwned');
    const agent = createCommandAgent({ command: `${node} ${JSON.stringify(join(dir, 'echo.mjs'))} ; touch ${marker}` });
    const reply = JSON.parse(await agent.complete(PROMPT));
    expect(reply.argv).toEqual([';', 'touch', marker]);
    expect(existsSync(marker)).toBe(false);
  });

  it('kills the command on timeout and reports AGENT_TIMEOUT', async () => {
    const pidFile = join(dir, 'slow.pid');
    const agent = createCommandAgent({ command: `${node} ${JSON.stringify(join(dir, 'slow.mjs'))} ${JSON.stringify(pidFile)}`, timeoutMs: 300 });
    const error = await rejection(agent.complete(PROMPT));
    expect(error.code).toBe('AGENT_TIMEOUT');
    expect(error.message).toBe('Agent enrichment timed out after 300ms');
    // Killed whether or not it got as far as writing its pid (a loaded machine starts node slowly).
    const alive = (pid: number) => {
      if (!(pid > 0)) return false;
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 60 && existsSync(pidFile) && alive(Number(readFileSync(pidFile, 'utf8'))); i++) await new Promise((done) => setTimeout(done, 50));
    if (existsSync(pidFile)) expect(alive(Number(readFileSync(pidFile, 'utf8')))).toBe(false);
  });

  it('reports a non-zero exit as AGENT_ERROR with its stderr, keys redacted', async () => {
    const agent = createCommandAgent({ command: `${node} ${JSON.stringify(join(dir, 'fail.mjs'))}` });
    const error = await rejection(agent.complete(PROMPT));
    expect(error.code).toBe('AGENT_ERROR');
    expect(error.message).toContain('code 3');
    expect(error.message).toContain('model quota exceeded');
    expect(error.message).not.toContain('sk-ant-cmdleak-0123456789abcdef');
  });

  it('reports a missing program as AGENT_ERROR', async () => {
    const error = await rejection(createCommandAgent({ command: 'kdd-no-such-agent-program --x' }).complete(PROMPT));
    expect(error.code).toBe('AGENT_ERROR');
    expect(error.message).toContain('command not found: kdd-no-such-agent-program');
  });

  it('labels the model with the program name unless --model is given', async () => {
    expect(createCommandAgent({ command: 'claude -p' }).model).toBe('claude');
    expect(createCommandAgent({ command: 'claude -p', model: 'opus' }).model).toBe('opus');
  });
});
