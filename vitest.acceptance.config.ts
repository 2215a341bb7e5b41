import { defineConfig } from 'vitest/config';

/**
 * `npm run acceptance`: the Gherkin suites (test/acceptance/suites) — the upstream specification's
 * scenarios (when ../shared/corpora/kdd-engine exists) and this product's own features — then a
 * per-scenario table (test/acceptance/reporter.ts).
 */
export default defineConfig({
  test: {
    include: ['test/acceptance/suites/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default', './test/acceptance/reporter.ts'],
  },
});
