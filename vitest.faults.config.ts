/**
 * `npm run test:faults`: the crash-safety suite. `kdd build` processes are killed at points spread
 * over every stage (KDD_FAULT_AT, compiler/fault.ts) and at random moments, then built again; the
 * result must be the bytes of a clean build. Runs the compiled CLI (`npm run build:ts` first).
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/faults/**/*.test.ts'],
    testTimeout: 600_000,
    hookTimeout: 120_000,
    pool: 'forks',
    setupFiles: ['test/setup/fast-check.ts'],
  },
});
