/**
 * `npm run test:browser`: the site's end-to-end suite (headless Chromium) and the sub-bundle
 * equivalence tests. Not part of `npm test`: it needs /usr/bin/chromium and a built site
 * (`npm run build:site`, done by the suite itself when missing).
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
  },
});
