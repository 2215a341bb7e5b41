/**
 * What the build's artifacts weigh against the specs they were built from (REQ-002: a committed
 * index proportional to the specs). Reported by `kdd build --json` and kept in `kdd.json`.
 *
 * Cheap on purpose: the spec sizes come from the stamps the scan took, and the node files' sizes
 * from the stamps the build keeps for its record cache; only the few other files are stat-ed.
 */
import { lstatSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ArtifactSizes } from '../../formats/bundle/types.js';
import { CACHE_DIR, type ArtifactStamp } from '../cache/record-cache.js';
import type { SourceStamp } from '../read.js';

/**
 * `sources`: the spec files indexed (relative to `specsDir`), `specStamps` the stamps the scan kept
 * for them; `artifacts`: stamps of files of `indexDir` already known (node and edge files). Every
 * file of `indexDir` but its local `.cache/` counts: it is what gets committed.
 */
export function indexWeight(
  specsDir: string,
  sources: readonly string[],
  specStamps: ReadonlyMap<string, SourceStamp>,
  indexDir: string,
  artifacts: ReadonlyMap<string, ArtifactStamp>,
): IndexWeight {
  let specBytes = 0;
  for (const path of sources) specBytes += specStamps.get(path)?.size ?? sizeOf(join(specsDir, path));
  let indexBytes = 0;
  // Folder by folder, names only: a name the build stamped is a file of that size (10k node files
  // in a few folders), any other is stat-ed to tell a file from a folder. The local `.cache/` is
  // never listed: it is not committed.
  const folders = [''];
  for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
    for (const name of readdirSync(join(indexDir, folder))) {
      const rel = folder + name;
      const stamped = artifacts.get(rel);
      if (stamped) {
        indexBytes += stamped.size;
        continue;
      }
      // lstat: a link is neither (not followed, not counted), as git keeps a link, not its target.
      const info = lstatSync(join(indexDir, rel), { throwIfNoEntry: false });
      if (info?.isDirectory()) {
        if (rel !== CACHE_DIR) folders.push(`${rel}/`);
      } else if (info?.isFile()) indexBytes += info.size;
    }
  }
  return { spec_bytes: specBytes, index_bytes: indexBytes };
}

/** Bytes of the specs indexed and of the committed `.kdd-index/`. */
export type IndexWeight = Pick<ArtifactSizes, 'spec_bytes' | 'index_bytes'>;

export function artifactSizes({ spec_bytes, index_bytes }: IndexWeight, bundleBytes: number): ArtifactSizes {
  return { spec_bytes, index_bytes, index_ratio: ratio(index_bytes, spec_bytes), bundle_bytes: bundleBytes, bundle_ratio: ratio(bundleBytes, spec_bytes) };
}

const sizeOf = (path: string) => statSync(path, { throwIfNoEntry: false })?.size ?? 0;
const ratio = (bytes: number, of: number) => (of === 0 ? 0 : Math.round((bytes / of) * 1000) / 1000);
