import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../cli/main.js';
import { RULES } from '../../compiler/check/rules.js';
import { capture } from '../helpers/cli-io.js';
import { FIXTURES, removeTree } from '../helpers/temp-tree.js';
import { writeTree } from '../helpers/arbitrary-tree.js';

const DATE = '2026-01-02T03:04:05Z';
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_COMMITTER_DATE: DATE, GIT_AUTHOR_DATE: DATE } });

/** One problem of every category, each at a line and column the test knows. */
const TREE = {
  '01-domain/entities/Pedido.md': '---\nid: Pedido\nkind: entity\n---\n# Pedido\n\n## Descripción\n\nCreado por [[UC-001]] y [[Fantasma]].\n',
  '01-domain/entities/Zz-Copia.md': '---\ntitle: Copia\nid: Pedido\nkind: entity\n---\n# Copia\n',
  '01-domain/entities/Solo.md': '---\nid: Solo\nkind: entity\n---\n# Solo\n\nSin enlaces.\n',
  '01-domain/entities/Roto.md': '---\nid: [roto\nkind: entity\n---\n# Roto\n',
  '02-behavior/use-cases/UC-001-Crear.md': '---\nid: UC-001\nkind: use-case\n---\n# UC-001 — Crear\n\n## Descripción\n\nCrea un [[Pedido]].\n',
};

const roots: string[] = [];
let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'kdd-check-'));
  roots.push(root);
  await writeTree(join(root, 'specs'), TREE);
});
afterAll(async () => {
  await Promise.all(roots.map(removeTree));
});

async function check(cwd: string, ...args: string[]) {
  const { io, out, err } = capture(cwd);
  const code = await runCli(['check', ...args], io);
  return { code, out: out.join(''), err: err.join('') };
}

const schema = async (name: string) => JSON.parse(await readFile(join(FIXTURES, 'schemas', name), 'utf8')) as object;

describe('kdd check', () => {
  it('reports every category with rule, file, line and column; exit 1 on errors', async () => {
    const { code, out } = await check(root, 'specs', '--format', 'json');
    expect(code).toBe(1);
    const { problems } = JSON.parse(out) as { problems: { rule_id: string; file: string; line: number; column: number; severity: string }[] };
    const at = (rule: string) => problems.filter((p) => p.rule_id === rule).map((p) => `${p.file}:${p.line}:${p.column}:${p.severity}`);
    expect(at('BR-LAYER-001')).toEqual(['01-domain/entities/Pedido.md:9:12:error']);
    expect(at('KDD-DANGLING-LINK')).toEqual(['01-domain/entities/Pedido.md:9:25:error']);
    expect(at('KDD-DUPLICATE-ID')).toEqual(['01-domain/entities/Zz-Copia.md:3:1:error']);
    expect(at('KDD-SKIPPED-DOCUMENT')).toEqual(['01-domain/entities/Roto.md:3:1:error']);
    expect(at('KDD-ORPHAN-NODE')).toEqual(['01-domain/entities/Solo.md:2:1:warning']);
    expect(at('QRY-005').length).toBeGreaterThan(0);
    expect(problems.every((p) => p.line >= 1 && p.column >= 1)).toBe(true);
  });

  it('the duplicate points at the losing copy, and every message says how to fix it', async () => {
    const { out } = await check(root, 'specs', '--format', 'json');
    const { problems } = JSON.parse(out) as { problems: { rule_id: string; message: string; file: string }[] };
    const duplicate = problems.find((p) => p.rule_id === 'KDD-DUPLICATE-ID')!;
    expect(duplicate.message).toContain('Zz-Copia.md ignored, the id stays with 01-domain/entities/Pedido.md');
    for (const problem of problems) expect(problem.message).toMatch(/\. [A-Z][^.]*\.?/);
  });

  it('--format json matches its schema', async () => {
    const { out } = await check(root, 'specs', '--format', 'json');
    const validate = new Ajv({ allErrors: true }).compile(await schema('kdd-check-report.schema.json'));
    expect(validate(JSON.parse(out)), JSON.stringify(validate.errors)).toBe(true);
  });

  it('--format sarif is SARIF 2.1.0 as GitHub code scanning reads it: rules with help, results with regions', async () => {
    const { code, out } = await check(root, 'specs', '--format', 'sarif');
    expect(code).toBe(1);
    const log = JSON.parse(out);
    const validate = new Ajv({ allErrors: true }).compile(await schema('sarif-2.1.0-github.schema.json'));
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    const [run] = log.runs;
    expect(run.tool.driver.rules.map((rule: { id: string }) => rule.id)).toEqual(RULES.map((rule) => rule.id));
    const violation = run.results.find((result: { ruleId: string }) => result.ruleId === 'BR-LAYER-001');
    expect(violation.locations[0].physicalLocation).toEqual({ artifactLocation: { uri: 'specs/01-domain/entities/Pedido.md', uriBaseId: 'SRCROOT' }, region: { startLine: 9, startColumn: 12 } });
    expect(run.tool.driver.rules[violation.ruleIndex].id).toBe('BR-LAYER-001');
    // A broken result would be refused: the schema check can fail.
    expect(validate({ ...log, runs: [{ ...run, results: [{ ...violation, locations: [{ physicalLocation: { artifactLocation: { uri: 'x' }, region: { startLine: 0 } } }] }] }] })).toBe(false);
  });

  it('--format github prints one workflow command per problem, paths from the repository root', async () => {
    const { out } = await check(root, 'specs', '--format', 'github');
    const lines = out.trimEnd().split('\n');
    for (const line of lines) expect(line).toMatch(/^::(error|warning|notice) file=[^,:]+,line=\d+,col=\d+,title=[^:]+::\S/);
    expect(lines).toContainEqual(expect.stringMatching(/^::error file=specs\/01-domain\/entities\/Pedido\.md,line=9,col=12,title=BR-LAYER-001::/));
  });

  it('text is the default: file:line:col, severity, rule, message, then a summary', async () => {
    const { out } = await check(root, 'specs');
    expect(out).toMatch(/^01-domain\/entities\/Pedido\.md:9:12 {2}error {4}BR-LAYER-001 {2}/m);
    expect(out).toMatch(/kdd check: 4 errors, 1 warnings, \d+ notes\n$/);
  });

  it('severities: --error-on picks what fails, .kddcheck.json sets any category, off drops it', async () => {
    const onlyDangling = await check(root, 'specs', '--format', 'json', '--error-on', 'dangling');
    expect(onlyDangling.code).toBe(1);
    expect(JSON.parse(onlyDangling.out).counts.error).toBe(1);
    expect((await check(root, 'specs', '--error-on', '')).code).toBe(0);
    await writeFile(join(root, '.kddcheck.json'), JSON.stringify({ severity: { violations: 'off', dangling: 'off', duplicates: 'warning', skipped: 'note', coverage: 'off' } }));
    try {
      const configured = await check(root, 'specs', '--format', 'json');
      expect(configured.code).toBe(0);
      const report = JSON.parse(configured.out);
      expect(report.problems.map((p: { rule_id: string }) => p.rule_id).sort()).toEqual(['KDD-DUPLICATE-ID', 'KDD-ORPHAN-NODE', 'KDD-SKIPPED-DOCUMENT']);
    } finally {
      await writeFile(join(root, '.kddcheck.json'), '{}');
    }
  });

  it('bad usage exits 2 and says why', async () => {
    expect((await check(root, 'specs', '--format', 'xml')).err).toContain('--format must be one of text, json, sarif, github');
    expect((await check(root, 'specs', '--format', 'xml')).code).toBe(2);
    expect((await check(root, 'specs', '--error-on', 'typos')).code).toBe(2);
    expect((await check(root, 'specs', '--config', 'missing.json')).code).toBe(2);
    expect((await check(root, 'no-such-specs')).err).toContain('no specs folder at no-such-specs');
    await writeFile(join(root, 'bad.json'), '{"severity":{"violations":"fatal"}}');
    const bad = await check(root, 'specs', '--config', 'bad.json');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("severity of 'violations' must be one of error, warning, note, off");
  });

  it('--bundle checks a built bundle (no build warnings there) and locates through the specs', async () => {
    const { io } = capture(root);
    expect(await runCli(['build', 'specs', '--out', 'dist', '--index-dir', '.kdd-index'], io)).toBe(0);
    const { out } = await check(root, 'specs', '--bundle', 'dist', '--format', 'json');
    const rules = new Set(JSON.parse(out).problems.map((p: { rule_id: string }) => p.rule_id));
    expect(rules.has('BR-LAYER-001')).toBe(true);
    expect(rules.has('KDD-SKIPPED-DOCUMENT')).toBe(false);
    expect(out).toContain('"line": 9');
  });
});

