import { defineConfig } from 'vitest/config';

/**
 * `npm run test:doors`: the door matrix (test/doors) — the same queries through the library, the
 * CLI, HTTP and MCP (three `kdd mcp` processes over stdio) on L1 and L2 bundles. Its own script
 * because spawning those servers costs more time than the unit suite's budget allows.
 */
export default defineConfig({
  test: {
    include: ['test/doors/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 90_000,
    pool: 'forks',
    setupFiles: ['test/setup/fast-check.ts'],
  },
});
