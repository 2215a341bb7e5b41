import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildIndex, compile } from '../../compiler/pipeline.js';
import { packBundle, packPrepared, prepareNodes, type PackInput } from '../../compiler/pack/pack.js';
import { createPackMemo } from '../../compiler/cache/pack-memo.js';
import { bundleWithoutBodies, lastPackPath, patchBundle, type PreviousPack } from '../../compiler/incremental/patch-bundle.js';
import { valueEnd } from '../../compiler/incremental/msgpack-spans.js';
import { binHeader } from '../../formats/bundle/write.js';
import { newPackr } from '../../formats/msgpack.js';
import { loadBundle } from '../../library/load-bundle.js';
import { docPath, docText, treeArbitrary, writeTree, type Tree } from '../helpers/arbitrary-tree.js';
import { removedAfter } from '../helpers/temp-tree.js';

const roots = removedAfter('all');

async function fresh(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'kdd-patch-'));
  roots.push(root);
  return root;
}

async function packInput(dir: string, tree: Tree, previous: Tree = {}): Promise<PackInput> {
  await writeTree(dir, tree, previous);
  const result = await compile({ specsDir: dir });
  return { ...result.graph, manifest: result.manifest };
}

const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));
const WORDS = ['pedido', 'cliente', 'zafiro', 'quórum', 'índice', 'x9', 'Ent1', 'BR-GEN-001', 'ñandú', 'lorem'];

/** An edit that keeps every document where it is: text appended, a section added, a title or a link changed. */
const editArbitrary = fc.record({
  pick: fc.nat(),
  kind: fc.constantFrom('append', 'section', 'title', 'link', 'long'),
  words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 6 }),
});

type Edit = { pick: number; kind: string; words: string[] };

function applyEdit(tree: Tree, edit: Edit): Tree {
  const paths = Object.keys(tree).filter((path) => path !== 'README.md').sort();
  if (paths.length === 0) return tree;
  const path = paths[edit.pick % paths.length]!;
  const text = tree[path]!;
  const words = edit.words.join(' ');
  const changed =
    edit.kind === 'append'
      ? `${text}\n${words}.\n`
      : edit.kind === 'section'
        ? `${text}\n## ${edit.words[0]}\n\n${words}.\n`
        : edit.kind === 'title'
          ? text.replace(/^title: .*$/m, `title: ${words}`)
          : edit.kind === 'link'
            ? `${text}\nVer [[${edit.words.find((w) => /^(Ent1|BR-GEN-001)$/.test(w)) ?? 'Ent1'}]].\n`
            : `${text}\n${`${words} `.repeat(300)}\n`; // long enough to add chunks
  return { ...tree, [path]: changed };
}

