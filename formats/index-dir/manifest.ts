/**
 * `.kdd-index/manifest.json` and the index format version it carries.
 *
 * The version names the format of every file of the folder. A major bump means a kdd that knows
 * only the older major must not read the folder (it would misread the files): its builds rebuild
 * from the specs and its merges refuse the input. This code writes {@link INDEX_FORMAT_VERSION} and
 * reads every major in {@link READABLE_MAJORS}; the records it reads are the same whichever major
 * wrote them, so indexes of readable formats merge.
 */
import { createError } from '../../model/errors.js';
import type { IndexManifest } from '../../model/graph.js';
import { stableJson } from '../canonical.js';

export const MANIFEST_FILE = 'manifest.json';

/**
 * 2.0.0: node files store each text once (formats/index-dir/node-file.ts, format 2).
 * 1.0.0: node files pretty-printed, text repeated in `sections` and `indexed_fields`.
 */
export const INDEX_FORMAT_VERSION = '2.0.0';

/** Majors whose files this code reads (node-file formats 1 and 2). */
const READABLE_MAJORS: readonly string[] = ['1', '2'];

export function formatMajor(version: string): string {
  return version.split('.')[0] ?? version;
}

/** Whether this code reads an index of format `version` (the current one or an older readable one). */
export function readableIndexFormat(version: string): boolean {
  return READABLE_MAJORS.includes(formatMajor(version));
}

export function manifestText(manifest: IndexManifest): string {
  let text = texts.get(manifest);
  if (text === undefined) texts.set(manifest, (text = stableJson(manifest)));
  return text;
}

/**
 * By manifest object (never changed once made): a build writes the text and hashes it into the
 * index digest, and at 10,800 documents each canonical JSON of its `sources` costs ~10 ms.
 */
const texts = new WeakMap<IndexManifest, string>();

/**
 * `manifest.json` text → the manifest, or INDEX_CORRUPT naming `file` when it is not JSON or lacks
 * what every reader relies on (a semver `version`, `sources`).
 */
export function parseManifest(text: string, file: string): IndexManifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw createError('INDEX_CORRUPT', { file, detail: (error as Error).message });
  }
  const manifest = value as Partial<IndexManifest> | null;
  const problem =
    typeof manifest !== 'object' || manifest === null || Array.isArray(manifest)
      ? 'not a JSON object'
      : typeof manifest.version !== 'string' || !/^\d+\.\d+\.\d+$/.test(manifest.version)
        ? `"version" must be a semver string (got ${JSON.stringify(manifest.version)})`
        : typeof manifest.sources !== 'object' || manifest.sources === null
          ? '"sources" is missing'
          : null;
  if (problem) throw createError('INDEX_CORRUPT', { file, detail: problem });
  return manifest as IndexManifest;
}
