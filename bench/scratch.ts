/**
 * The benchmark's working folders: made fresh for each measurement, removed only when the whole run
 * is over (`removeScratch`, called last by bench/run.ts).
 *
 * Why not after each measurement: on ext4 without a journal, a file created within ~30 s of many
 * deletions costs about 1 ms of kernel time instead of 20–60 µs (the allocator skips the freed
 * inodes and scans for others; docs/decisions/build-speed.md, "A measurement trap on this
 * machine"). A size's clean-up right before the next size's timed builds put up to a second of
 * that into a 1,080-document `kdd build`, which is the file system's cost, not kdd's. The trees
 * stay on disk until the end instead (a few GB for the largest sizes).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const pending: string[] = [];

/** A new empty folder under the OS temp folder, removed by {@link removeScratch}. */
export async function scratchDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  pending.push(dir);
  return dir;
}

/** Removes every folder {@link scratchDir} made: once no more timed runs follow. */
export async function removeScratch(): Promise<void> {
  for (const dir of pending.splice(0)) await rm(dir, { recursive: true, force: true });
}
