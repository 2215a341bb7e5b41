/**
 * The README's query examples answer on the index its own set-up command builds (this project's
 * `specs/`): every `kdd <query> …` line of README.md runs through the CLI, and must exit 0 with no
 * error and a non-empty answer. A README example that stops matching the specs fails here.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../cli/main.js';
import { capture } from '../helpers/cli-io.js';

const REPO = new URL('../..', import.meta.url).pathname;

/** What counts as an answer, per query command (violations and health may rightly find nothing). */
const ANSWERED: Record<string, (answer: Record<string, unknown>) => boolean> = {
  context: (a) => (a.results as unknown[]).length > 0,
  search: (a) => (a.results as unknown[]).length > 0,
  chunks: (a) => (a.results as unknown[]).length > 0,
  hints: (a) => (a.resolved_entities as unknown[]).length > 0 && (a.total_items as number) > 0,
  graph: (a) => (a.related_nodes as unknown[]).length > 0,
  impact: (a) => (a.directly_affected as unknown[]).length > 0,
  coverage: (a) => (a.required as unknown[]).length > 0,
  violations: (a) => (a.total_edges_analyzed as number) > 0,
  health: (a) => (a.total_nodes as number) > 0 && (a.total_edges as number) > 0,
};

/** Shell words of one command line: double and single quotes group, nothing else is special. */
function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
}

/** Every `kdd <query command> …` line inside the README's sh code blocks, comment stripped. */
async function readmeQueryExamples(): Promise<string[][]> {
  const readme = await readFile(join(REPO, 'README.md'), 'utf8');
  const lines = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((block) => block[1]!.split('\n'));
  return lines
    .map((line) => words(line.replace(/\s+#\s.*$/, '').trim()))
    .filter((argv) => argv[0] === 'kdd' && argv[1] !== undefined && argv[1] in ANSWERED)
    .map((argv) => argv.slice(1));
}

let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'kdd-readme-'));
  // The set-up command's build (`kdd build` of specs/), L1 so the answers never depend on a model cache.
  const { io, err } = capture(work);
  expect(await runCli(['build', join(REPO, 'specs'), '--level', 'L1'], io), err.join('')).toBe(0);
}, 60_000);

afterAll(() => rm(work, { recursive: true, force: true }));

describe('README query examples', () => {
  it('cover every query command', async () => {
    const examples = await readmeQueryExamples();
    expect(new Set(examples.map((argv) => argv[0]))).toEqual(new Set(Object.keys(ANSWERED)));
  });

  it('each answers without error on the index built from specs/', async () => {
    for (const argv of await readmeQueryExamples()) {
      const { io, out, err } = capture(work);
      const code = await runCli([...argv, '--json'], io);
      const shown = `kdd ${argv.join(' ')}\nstderr: ${err.join('')}`;
      expect(code, shown).toBe(0);
      expect(err.join(''), shown).not.toMatch(/^kdd \w+: /m);
      const answer = JSON.parse(out.join('')) as Record<string, unknown>;
      expect(answer.error, shown).toBeUndefined();
      expect(ANSWERED[argv[0]!]!(answer), `${shown}\nanswer: ${out.join('').slice(0, 400)}`).toBe(true);
    }
  }, 60_000);
});
