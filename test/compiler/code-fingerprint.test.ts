import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fingerprintOf, MEMO_FILE, writeCodeFingerprintMemo } from '../../compiler/cache/code-fingerprint.js';
import { tempTree, removedAfter } from '../helpers/temp-tree.js';

const roots = removedAfter('each');

const CODE = ['model/graph.js', 'compiler/cache/record-cache.js', 'runtime/search/bm25f.js', 'formats/bundle/nodes.js'];
const A_MINUTE_AGO = new Date(Date.now() - 60_000);

/** A code tree whose files are a minute old (not racily clean against a memo written now). */
async function codeTree(): Promise<string> {
  const root = await tempTree(Object.fromEntries(CODE.map((path) => [path, `export const path = ${JSON.stringify(path)};\n`])));
  roots.push(root);
  for (const path of CODE) utimesSync(join(root, path), A_MINUTE_AGO, A_MINUTE_AGO);
  return root;
}

/** Rewrites the memo's digest, stamps unchanged: a fingerprint equal to it can only come from the memo. */
function markMemo(root: string): string {
  const memo = JSON.parse(readFileSync(join(root, MEMO_FILE), 'utf8')) as { digest: string };
  memo.digest = 'memo'.repeat(16);
  writeFileSync(join(root, MEMO_FILE), JSON.stringify(memo));
  return memo.digest;
}

describe('code fingerprint memo', () => {
  it('gives the digest of the files themselves, and is taken while they keep their stamps', async () => {
    const root = await codeTree();
    const hashed = fingerprintOf(root);
    writeCodeFingerprintMemo(root);
    expect(JSON.parse(readFileSync(join(root, MEMO_FILE), 'utf8')).digest).toBe(hashed);
    const marked = markMemo(root);
    expect(fingerprintOf(root)).toBe(marked);
  });

  it('is ignored once a file changes, appears or goes, and the files are hashed again', async () => {
    const root = await codeTree();
    const hashed = fingerprintOf(root);
    writeCodeFingerprintMemo(root);
    markMemo(root);

    writeFileSync(join(root, 'compiler/cache/record-cache.js'), 'export const path = "changed";\n');
    utimesSync(join(root, 'compiler/cache/record-cache.js'), A_MINUTE_AGO, A_MINUTE_AGO); // same old time: the size tells
    const changed = fingerprintOf(root);
    expect(changed).not.toBe(hashed);
    expect(changed).not.toBe('memo'.repeat(16));

    writeCodeFingerprintMemo(root);
    markMemo(root);
    writeFileSync(join(root, 'runtime/search/extra.js'), 'export {};\n');
    expect(fingerprintOf(root)).not.toBe('memo'.repeat(16));
  });

  it('is ignored when a file is as new as the memo (it could have changed unseen in that clock tick)', async () => {
    const root = await codeTree();
    writeCodeFingerprintMemo(root);
    markMemo(root);
    utimesSync(join(root, MEMO_FILE), A_MINUTE_AGO, A_MINUTE_AGO); // the files' own time
    expect(fingerprintOf(root)).not.toBe('memo'.repeat(16));
  });

  it('a damaged memo is no memo', async () => {
    const root = await codeTree();
    const hashed = fingerprintOf(root);
    writeFileSync(join(root, MEMO_FILE), '{"digest": 12');
    expect(fingerprintOf(root)).toBe(hashed);
  });
});
