/**
 * Prints one row per scenario at the end of `npm run acceptance`: suite, feature file, scenario id,
 * status (passed / failed / pending) and duration, then the pending reasons and totals.
 */
import type { Reporter, TestModule } from 'vitest/node';
import type { ScenarioMeta } from './runner.js';

interface Row extends ScenarioMeta {
  ms: number;
  state: string;
}

export default class AcceptanceTableReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const rows: Row[] = [];
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        const meta = test.meta().kdd;
        if (!meta) continue;
        const result = test.result();
        const state = result.state === 'passed' ? 'passed' : result.state === 'failed' ? 'FAILED' : meta.pending?.length ? 'pending' : result.state;
        rows.push({ ...meta, ms: meta.ms ?? Math.round(test.diagnostic()?.duration ?? 0), state });
      }
    }
    if (rows.length === 0) return;
    const headers = ['suite', 'feature', 'scenario', 'status', 'ms'];
    const cells = rows.map((r) => [r.suite, r.feature, r.id, r.state, String(r.ms)]);
    const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
    const line = (c: string[]) => `| ${c.map((v, i) => (i === 4 ? v.padStart(widths[i]!) : v.padEnd(widths[i]!))).join(' | ')} |`;
    const out = ['', 'Acceptance scenarios', line(headers), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...cells.map(line)];
    const pending = rows.filter((r) => r.state === 'pending');
    if (pending.length) {
      out.push('', 'Pending:');
      for (const r of pending) out.push(`  ${r.id}: ${(r.pending ?? []).join(' | ')}`);
    }
    const failed = rows.filter((r) => r.state === 'FAILED');
    if (failed.length) {
      out.push('', 'Failed:');
      for (const r of failed) out.push(`  ${r.id}: ${r.failedStep ?? ''}`);
    }
    const count = (s: string) => rows.filter((r) => r.state === s).length;
    out.push('', `${rows.length} scenarios: ${count('passed')} passed, ${count('FAILED')} failed, ${count('pending')} pending`, '');
    process.stdout.write(`${out.join('\n')}\n`);
  }
}
