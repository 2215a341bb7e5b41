/**
 * Load test of `kdd serve` (#5): `POST /v1/retrieve/context` with varied bodies against a
 * 1,000-document bundle, then a soak that samples the server's RSS. Loopback only, bounded in
 * time (about 2 minutes with the defaults), stops by itself.
 *
 * The server runs in a child process (`node --import tsx cli/main.ts serve`) so autocannon, in
 * this process, does not share its event loop. Results print as a markdown table and are
 * appended to bench/RESULTS.md under `## Serve`.
 *
 *   npm run bench:serve [-- --docs 1000 --connections 10 --duration 20 --soak 60 --no-write]
 *
 * Targets (#5): ≥ 1,000 req/s, p99 ≤ 50 ms, zero errors; RSS stable during the soak.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { build } from '../compiler/pipeline.js';
import { loadBundle } from '../library/load-bundle.js';
import { generateCorpus } from './generate.js';

const REPO = fileURLToPath(new URL('../', import.meta.url));
/** Hard stop for the whole run, whatever happens. */
const DEADLINE_MS = 6 * 60_000;

interface Options {
  docs: number;
  connections: number;
  duration: number;
  soak: number;
  sampleEvery: number;
  write: boolean;
}

function options(argv: string[]): Options {
  const value = (name: string, dflt: number) => {
    const i = argv.indexOf(`--${name}`);
    const n = i >= 0 ? Number(argv[i + 1]) : dflt;
    if (!Number.isFinite(n) || n < 0) throw new Error(`bench:serve: --${name} must be a number`);
    return n;
  };
  return {
    docs: value('docs', 1000),
    connections: value('connections', 10),
    duration: Math.min(value('duration', 20), 120),
    soak: Math.min(value('soak', 60), 300),
    sampleEvery: 5,
    write: !argv.includes('--no-write'),
  };
}

/** Starts `kdd serve DIR --port 0` and resolves with its URL once it prints it. */
function startServer(dist: string): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(REPO, 'cli/main.ts'), 'serve', dist, '--port', '0', '--host', '127.0.0.1'], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 30_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ child, url });
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => process.stderr.write(`  [server] ${chunk.toString()}`));
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

/** Resident set size of a process, MB (Linux /proc). */
async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

/** CPU seconds (user + system) a process has used so far (Linux /proc, clock ticks of 1/100 s). */
async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Request bodies drawn from the corpus itself: titles, ids, and task-like phrases, ES and EN. */
function bodies(titles: string[]): string[] {
  const phrases = [
    'crear pedido', 'indexar documento', 'merge index conflict', 'layer violation', 'retrieve impact of a change',
    'embedding model fallback', 'incremental indexing of a document', 'sincronizar índice con el servidor',
    'reglas de negocio del documento', 'validar capas', 'hybrid search query', 'token budget',
  ];
  const texts = [...phrases, ...titles.slice(0, 200)];
  return texts.map((query_text, i) =>
    JSON.stringify({ query_text, limit: 5 + (i % 10), ...(i % 3 === 0 ? { depth: 1 } : {}), ...(i % 7 === 0 ? { include_kinds: ['use-case', 'business-rule', 'command'] } : {}) }),
  );
}

function run(url: string, payloads: string[], connections: number, duration: number): Promise<autocannon.Result> {
  let next = 0;
  return autocannon({
    url,
    connections,
    duration,
    requests: [
      {
        method: 'POST',
        path: '/v1/retrieve/context',
        headers: { 'content-type': 'application/json' },
        setupRequest: (request) => ({ ...request, body: payloads[next++ % payloads.length] }),
      },
    ],
  });
}

interface PacedResult {
  total: number;
  errors: number;
  p50: number;
  p99: number;
  max: number;
  /** Largest delay of a send behind its schedule (ms): the load generator itself not getting the CPU. */
  lag: number;
}