describe('bundle patched from the previous one (compiler/incremental/patch-bundle.ts)', () => {
  it('equals a full pack byte for byte after in-place edits, with and without the previous products', async () => {
    await fc.assert(
      fc.asyncProperty(treeArbitrary({ minDocs: 2 }), fc.array(fc.array(editArbitrary, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 }), fc.boolean(), fc.integer({ min: 1, max: 4096 }), async (initial, rounds, known, firstRead) => {
        const root = await fresh();
        const dir = join(root, 'specs');
        const memo = createPackMemo();
        let tree = initial;
        let input = await packInput(dir, tree);
        let prepared = prepareNodes(input, memo);
        let previous: PreviousPack = { bytes: packPrepared(input, prepared).bytes, keys: prepared.packed.map((p) => p.key) };
        for (const edits of rounds) {
          const next = edits.reduce(applyEdit, tree);
          input = await packInput(dir, next, tree);
          tree = next;
          // Without `known`, the changed nodes' previous products are not in the memo handed over.
          prepared = prepareNodes(input, known ? memo : undefined);
          const patched = patchBundle(previous, input, prepared, known ? memo : undefined);
          expect(patched).not.toBeNull();
          expect(same(patched!.bytes, packBundle(input).bytes)).toBe(true);
          expect(patched!.hash).toBe(packBundle(input).hash);
          // From the previous bundle's file without its node bodies (read from any first length): the same bytes.
          await writeFile(join(root, 'previous.msgpack'), previous.bytes);
          const partial = await bundleWithoutBodies(join(root, 'previous.msgpack'), previous.bytes.length, firstRead);
          expect(partial!.length).toBeLessThan(previous.bytes.length);
          const fromPart = patchBundle({ bytes: partial!, keys: previous.keys }, input, prepared, known ? memo : undefined);
          expect(same(fromPart!.bytes, patched!.bytes)).toBe(true);
          previous = { bytes: patched!.bytes, keys: prepared.packed.map((p) => p.key) };
        }
      }),
      { numRuns: 25, seed: 1724 },
    );
  }, 120_000);

  it('declines what it does not cover: another node count, or bytes that are not a bundle', async () => {
    const dir = join(await fresh(), 'specs');
    const tree: Tree = { [docPath({ kind: 'entity', n: 1 })]: docText({ kind: 'entity', n: 1, links: [], version: 0 }) };
    const input = await packInput(dir, tree);
    const prepared = prepareNodes(input);
    const bytes = packPrepared(input, prepared).bytes;
    expect(patchBundle({ bytes, keys: [] }, input, prepared)).toBeNull();
    expect(patchBundle({ bytes: bytes.subarray(0, bytes.length >> 1), keys: ['another'] }, input, prepared)).toBeNull();
  });

  it('kdd build patches the bundle it left; a bundle edited on disk is packed again, never copied from', async () => {
    const root = await fresh();
    const dirs = { specsDir: join(root, 'specs'), outDir: join(root, 'dist'), indexDir: join(root, '.kdd-index') };
    const tree: Tree = {
      [docPath({ kind: 'entity', n: 1 })]: docText({ kind: 'entity', n: 1, links: ['BR-GEN-001'], version: 0 }),
      [docPath({ kind: 'rule', n: 1 })]: docText({ kind: 'rule', n: 1, links: ['Ent1'], version: 0 }),
    };
    await writeTree(dirs.specsDir, tree);
    await buildIndex(dirs);
    expect(JSON.parse(await readFile(lastPackPath(dirs.indexDir), 'utf8')).keys).toHaveLength(2);
    const reference = async (next: Tree) => packBundle(await packInput(join(root, 'ref'), next)).hash;

    const edited = applyEdit(tree, { pick: 0, kind: 'section', words: ['zafiro', 'quórum'] });
    await writeTree(dirs.specsDir, edited, tree);
    const second = await buildIndex(dirs);
    expect(second.bundle.hash).toBe(await reference(edited));
    expect((await loadBundle(dirs.outDir)).hash).toBe(second.bundle.hash);

    // Same size, other bytes: the stamp moved, the hash does not match its name, nothing is copied from it.
    const file = join(dirs.outDir, second.bundle.bundle);
    const bytes = await readFile(file);
    bytes[bytes.length - 3] = bytes[bytes.length - 3]! ^ 0xff;
    await writeFile(file, bytes);
    const again = applyEdit(edited, { pick: 1, kind: 'append', words: ['lorem'] });
    await writeTree(dirs.specsDir, again, edited);
    const third = await buildIndex(dirs);
    expect(third.bundle.hash).toBe(await reference(again));
  });
});

describe('postings of a term a changed node no longer has (compiler/incremental/patch-index.ts)', () => {
  it('a word taken out of one spec among many that share it: the postings after it are written with their new gaps, same bytes as a full pack', async () => {
    const root = await fresh();
    const dirs = { specsDir: join(root, 'specs'), outDir: join(root, 'dist'), indexDir: join(root, '.kdd-index') };
    const doc = (n: number, word: string) => `---\nid: Ent${n}\nkind: entity\n---\n# Ent${n}\n\n## Descripción\n\nEntidad ${word} número ${n}.\n`;
    const tree: Tree = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`01-domain/entities/Ent${i + 1}.md`, doc(i + 1, 'común')]));
    await writeTree(dirs.specsDir, tree);
    await buildIndex(dirs);
    for (const [n, word] of [[3, 'distinta'], [3, 'común'], [1, 'otra'], [8, 'última']] as const) {
      const before = { ...tree };
      tree[`01-domain/entities/Ent${n}.md`] = doc(n, word);
      await writeTree(dirs.specsDir, tree, before);
      const report = await buildIndex(dirs);
      expect(report.bundle.hash).toBe(packBundle(await packInput(join(root, `ref-${n}-${word}`), tree)).hash);
    }
  });
});

