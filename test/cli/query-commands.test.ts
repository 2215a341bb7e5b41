import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIO } from '../../cli/command.js';
import { contextCommand, coverageCommand, graphCommand, healthCommand, hintsCommand, impactCommand, QUERY_COMMANDS, searchCommand, violationsCommand } from '../../cli/commands/query-commands.js';
import { table } from '../../cli/format.js';
import { commandHelp, type Command } from '../../cli/command.js';
import { makeBundle } from '../helpers/make-index.js';
import { removeWrittenDists, writeDist } from '../helpers/write-dist.js';

let dist: string;

beforeAll(async () => {
  const bundle = makeBundle(
    ['Entity:KDDDocument', 'BR:BR-DOCUMENT-001', 'UC:UC-001', 'CMD:CMD-001', 'Entity:Lonely'],
    [
      { from: 'BR:BR-DOCUMENT-001', type: 'ENTITY_RULE', to: 'Entity:KDDDocument' },
      { from: 'UC:UC-001', type: 'UC_APPLIES_RULE', to: 'BR:BR-DOCUMENT-001' },
      { from: 'UC:UC-001', type: 'UC_EXECUTES_CMD', to: 'CMD:CMD-001' },
      { from: 'CMD:CMD-001', type: 'WIKI_LINK', to: 'Entity:KDDDocument' },
      { from: 'Entity:KDDDocument', type: 'WIKI_LINK', to: 'UC:UC-001' },
    ],
    [{ from_node: 'UC:UC-001', target: 'Ghost', source_file: 'x.md', section: null }],
  );
  dist = (await writeDist(bundle)).dir;
});
afterAll(removeWrittenDists);

async function run(command: Command, argv: string[], cwd = '/') {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = { stdout: (s) => void out.push(s), stderr: (s) => void err.push(s), isTTY: false, cwd };
  const code = await command.run(argv, io);
  return { code, stdout: out.join(''), stderr: err.join('') };
}