/**
 * Latency below capacity, open loop: `rate` requests per second, evenly spaced, over at most
 * `connections` keep-alive sockets, each latency measured from its SCHEDULED send time (so time
 * spent waiting for a free socket counts: no coordinated omission). autocannon's `overallRate` is
 * not used for this: it sends each connection's quota as a burst at the start of every second, and
 * its coordinated-omission correction is recorded with a 1 ms expected interval whatever the rate.
 */
async function paced(url: string, payloads: string[], connections: number, seconds: number, rate: number): Promise<PacedResult> {
  const target = new URL(url);
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let errors = 0;
  let lag = 0;
  const one = (body: string, due: number) =>
    new Promise<void>((done) => {
      const req = request(
        { agent, hostname: target.hostname, port: target.port, path: '/v1/retrieve/context', method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - due);
            if (res.statusCode !== 200) errors++;
            done();
          });
        },
      );
      req.on('error', () => {
        errors++;
        done();
      });
      req.end(body);
    });
  const count = Math.floor(seconds * rate);
  const pending: Promise<void>[] = [];
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait >= 1) await new Promise((r) => setTimeout(r, wait));
    lag = Math.max(lag, performance.now() - due);
    pending.push(one(payloads[i % payloads.length]!, due));
  }
  await Promise.all(pending);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN);
  return { total: count, errors, p50: at(0.5), p99: at(0.99), max: Math.round(latencies.at(-1) ?? NaN), lag: Math.round(lag) };
}

function trendVerdict(samples: number[]): { stable: boolean; note: string } {
  // Stable = the last third never exceeds the first third's peak by more than 10 % + 5 MB (noise
  // of GC timing); a leak shows as a steady climb well past that.
  const third = Math.max(1, Math.floor(samples.length / 3));
  const early = Math.max(...samples.slice(0, third));
  const late = Math.max(...samples.slice(-third));
  const stable = late <= early * 1.1 + 5;
  return { stable, note: `peak of last third ${late.toFixed(0)} MB vs first third ${early.toFixed(0)} MB` };
}

const mark = (ok: boolean) => (ok ? '✓' : '✗');