describe('kdd check --base (only what a change introduced)', () => {
  it('a tree with legacy problems plus one new violation reports only the new one, against a git ref or a folder', async () => {
    const repo = await mkdtemp(join(tmpdir(), 'kdd-check-base-'));
    roots.push(repo);
    git(repo, 'init', '-q');
    git(repo, 'config', 'user.email', 'dev@example.com');
    git(repo, 'config', 'user.name', 'Dev');
    await writeTree(join(repo, 'specs'), TREE);
    expect(await runCli(['build', 'specs'], capture(repo).io)).toBe(0);
    git(repo, 'add', '-A', 'specs', '.kdd-index');
    git(repo, 'commit', '-qm', 'legacy');
    await cp(join(repo, '.kdd-index'), join(repo, 'base-index'), { recursive: true });
    // Legacy problems move to other lines; one new layer violation appears.
    await writeFile(
      join(repo, 'specs/01-domain/entities/Solo.md'),
      '---\nid: Solo\nkind: entity\n---\n# Solo\n\nUsado en [[UC-001]].\n',
    );
    await writeFile(join(repo, 'specs/01-domain/entities/Pedido.md'), `${TREE['01-domain/entities/Pedido.md'].replace('## Descripción', '## Descripción\n\nMás texto.\n')}`);
    const whole = await check(repo, 'specs', '--format', 'json');
    expect(JSON.parse(whole.out).problems.filter((p: { rule_id: string }) => p.rule_id === 'BR-LAYER-001')).toHaveLength(2);

    for (const base of ['HEAD', 'base-index']) {
      const { code, out } = await check(repo, 'specs', '--format', 'json', '--base', base, '--error-on', 'violations,dangling,duplicates');
      const report = JSON.parse(out);
      const errors = report.problems.filter((p: { severity: string }) => p.severity === 'error');
      expect(errors.map((p: { rule_id: string; file: string; line: number }) => `${p.rule_id} ${p.file}:${p.line}`)).toEqual(['BR-LAYER-001 01-domain/entities/Solo.md:7']);
      expect(report.known_in_base).toBeGreaterThan(0);
      expect(code).toBe(1);
    }
    // Nothing new: exit 0 even though legacy errors remain.
    await writeFile(join(repo, 'specs/01-domain/entities/Solo.md'), TREE['01-domain/entities/Solo.md']);
    expect((await check(repo, 'specs', '--base', 'HEAD', '--error-on', 'violations,dangling,duplicates')).code).toBe(0);
    const missing = await check(repo, 'specs', '--base', 'no-such-ref');
    expect(missing.code).toBe(3);
    expect(missing.err).toContain('MANIFEST_NOT_FOUND');
  });
});
