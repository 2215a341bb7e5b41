/**
 * CLI start-up (#15): whole `kdd` processes timed from spawn to exit, against a bare `node -e 0`
 * on the same machine at the same moment. What an agent pays per one-shot call: Node's start,
 * module loading, reading the bundle, one query, printing.
 *
 * - `kdd --help`: the command catalog only (no command module);
 * - `kdd context "…"` on the 54-document bundle: the query path (library facade, runtime, msgpackr).
 *
 * The three commands run in turn (A B C A B C …) after one untimed round, so a slow moment of the
 * machine lands on all of them. Runs the compiled CLI (`build/cli/main.js`, `npm run build:ts`).
 *
 * `npm run bench -- --scenario cli --sizes 54`
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeBundle } from '../../formats/bundle/bundle.js';
import { fixed, median, withTarget, type Scenario } from '../scenario.js';

const CLI = fileURLToPath(new URL('../../build/cli/main.js', import.meta.url));
const RUNS = 5;
const QUERY = 'cancelar un pedido y notificar al usuario';
/** Targets over a bare `node -e 0` (ms), and what a Bun-based peer answers the one-shot query in (s). */
const HELP_OVER_NODE_MS = 60;
const CONTEXT_OVER_NODE_MS = 120;
const PEER_ONE_SHOT_S = 0.1;

/** Milliseconds from spawn to exit of one process; a non-zero exit fails the bench. */
function timeProcess(args: readonly string[]): Promise<number> {
  return new Promise((done, fail) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', fail);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code === 0) done(ms);
      else fail(new Error(`node ${args.join(' ')} exited with ${code}: ${stderr}`));
    });
  });
}

const scenario: Scenario = {
  name: 'cli',
  title: 'CLI start-up: whole processes, spawn to exit',
  async run(corpora, context) {
    if (!existsSync(CLI)) return { skipped: `${CLI} is absent (npm run build:ts)` };
    const corpus = corpora.find((candidate) => candidate.origin === 'real');
    if (!corpus) return { skipped: 'the 54-document corpus is not among --sizes' };
    const work = await mkdtemp(join(tmpdir(), 'kdd-bench-cli-'));
    try {
      const bytes = await context.bundle(corpus);
      const { bundleHash } = await import('../../compiler/pack/pack.js');
      const { writeDist } = await import('../../compiler/pack/dist.js');
      const hash = bundleHash(bytes);
      await writeDist(work, { bytes, hash, fileName: `kdd-${hash}.msgpack` }, decodeBundle(bytes).manifest);

      const commands = {
        node: ['-e', '0'],
        help: [CLI, '--help'],
        context: [CLI, 'context', QUERY, '--bundle', work],
      } as const;
      const times: Record<keyof typeof commands, number[]> = { node: [], help: [], context: [] };
      for (let round = 0; round <= RUNS; round++) {
        context.log(`cli: round ${round}/${RUNS}${round === 0 ? ' (warm-up)' : ''}`);
        for (const [name, args] of Object.entries(commands) as [keyof typeof commands, readonly string[]][]) {
          const ms = await timeProcess(args);
          if (round > 0) times[name].push(ms);
        }
      }
      const node = median(times.node);
      const row = (label: string, samples: number[], target: number | null) => {
        const over = median(samples) - node;
        return [
          label,
          fixed(median(samples) / 1000, 3),
          target === null ? '—' : withTarget(fixed(over, 0), over, { max: target, label: `≤ +${target} ms` }),
          `${fixed(median(samples) / node, 2)}×`,
          fixed(Math.min(...samples) / 1000, 3),
          fixed(Math.max(...samples) / 1000, 3),
        ];
      };
      return {
        columns: ['process', 'median s', 'over node -e 0, ms', '÷ node -e 0', 'min s', 'max s'],
        rows: [
          row('node -e 0', times.node, null),
          row('kdd --help', times.help, HELP_OVER_NODE_MS),
          row(`kdd context (${corpus.documents} docs, L${decodeBundle(bytes).manifest.index_level.slice(1)})`, times.context, CONTEXT_OVER_NODE_MS),
        ],
        notes: [
          `Medians of ${RUNS} runs per command after one untimed round, the commands interleaved; query "${QUERY}".`,
          `A Bun-based peer answers the same one-shot query in ${PEER_ONE_SHOT_S.toFixed(2)} s (its own figure).`,
          'Other load on the machine stretches every process alike: the ratio to node -e 0 moves far less than the milliseconds over it.',
        ],
      };
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  },
};

export default scenario;
