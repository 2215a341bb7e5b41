/**
 * `kdd site [DIR]` (#7): puts the static site next to a bundle. Copies the prebuilt app
 * (`npm run build:site` → `build/site-app/`, built once at package build time) into DIR and writes
 * the search sub-bundle (compiler/pack/site-bundle.ts) for the bundle DIR's `kdd.json` names, with
 * brotli and gzip copies of the app, the sub-bundle and the bundle (compiler/pack/precompress.ts).
 * Node-only; the browser code lives in site/src/.
 */
import { existsSync, readFileSync } from 'node:fs';
import { cp, readFile, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeCompressedCopies, writeCompressedCopiesOf } from '../compiler/pack/precompress.js';
import { packSiteBundle, writeSiteBundle } from '../compiler/pack/site-bundle.js';
import { packSiteDocs, writeSiteDocs } from '../compiler/pack/site-docs.js';
import { decodeBundle } from '../formats/bundle/bundle.js';
import '../formats/native-strings.js';
import { POINTER_FILE } from '../formats/bundle/types.js';
import { createError } from '../model/errors.js';
import { parsePointer } from '../runtime/load.js';
import type { DocsPointer } from '../formats/site-docs.js';
import type { SitePointer } from '../formats/site-bundle.js';

/** The app's asset folder inside DIR (vite `assetsDir`): replaced wholesale on each copy. */
export const SITE_ASSETS = 'kdd-site-assets';

export interface WriteSiteOptions {
  /** Prebuilt app folder. Default: `build/site-app` of this package. */
  appDir?: string;
  /**
   * The specs tree the bundle was built from: each spec is rendered to HTML for its node page
   * (compiler/pack/site-docs.ts). Without it node pages show the extracted fields only.
   */
  specsDir?: string;
}

export interface WriteSiteReport {
  dir: string;
  /** Files of the app copied (index.html and assets). */
  app_files: string[];
  /** The sub-bundle pointer written, or null when DIR has no `kdd.json` yet. */
  search: SitePointer | null;
  /** The document pieces written, or null without `kdd.json` or without a specs tree. */
  documents: DocsPointer | null;
}

export async function writeSite(dir: string, options: WriteSiteOptions = {}): Promise<WriteSiteReport> {
  const target = resolve(dir);
  const appDir = resolve(options.appDir ?? join(packageRoot(), 'build', 'site-app'));
  if (!existsSync(join(appDir, 'index.html'))) {
    throw createError('INDEX_UNAVAILABLE', { reason: `the site app is not built (${appDir}/index.html is missing): run 'npm run build:site'` });
  }
  await rm(join(target, SITE_ASSETS), { recursive: true, force: true });
  await cp(appDir, target, { recursive: true });
  const appFiles = ['index.html', ...(await listFiles(join(appDir, SITE_ASSETS))).map((f) => `${SITE_ASSETS}/${f}`)];
  await writeCompressedCopiesOf(target, await Promise.all(appFiles.map(async (name) => ({ name, bytes: await readFile(join(target, name)) }))));
  const indexed = existsSync(join(target, POINTER_FILE));
  const search = indexed ? await writeSearchBundle(target) : null;
  const documents = indexed && options.specsDir !== undefined ? await writeDocuments(target, resolve(options.specsDir)) : null;
  return { dir: target, app_files: appFiles, search, documents };
}

/** Renders every spec of `specsDir` that still matches the bundle `DIR/kdd.json` names into its node's document piece. */
export async function writeDocuments(dir: string, specsDir: string): Promise<DocsPointer> {
  const pointerPath = join(dir, POINTER_FILE);
  const pointer = parsePointer(JSON.parse(await readFile(pointerPath, 'utf8')), pointerPath);
  const bundle = decodeBundle(new Uint8Array(await readFile(join(dir, pointer.bundle))));
  const docs = await packSiteDocs(bundle, pointer.bundle, (sourceFile) => readFile(join(specsDir, sourceFile)).catch(() => null));
  await writeSiteDocs(dir, docs);
  return docs.pointer;
}

/** Derives and writes the search sub-bundle of the bundle `DIR/kdd.json` names. */
export async function writeSearchBundle(dir: string): Promise<SitePointer> {
  const pointerPath = join(dir, POINTER_FILE);
  const pointer = parsePointer(JSON.parse(await readFile(pointerPath, 'utf8')), pointerPath);
  const bytes = new Uint8Array(await readFile(join(dir, pointer.bundle)));
  const site = packSiteBundle(decodeBundle(bytes), pointer.bundle);
  await writeSiteBundle(dir, site);
  // The bundle is content-hashed: copies already there are its copies.
  const bundlePath = join(dir, pointer.bundle);
  if (!existsSync(`${bundlePath}.br`) && !existsSync(`${bundlePath}.gz`)) await writeCompressedCopies(bundlePath, bytes);
  return site.pointer;
}

async function listFiles(dir: string): Promise<string[]> {
  const { readdir } = await import('node:fs/promises');
  return (await readdir(dir).catch(() => [] as string[])).sort();
}

/** Nearest folder above this module with kdd-index's package.json (works from source and from build/). */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'kdd-index') return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('kdd site: cannot find the kdd-index package root');
    dir = parent;
  }
}
