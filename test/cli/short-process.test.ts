/**
 * `kdd build` and `kdd check` run with V8's optimiser made patient (cli/main.ts), only on the V8 line
 * where that was measured: a flag V8 does not know would print an error on every build.
 */
import { describe, expect, it } from 'vitest';
import { patientOptimiserFlag } from '../../cli/main.js';

describe('the V8 flag of short CLI processes', () => {
  it('is the larger interrupt budget on V8 11 (Node 20), nothing on other V8 lines', () => {
    expect(patientOptimiserFlag('11.3.244.8-node.33')).toBe('--interrupt-budget=540672');
    expect(patientOptimiserFlag('12.4.254.21-node.33')).toBeNull();
    expect(patientOptimiserFlag('13.6.233.10-node.18')).toBeNull();
    expect(patientOptimiserFlag('10.2.154.26-node.26')).toBeNull();
  });

  it('is known to the V8 running the tests when it is set at all (no unknown-flag error)', async () => {
    const flag = patientOptimiserFlag(process.versions.v8);
    if (flag === null) return;
    const { execFileSync } = await import('node:child_process');
    const options = execFileSync(process.execPath, ['--v8-options'], { encoding: 'utf8' });
    expect(options).toContain(`--${flag.slice(2).split('=')[0]} `);
  });
});
