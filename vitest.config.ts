import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/acceptance/**', 'test/browser/**', 'test/doors/**', 'test/faults/**', 'test/package/**', 'node_modules/**'],
    testTimeout: 20_000,
    pool: 'forks',
    setupFiles: ['test/setup/fast-check.ts'],
  },
});