describe('query commands', () => {
  it('export name, summary and usage for kdd --help', () => {
    expect(QUERY_COMMANDS.map((c) => c.name)).toEqual(expect.arrayContaining(['context', 'graph', 'impact', 'coverage', 'violations', 'health']));
    for (const command of QUERY_COMMANDS) expect(command.usage).toMatch(new RegExp(`^kdd ${command.name}`));
  });

  it('generate usage and --help from the registry: every flag with its range and default', async () => {
    expect(contextCommand.usage).toContain('[--depth 1-5]');
    expect(contextCommand.usage).toContain('[--models-dir DIR]');
    const help = commandHelp(contextCommand);
    expect(help).toMatch(/--max-tokens N\s+Token budget of the answer.*\(default: 8000\)/);
    expect(help).toMatch(/--kinds K,…\s+Only specs of these kinds/);
    expect(help).toMatch(/--no-expand\s+Spread relevance.*On by default; this flag turns it off\./);
    expect(help).toMatch(/--bundle DIR\s+The folder with kdd\.json \(default: dist\)/);
    expect(help).toMatch(/^Arguments:\n {2}TEXT… +/m);
    expect(commandHelp(graphCommand)).toMatch(/--direction both\|out\|in .*\(default: both\)/);
    expect(graphCommand.usage).not.toContain('--models-dir');
    const { runCli } = await import('../../cli/main.js');
    const out: string[] = [];
    expect(await runCli(['impact', '--help'], { stdout: (t) => void out.push(t), stderr: () => {}, isTTY: false, cwd: '/' })).toBe(0);
    expect(out.join('')).toBe(commandHelp(impactCommand));
  });

  it('resolve short node references as every door does', async () => {
    const { code, stdout } = await run(coverageCommand, ['KDDDocument', '--bundle', dist, '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).analyzed_node.id).toBe('Entity:KDDDocument');
  });

  it('kdd hints resolves each hint and puts rules before behaviour', async () => {
    const { code, stdout } = await run(hintsCommand, ['KDDDocument', 'UC-001', '--bundle', dist, '--json']);
    expect(code).toBe(0);
    const result = JSON.parse(stdout);
    expect(result.resolved_entities.map((h: { node_id: string }) => h.node_id)).toEqual(expect.arrayContaining(['Entity:KDDDocument', 'UC:UC-001']));
    expect(result.constraints.map((c: { node_id: string }) => c.node_id)).toContain('BR:BR-DOCUMENT-001');
    const empty = await run(hintsCommand, ['--bundle', dist]);
    expect(empty.code).not.toBe(0);
    expect(empty.stderr).toMatch(/hint/i);
  });

  it('kdd impact --json prints the spec answer', async () => {
    const { code, stdout, stderr } = await run(impactCommand, ['Entity:KDDDocument', '--bundle', dist, '--json', '--depth', '3']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const answer = JSON.parse(stdout);
    expect(answer.directly_affected.map((n: { id: string }) => n.id)).toEqual(['BR:BR-DOCUMENT-001', 'CMD:CMD-001']);
    expect(answer.transitively_affected[0].path).toEqual(['Entity:KDDDocument', 'BR:BR-DOCUMENT-001', 'UC:UC-001']);
  });

  it('kdd impact prints aligned tables', async () => {
    const { code, stdout } = await run(impactCommand, ['Entity:KDDDocument', '--bundle', dist]);
    expect(code).toBe(0);
    expect(stdout).toContain('Directly affected (2)');
    expect(stdout).toContain('Entity:KDDDocument → BR:BR-DOCUMENT-001 → UC:UC-001');
  });

  it('resolves --bundle against the working directory and defaults to dist', async () => {
    const { code, stderr } = await run(healthCommand, [], '/nonexistent');
    expect(code).toBe(4);
    expect(stderr).toContain('/nonexistent/dist');
  });

  it('an unknown node exits 3 with the message on stderr and the error object on stdout with --json', async () => {
    const { code, stdout, stderr } = await run(graphCommand, ['Entity:Nope', '--bundle', dist, '--json']);
    expect(code).toBe(3);
    expect(stderr).toBe('kdd graph: NODE_NOT_FOUND: Node not found: Entity:Nope\n');
    expect(JSON.parse(stdout)).toEqual({ error: { code: 'NODE_NOT_FOUND', message: 'Node not found: Entity:Nope' } });
  });

  it('bad values and bad flags exit 2', async () => {
    expect((await run(graphCommand, ['Entity:KDDDocument', '--bundle', dist, '--depth', '9'])).code).toBe(2);
    const unknown = await run(graphCommand, ['Entity:KDDDocument', '--bundle', dist, '--frobnicate', '--json']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Usage: kdd graph');
    expect(JSON.parse(unknown.stdout).error.code).toBe('INVALID_PARAMS');
    const missing = await run(impactCommand, ['--bundle', dist]);
    expect(missing.stderr).toContain("'node_id'");
  });

  it('kdd graph, coverage, violations and health print readable summaries', async () => {
    expect((await run(graphCommand, ['Entity:KDDDocument', '--bundle', dist, '--edge-types', 'entity_rule'])).stdout).toContain('BR:BR-DOCUMENT-001 -ENTITY_RULE-> Entity:KDDDocument');
    expect((await run(coverageCommand, ['Entity:KDDDocument', '--bundle', dist])).stdout).toMatch(/50\.0% covered \(2 of 4, 2 missing\)/);
    expect((await run(violationsCommand, ['--bundle', dist])).stdout).toContain('1 violations in 5 edges (20.0%)');
    const healthOut = (await run(healthCommand, ['--bundle', dist])).stdout;
    expect(healthOut).toContain('Dangling links (1)');
    expect(healthOut).toMatch(/Orphan nodes \(1\)\n.*\n\s+Entity:Lonely/);
  });
});

describe('kdd context', () => {
  it('joins the words into query_text and prints ranked results', async () => {
    const { code, stdout, stderr } = await run(contextCommand, ['document', 'rule', '--bundle', dist, '--json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const answer = JSON.parse(stdout);
    expect(Array.isArray(answer.results)).toBe(true);
    expect(answer.strategy).toBe('hybrid');
  });

  it('--explain adds why to each result and prints it readably', async () => {
    const json = JSON.parse((await run(contextCommand, ['document', 'rule', '--explain', '--bundle', dist, '--json'])).stdout);
    expect(json.results.length).toBeGreaterThan(0);
    for (const hit of json.results) expect(Array.isArray(hit.why.matched)).toBe(true);
    const text = (await run(contextCommand, ['document', 'rule', '--explain', '--bundle', dist])).stdout;
    expect(text).toMatch(/Why:\n1\. \S+\n {3}matched: /);
    expect((await run(contextCommand, ['document', 'rule', '--bundle', dist])).stdout).not.toContain('Why:');
  });

  it('--explain names the edge by which a result of an impact question depends on its subject', async () => {
    const args = ['what depends on the KDDDocument entity', '--explain', '--bundle', dist];
    const json = JSON.parse((await run(contextCommand, [...args, '--json'])).stdout);
    expect(json.results[0].node_id).toBe('Entity:KDDDocument');
    const rule = json.results.find((h: { node_id: string }) => h.node_id === 'BR:BR-DOCUMENT-001');
    expect(rule.why.depends_on).toEqual({ from_node: 'BR:BR-DOCUMENT-001', edge_type: 'ENTITY_RULE', to_node: 'Entity:KDDDocument' });
    expect((await run(contextCommand, args)).stdout).toContain('depends on the subject: BR:BR-DOCUMENT-001 -ENTITY_RULE-> Entity:KDDDocument');
  });

  it('search --explain prints why each result ranked', async () => {
    const text = (await run(searchCommand, ['document', 'rule', '--explain', '--bundle', dist])).stdout;
    expect(text).toMatch(/Why:\n1\. \S+\n {3}matched: /);
  });

  it('a too-short query exits 2 with QUERY_TOO_SHORT', async () => {
    const { code, stdout } = await run(contextCommand, ['ab', '--bundle', dist, '--json']);
    expect(code).toBe(2);
    expect(JSON.parse(stdout).error.code).toBe('QUERY_TOO_SHORT');
  });
});

describe('table', () => {
  it('aligns columns and leaves the last one unpadded', () => {
    expect(table(['A', 'BB'], [['xyz', '1'], ['x', '22']])).toBe('  A    BB\n  xyz  1\n  x    22\n');
    expect(table(['A'], [])).toBe('  (none)\n');
  });
});
