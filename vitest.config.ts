import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/acceptance/**', 'test/browser/**', 'test/doors/**', 'test/faults/**', 'test/package/**', 'node_modules/**'],
    testTimeout: 20_000,
    pool: 'forks',
    // One worker process runs many files in turn (not a fresh process and module graph per file): a fresh
    // process per file re-imported vitest, msgpackr and the compiler for each of the ~100 files, about a
    // third of the suite's CPU. Files share no state they do not restore: each stubbed `fetch` and env
    // variable is put back in its afterAll/finally, and the modules' own memos are keyed by what they
    // compute from, so a file's answers do not depend on which file ran before it.
    isolate: false,
    setupFiles: ['test/setup/fast-check.ts'],
  },
});