async function main(): Promise<void> {
  const opts = options(process.argv.slice(2));
  const guard = setTimeout(() => {
    console.error('bench:serve: deadline reached, stopping');
    process.exit(2);
  }, DEADLINE_MS);
  guard.unref();

  const root = await mkdtemp(join(tmpdir(), 'kdd-bench-serve-'));
  let child: ChildProcess | undefined;
  try {
    console.log(`bench:serve: generating ${opts.docs} documents and building the bundle…`);
    const corpus = await generateCorpus(join(root, 'specs'), opts.docs);
    const report = await build({ specsDir: corpus.dir, outDir: join(root, 'dist'), indexDir: join(root, '.kdd-index') });
    const index = await loadBundle(join(root, 'dist'));
    const payloads = bodies(index.bundle.nodes.map((n) => n.title).filter((t) => t.length >= 3));

    const server = await startServer(join(root, 'dist'));
    child = server.child;
    const pid = child.pid!;
    console.log(`bench:serve: ${report.nodes} nodes, bundle ${(report.bundle.bytes / 1e6).toFixed(1)} MB, server pid ${pid} at ${server.url}`);

    await run(server.url, payloads, opts.connections, 3); // warm-up (JIT), not reported
    const startRss = await rssMb(pid);
    const load = loadavg()[0]!;
    const cpuBefore = await cpuSeconds(pid);
    const main = await run(server.url, payloads, opts.connections, opts.duration);
    const serverCpu = (await cpuSeconds(pid)) - cpuBefore;
    // Requests per CPU-second of the server: what one dedicated core would sustain.
    const perCpuSecond = main.requests.total / Math.max(serverCpu, 0.01);

    // Latency below capacity: at full tilt p50/p99 are mostly queueing (connections ÷ throughput).
    const halfRate = Math.max(1, Math.floor(main.requests.average / 2));
    const pacedRun = await paced(server.url, payloads, opts.connections, 10, halfRate);

    const samples: number[] = [startRss];
    const soak = run(server.url, payloads, opts.connections, opts.soak);
    const sampler = setInterval(() => void rssMb(pid).then((mb) => samples.push(mb)), opts.sampleEvery * 1000);
    const soaked = await soak;
    clearInterval(sampler);
    samples.push(await rssMb(pid));

    const errors = main.errors + main.timeouts + main.non2xx;
    const soakErrors = soaked.errors + soaked.timeouts + soaked.non2xx;
    const verdict = trendVerdict(samples);
    const rows = [
      ['throughput (req/s, mean)', main.requests.average.toFixed(0), '≥ 1,000', mark(main.requests.average >= 1000)],
      ['latency at full load p50 / p99 / max (ms)', `${main.latency.p50} / ${main.latency.p99} / ${main.latency.max}`, 'p99 ≤ 50', mark(main.latency.p99 <= 50)],
      ['server CPU share during the run (% of one core)', ((serverCpu / opts.duration) * 100).toFixed(0), '', ''],
      ['requests per server CPU-second (one dedicated core)', perCpuSecond.toFixed(0), '', ''],
      ['requests / errors (errors+timeouts+non-2xx)', `${main.requests.total} / ${errors}`, '0 errors', mark(errors === 0)],
      [`paced at ${halfRate} req/s (half of the above), evenly spaced, 10 s: p50 / p99 / max (ms)`, `${pacedRun.p50} / ${pacedRun.p99} / ${pacedRun.max}`, 'p99 ≤ 50', mark(pacedRun.p99 <= 50)],
      ['paced: requests / errors / largest send lag of the load generator (ms)', `${pacedRun.total} / ${pacedRun.errors} / ${pacedRun.lag}`, '0 errors', mark(pacedRun.errors === 0)],
      [`soak ${opts.soak} s: requests / errors`, `${soaked.requests.total} / ${soakErrors}`, '0 errors', mark(soakErrors === 0)],
      ['soak throughput (req/s, mean)', soaked.requests.average.toFixed(0), '', ''],
      ['soak RSS start / end / max (MB)', `${samples[0]!.toFixed(0)} / ${samples.at(-1)!.toFixed(0)} / ${Math.max(...samples).toFixed(0)}`, 'stable', mark(verdict.stable)],
    ];
    const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
    const text = [
      `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC · \`npm run bench:serve\` · ${cpus().length} cores (${cpu}) · Node ${process.version} · load average ${load.toFixed(1)} at start`,
      `Bundle: ${opts.docs} generated documents (bench/generate.ts), ${report.nodes} nodes, ${report.edges} edges, ${(report.bundle.bytes / 1e6).toFixed(1)} MB, L1.`,
      `Load: autocannon in the bench process, server in a child process (\`kdd serve\` via tsx), ${opts.connections} connections, ` +
        `${opts.duration} s after a 3 s warm-up, ${payloads.length} rotating bodies (titles of the corpus + task phrases, limit 5–14, some with depth 1 or kind filters).`,
      '',
      '| measure | value | target | |',
      '| --- | ---: | ---: | :-: |',
      ...rows.map((r) => `| ${r.join(' | ')} |`),
      '',
      `RSS samples every ${opts.sampleEvery} s (MB): ${samples.map((s) => s.toFixed(0)).join(', ')} — ${verdict.note}.`,
      '',
    ].join('\n');
    console.log(`\n${text}`);
    if (opts.write) {
      await appendFile(join(REPO, 'bench/RESULTS.md'), `\n## Serve\n\n${text}`);
      console.log('bench:serve: appended to bench/RESULTS.md');
    }
  } finally {
    if (child && child.exitCode === null) child.kill('SIGTERM');
    await rm(root, { recursive: true, force: true });
    clearTimeout(guard);
  }
}

await main();
