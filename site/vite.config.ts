/**
 * Site build (#7): `npm run build:site` → build/site-app/. `base: './'` keeps every URL relative, so
 * the copied site works under any path of a static host, `kdd serve` or `vite preview`. Assets go to
 * their own folder so `kdd site` can replace them wholesale without touching other files in DIR.
 */
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  base: './',
  build: {
    outDir: '../build/site-app',
    emptyOutDir: true,
    assetsDir: 'kdd-site-assets',
    target: 'es2022',
    // Deterministic, readable output; the app is small.
    reportCompressedSize: true,
  },
  worker: { format: 'es' },
  server: { fs: { allow: ['..'] } },
});
