/**
 * A build in progress, as the index folder shows it: a marker in the git-ignored `.cache/` while
 * the build writes. A build that did not get to its end may have left temp files (never artifacts:
 * they would be committed); the marker spares every other build a listing of 10k node files.
 */
import { existsSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { forEachLimited, isTempFile, writeAtomic, writeIfChanged } from '../atomic.js';
import { CACHE_DIR } from '../cache/record-cache.js';

const marker = (indexDir: string) => join(indexDir, CACHE_DIR, 'build-in-progress');

/** Removes what a killed build left in `indexDir`, if a build was killed there. */
export async function clearInterruptedBuild(indexDir: string): Promise<void> {
  if (existsSync(marker(indexDir))) await removeTempFiles(indexDir);
}

/** Before the first write to `indexDir`. */
export async function markBuildStarted(indexDir: string): Promise<void> {
  await writeAtomic(marker(indexDir), `${process.pid}\n`);
  await writeIfChanged(join(indexDir, CACHE_DIR, '.gitignore'), '*\n'); // the marker is never committed
}

/** After the pointer moved: the build is over. */
export async function markBuildFinished(indexDir: string): Promise<void> {
  await rm(marker(indexDir), { force: true });
}

/** Temp files a killed build left anywhere in `dir` (never artifacts: they would be committed). */
async function removeTempFiles(dir: string): Promise<void> {
  const paths = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
  await forEachLimited(paths.filter(isTempFile), (path) => rm(join(dir, path), { force: true }));
}
