import { createHash } from 'node:crypto';
import { manifestText } from '../../formats/index-dir/manifest.js';
import { codeFingerprint } from '../cache/code-fingerprint.js';
import type { CompileResult } from '../report.js';

/**
 * What the bundle is a function of, hashed: the manifest (every source hash, level, model,
 * enrichments), each node's source file and git time (a duplicate id's winner, `indexed_at`) and
 * the code that packs. `kdd.json` records it; a pointer with another digest is stale.
 */
export function indexDigest(result: Pick<CompileResult, 'manifest' | 'graph'>): string {
  const hash = createHash('sha256').update(codeFingerprint()).update('\0').update(manifestText(result.manifest));
  for (const node of result.graph.nodes) hash.update(`\0${node.id}\0${node.source_file}\0${node.indexed_at ?? ''}`);
  return hash.digest('hex');
}
