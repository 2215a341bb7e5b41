/**
 * `kdd dev` (#19): from saving a spec to the edit being returned by `POST /v1/retrieve/search` on
 * the server `kdd dev` runs (watch → debounce → incremental build → publish → hot swap). Target:
 * within 1 s on the kdd-engine corpus (54 documents).
 *
 * `npm run bench -- --scenario dev --sizes 54,1000`
 */
import { appendFile, cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startDev } from '../../server/dev.js';
import { loadBundle } from '../../library/load-bundle.js';
import { listSpecPaths } from '../../compiler/read.js';
import { int, median, percentile, withTarget, type Corpus, type Scenario, type ScenarioReport } from '../scenario.js';

const EDITS = 15;
const TARGET_MS = 1_000;
const GIVE_UP_MS = 30_000;

const scenario: Scenario = {
  name: 'dev',
  title: 'kdd dev: save → searchable over HTTP',
  async run(corpora) {
    const report: ScenarioReport = {
      columns: ['docs', 'edits', 'median ms', 'p90 ms', 'max ms'],
      rows: [],
      notes: [
        `Each edit appends a sentence with a new word to a different Markdown spec (${EDITS} edits, one at a time), then polls \`POST /v1/retrieve/search\` every 5 ms until that spec is among the results. Times run from the write returning to the first answer that contains it. The loop's own debounce (40 ms) is included.`,
      ],
    };
    for (const corpus of corpora) report.rows.push(await measure(corpus));
    return report;
  },
};
export default scenario;

async function measure(corpus: Corpus): Promise<string[]> {
  const root = await mkdtemp(join(tmpdir(), 'kdd-bench-dev-'));
  try {
    await cp(corpus.specsDir, join(root, 'specs'), { recursive: true });
    const session = await startDev({ specsDir: join(root, 'specs'), outDir: join(root, 'dist'), indexDir: join(root, '.kdd-index'), port: 0, log: () => undefined });
    try {
      const { bundle } = await loadBundle(join(root, 'dist'));
      const idOf = new Map(bundle.nodes.map((node) => [node.source_file, node.id]));
      const files = (await listSpecPaths(join(root, 'specs'))).filter((path) => path.endsWith('.md') && idOf.has(path));
      const times: number[] = [];
      for (let i = 0; i < EDITS; i++) {
        // A different file each time, and a word that shares nothing with the earlier ones.
        const file = files[(i * 7) % files.length]!;
        const word = WORDS[i % WORDS.length]!;
        await appendFile(join(root, 'specs', file), `\nMarcador ${word} para medir.\n`);
        const started = performance.now();
        while (!(await returns(session.url, word, idOf.get(file)!))) {
          if (performance.now() - started > GIVE_UP_MS) throw new Error(`bench dev: ${file} not searchable after ${GIVE_UP_MS} ms`);
          await sleep(5);
        }
        times.push(performance.now() - started);
      }
      const target = corpus.documents <= 54 ? { max: TARGET_MS, label: '1 s' } : null;
      const shown = (value: number) => (target ? withTarget(int(value), value, target) : int(value));
      return [int(corpus.documents), String(EDITS), shown(median(times)), shown(percentile(times, 90)), int(Math.max(...times))];
    } finally {
      await session.close();
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

const WORDS = ['ornitorrinco', 'quetzal', 'xilófono', 'zanahoria', 'murciélago', 'jacarandá', 'cormorán', 'pingüino', 'tiburón', 'lagartija', 'hipopótamo', 'salamandra', 'escarabajo', 'mandrágora', 'calabacín'];

async function returns(url: string, word: string, id: string): Promise<boolean> {
  const response = await fetch(`${url}/v1/retrieve/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query_text: word }) });
  const body = (await response.json()) as { results?: { node_id: string }[] };
  return body.results?.some((result) => result.node_id === id) ?? false;
}