describe('terms of products the pack memo did not save (compiler/incremental/patch-bundle.ts rememberPack)', () => {
  it('the same spec edited twice in a row: the second patch drops the first edit\'s postings and equals a full pack', async () => {
    const root = await fresh();
    const dirs = { specsDir: join(root, 'specs'), outDir: join(root, 'dist'), indexDir: join(root, '.kdd-index') };
    // Thirty documents: one new memo entry is then too few to rewrite the memo (compiler/cache/rewrite-policy.ts).
    // Links to a use case (a layer violation) and to nothing (dangling): the second patch takes these
    // lists' bytes from the record cache (compiler/cache/packed-node.ts packedGraphPart).
    const tree: Tree = {
      ...Object.fromEntries(Array.from({ length: 30 }, (_, i) => [docPath({ kind: 'entity', n: i + 1 }), docText({ kind: 'entity', n: i + 1, links: i < 5 ? ['UC-001', 'Missing'] : [], version: 0 })])),
      [docPath({ kind: 'uc', n: 1 })]: docText({ kind: 'uc', n: 1, links: ['Ent1'], version: 0 }),
    };
    await writeTree(dirs.specsDir, tree);
    await buildIndex(dirs);
    const memoFile = join(dirs.indexDir, '.cache', 'pack');
    const memoBytes = await readFile(memoFile);
    const reference = async (next: Tree) => packBundle(await packInput(join(root, 'ref'), next)).hash;
    const path = docPath({ kind: 'entity', n: 1 });
    const lastPack = async () => JSON.parse(await readFile(lastPackPath(dirs.indexDir), 'utf8')) as { keys: string[]; terms: Record<string, { text: string[]; chunks: string[] }> };

    const first = { ...tree, [path]: `${tree[path]}\nzafiro zafiro.\n` };
    await writeTree(dirs.specsDir, first, tree);
    expect((await buildIndex(dirs)).bundle.hash).toBe(await reference(first));
    // The memo kept its file; the edited node's terms went to the last pack's record instead.
    expect((await readFile(memoFile)).equals(memoBytes)).toBe(true);
    const record = await lastPack();
    expect(Object.keys(record.terms)).toHaveLength(1);
    console.log(JSON.stringify(record.terms[record.keys[0]!]));

    const second = { ...tree, [path]: `${tree[path]}\nquórum.\n` };
    await writeTree(dirs.specsDir, second, first);
    expect((await buildIndex(dirs)).bundle.hash).toBe(await reference(second));
  });

  it('a word moved to another chunk of the same node with the same tf: its postings are written again, same bytes as a full pack', async () => {
    const root = await fresh();
    const dirs = { specsDir: join(root, 'specs'), outDir: join(root, 'dist'), indexDir: join(root, '.kdd-index') };
    const entity = (n: number, first: string, second: string) => `---\nid: Ent${n}\nkind: entity\n---\n# Ent${n}\n\n## Descripción\n\nAlfa ${first}.\n\n## Atributos\n\nBeta ${second}.\n`;
    const tree: Tree = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [docPath({ kind: 'entity', n: i + 1 }), entity(i + 1, i === 0 ? 'zafiro' : 'gamma', 'delta')]));
    await writeTree(dirs.specsDir, tree);
    await buildIndex(dirs);
    const path = docPath({ kind: 'entity', n: 1 });
    // Same words, same tfs, same chunk count: only "zafiro"'s chunk moved.
    const next = { ...tree, [path]: entity(1, 'delta', 'zafiro') };
    await writeTree(dirs.specsDir, next, tree);
    const edited = await buildIndex(dirs);
    expect(edited.bundle.hash).toBe(packBundle(await packInput(join(root, 'ref'), next)).hash);
  });

  it('a term changed in the last pack\'s record is seen (checksum): the build packs in full and still equals a full pack', async () => {
    const root = await fresh();
    const dirs = { specsDir: join(root, 'specs'), outDir: join(root, 'dist'), indexDir: join(root, '.kdd-index') };
    const tree: Tree = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [docPath({ kind: 'entity', n: i + 1 }), docText({ kind: 'entity', n: i + 1, links: [], version: 0 })]));
    await writeTree(dirs.specsDir, tree);
    await buildIndex(dirs);
    const path = docPath({ kind: 'entity', n: 1 });
    const first = { ...tree, [path]: `${tree[path]}\nzafiro.\n` };
    await writeTree(dirs.specsDir, first, tree);
    await buildIndex(dirs);
    // Without the check, the patch would keep the first edit's "zafir" posting (it would not know the node had it).
    const text = await readFile(lastPackPath(dirs.indexDir), 'utf8');
    expect(text).toContain('"zafir"');
    await writeFile(lastPackPath(dirs.indexDir), text.replaceAll('"zafir"', '"zafiq"'));
    const second = { ...tree, [path]: `${tree[path]}\nquórum.\n` };
    await writeTree(dirs.specsDir, second, first);
    expect((await buildIndex(dirs)).bundle.hash).toBe(packBundle(await packInput(join(root, 'ref'), second)).hash);
  });
});

describe('msgpack spans (compiler/incremental/msgpack-spans.ts)', () => {
  it('finds the end of any value msgpackr writes, and writes bin headers as msgpackr does', () => {
    const packr = newPackr();
    fc.assert(
      fc.property(fc.jsonValue(), fc.uint8Array({ maxLength: 300 }), (value, bin) => {
        const bytes = Uint8Array.prototype.slice.call(packr.pack([value, bin, -1.5, 2 ** 40, -(2 ** 40)]));
        expect(valueEnd(bytes, 0)).toBe(bytes.length);
      }),
      { numRuns: 300, seed: 17 },
    );
    for (const length of [0, 1, 255, 256, 65535, 65536, 70000]) {
      const packed = packr.pack(new Uint8Array(length));
      expect(Buffer.from(packed.subarray(0, packed.length - length)).equals(Buffer.from(binHeader(length)))).toBe(true);
    }
  });
});
