import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { Packr } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { compile } from '../../compiler/pipeline.js';
import { packBundle, type PackInput } from '../../compiler/pack/pack.js';
import { chunkCount, createPackMemo, packMemoPath, PackMemoCorrupt, readPackMemo, writePackMemo, type NodePack, type PackMemo } from '../../compiler/cache/pack-memo.js';
import { checksum } from '../../compiler/cache/checksum.js';
import { buildIndex } from '../../compiler/pipeline.js';
import { applyOp, opArbitrary, treeArbitrary, writeTree, type Tree } from '../helpers/arbitrary-tree.js';
import { removedAfter } from '../helpers/temp-tree.js';

const roots = removedAfter('all');

async function fresh(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'kdd-packcache-'));
  roots.push(root);
  return root;
}

async function packInput(root: string, tree: Tree, previous: Tree = {}): Promise<PackInput> {
  await writeTree(join(root, 'specs'), tree, previous);
  const result = await compile({ specsDir: join(root, 'specs') });
  return { ...result.graph, manifest: result.manifest };
}

const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

describe('pack cache (compiler/cache/pack-memo.ts)', () => {
  it('a memo filled from another tree and edit history (through its file) packs the same bytes as no memo', async () => {
    await fc.assert(
      fc.asyncProperty(treeArbitrary(), fc.array(opArbitrary(), { maxLength: 4 }), treeArbitrary(), fc.boolean(), async (initial, ops, other, roundTrip) => {
        const root = await fresh();
        let memo: PackMemo = createPackMemo();
        // Fill the memo from an unrelated tree, then from an edit history of `initial`.
        packBundle(await packInput(join(root, 'other'), other), { memo });
        let tree = initial;
        packBundle(await packInput(join(root, 'main'), tree), { memo });
        for (const op of ops) {
          const next = applyOp(tree, op);
          const input = await packInput(join(root, 'main'), next, tree);
          tree = next;
          if (roundTrip) {
            await writePackMemo(join(root, 'pack'), memo);
            memo = await readPackMemo(join(root, 'pack'));
          }
          const cached = packBundle(input, { memo });
          expect(same(cached.bytes, packBundle(input).bytes)).toBe(true);
        }
        const input = await packInput(join(root, 'main'), tree);
        expect(same(packBundle(input, { memo }).bytes, packBundle(input).bytes)).toBe(true);
        await rm(root, { recursive: true, force: true });
      }),
      { numRuns: 15 },
    );
  }, 60_000);

  it('entries written from fresh products (ids as views, or renumbered by a compaction) read back equal', async () => {
    const words = (m: PackMemo, ids: Uint32Array) => Array.from(ids, (id, k) => (k % 2 === 0 ? m.vocab.terms[id] : id));
    const fields = (m: PackMemo, p: NodePack) => ({ lens: p.lens, terms: words(m, p.terms), keys: p.keys, chunkIds: p.chunkIds, chunkRows: p.chunkRows, chunkTerms: words(m, p.chunkTerms), chunkEnds: p.chunkEnds });
    let compacted = 0;
    await fc.assert(
      fc.asyncProperty(treeArbitrary(), treeArbitrary(), fc.boolean(), async (tree, other, withOther) => {
        const root = await fresh();
        const memo = createPackMemo();
        // Products of another tree first: the last pack uses only `tree`'s, so most terms go stale.
        if (withOther) packBundle(await packInput(join(root, 'other'), other), { memo });
        packBundle(await packInput(join(root, 'main'), tree), { memo });
        await writePackMemo(join(root, 'pack'), memo);
        const read = await readPackMemo(join(root, 'pack'));
        expect([...read.entries.keys()].sort()).toEqual([...memo.used].sort());
        for (const [key, stored] of read.entries) expect(fields(read, stored)).toEqual(fields(memo, memo.entries.get(key)!));
        if (read.vocab.size < memo.vocab.size) compacted++;
        await rm(root, { recursive: true, force: true });
      }),
      { numRuns: 20 },
    );
    expect(compacted).toBeGreaterThan(0);
  }, 60_000);

  it('buildIndex writes the cache under .kdd-index/.cache and ignores a corrupt one', async () => {
    const root = await fresh();
    const tree: Tree = { 'entities/Pedido.md': '---\nid: Pedido\nkind: entity\n---\n# Pedido\n\n## Descripción\n\nUn pedido del cliente.\n' };
    await writeTree(join(root, 'specs'), tree);
    const dirs = { specsDir: join(root, 'specs'), outDir: join(root, 'dist'), indexDir: join(root, '.kdd-index') };
    const first = await buildIndex(dirs);
    const file = packMemoPath(dirs.indexDir);
    expect((await readPackMemo(file)).entries.size).toBe(1);
    const bytes = await readFile(file);
    const flipped = Buffer.from(bytes);
    flipped.writeUInt8(flipped.at(-2)! ^ 0x01, flipped.length - 2); // a term id, every length intact
    await writeFile(file, flipped);
    // Entries are read when first decoded, each checked against its CRC.
    const [entry] = (await readPackMemo(file)).entries.values();
    expect(() => entry!.terms).toThrow(PackMemoCorrupt);
    await writeFile(file, bytes.subarray(0, bytes.length >> 1));
    expect((await readPackMemo(file)).entries.size).toBe(0);
    await writeFile(join(dirs.specsDir, 'entities/Pedido.md'), `${tree['entities/Pedido.md']}\nOtra línea.\n`);
    const second = await buildIndex(dirs);
    const reference = await packInput(join(root, 'ref'), { 'entities/Pedido.md': `${tree['entities/Pedido.md']}\nOtra línea.\n` });
    expect(second.bundle.hash).not.toBe(first.bundle.hash);
    expect(second.bundle.hash).toBe(packBundle(reference).hash);
  });

  it('a few entries are read one by one, more from the whole file: every entry gives back what was computed', async () => {
    const root = await fresh();
    const doc = (n: number) => `---\nid: Ent${n}\nkind: entity\n---\n# Ent${n}\n\n## Descripción\n\nEntidad ${n} del pedido número ${n * 7}.\n`;
    const tree: Tree = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`entities/Ent${i}.md`, doc(i)]));
    await writeTree(join(root, 'specs'), tree);
    await buildIndex({ specsDir: join(root, 'specs'), outDir: join(root, 'dist'), indexDir: join(root, '.kdd-index') });
    const memo = await readPackMemo(packMemoPath(join(root, '.kdd-index')));
    const computed = createPackMemo();
    packBundle(await packInput(join(root, 'ref'), tree), { memo: computed });
    expect(memo.entries.size).toBe(20);
    const words = (m: PackMemo, ids: Uint32Array) => Array.from(ids, (id, k) => (k % 2 === 0 ? m.vocab.terms[id] : id));
    for (const [key, pack] of computed.entries) expect([words(memo, memo.entries.get(key)!.terms), words(memo, memo.entries.get(key)!.chunkTerms)]).toEqual([words(computed, pack.terms), words(computed, pack.chunkTerms)]);
  });

  it('the header\'s terms and keys are checked: a changed byte empties the memo; entries listed under each other\'s keys (CRC made anew) do not decode', async () => {
    const root = await fresh();
    const doc = (id: string, text: string) => `---\nid: ${id}\nkind: entity\n---\n# ${id}\n\n## Descripción\n\n${text}\n`;
    const tree: Tree = { 'entities/Pedido.md': doc('Pedido', 'Un pedido del cliente.'), 'entities/Cliente.md': doc('Cliente', 'Quien pide.') };
    await writeTree(join(root, 'specs'), tree);
    const dirs = { specsDir: join(root, 'specs'), outDir: join(root, 'dist'), indexDir: join(root, '.kdd-index') };
    await buildIndex(dirs);
    const file = packMemoPath(dirs.indexDir);
    const bytes = await readFile(file);
    const length = bytes.readUInt32LE(0);
    const packr = new Packr({ useRecords: false, variableMapSize: true });
    const header = packr.unpack(bytes.subarray(4, 4 + length)) as { terms: Uint8Array; keys: Uint8Array; crcs: Uint8Array; crc: number };
    const entries = bytes.subarray((4 + length + 3) & ~3);
    const withHeader = (changed: object) => {
      const head = packr.pack({ ...header, ...changed });
      const padded = Buffer.alloc((4 + head.length + 3) & ~3);
      padded.writeUInt32LE(head.length, 0);
      head.copy(padded, 4);
      return Buffer.concat([padded, entries]);
    };
    const terms = Uint8Array.from(header.terms);
    terms[0] = terms[0]! ^ 0x01;
    await writeFile(file, withHeader({ terms }));
    expect((await readPackMemo(file)).entries.size).toBe(0);
    const keys = new TextDecoder().decode(header.keys).split('\n');
    expect(keys).toHaveLength(2);
    const swapped = Buffer.from([...keys].reverse().join('\n'));
    await writeFile(file, withHeader({ keys: new Uint8Array(swapped), crc: checksum([header.terms, swapped, header.crcs]) }));
    const memo = await readPackMemo(file);
    expect(memo.entries.size).toBe(2);
    expect(() => memo.entries.get(keys[0]!)!.terms).toThrow(PackMemoCorrupt);
    const edited = { ...tree, 'entities/Cliente.md': doc('Cliente', 'Quien pide dos.') };
    await writeTree(join(root, 'specs'), edited, tree);
    expect((await buildIndex(dirs)).bundle.hash).toBe(packBundle(await packInput(join(root, 'ref'), edited)).hash);
  });

  it('entries are decoded when read; one whose header does not fit it makes the build pack without the memo, same bytes', async () => {
    const root = await fresh();
    const doc = (id: string, text: string) => `---\nid: ${id}\nkind: entity\n---\n# ${id}\n\n## Descripción\n\n${text}\n\n## Atributos\n\n| a | b |\n|---|---|\n| x | y |\n`;
    const tree: Tree = { 'entities/Pedido.md': doc('Pedido', 'Un pedido del cliente.'), 'entities/Cliente.md': doc('Cliente', 'Quien pide un [[Pedido]].') };
    await writeTree(join(root, 'specs'), tree);
    const dirs = { specsDir: join(root, 'specs'), outDir: join(root, 'dist'), indexDir: join(root, '.kdd-index') };
    await buildIndex(dirs);
    const file = packMemoPath(dirs.indexDir);
    const memo = await readPackMemo(file);
    const computed = createPackMemo();
    packBundle(await packInput(join(root, 'ref0'), tree), { memo: computed });
    // Read back lazily, an entry gives what was computed (term ids through each memo's vocabulary).
    for (const [key, pack] of computed.entries) {
      const stored = memo.entries.get(key)!;
      const words = (m: PackMemo, ids: Uint32Array) => Array.from(ids, (id, k) => (k % 2 === 0 ? m.vocab.terms[id] : id));
      const fields = (m: PackMemo, p: NodePack) => ({ lens: p.lens, terms: words(m, p.terms), keys: p.keys, chunkIds: p.chunkIds, chunkRows: p.chunkRows, chunkTerms: words(m, p.chunkTerms), chunkEnds: p.chunkEnds });
      expect(fields(memo, stored)).toEqual(fields(computed, pack));
      expect(chunkCount(stored)).toBe(pack.chunkIds.length);
    }
    // The header's lengths are outside the CRC: give one entry another chunk count.
    const bytes = await readFile(file);
    const length = bytes.readUInt32LE(0);
    const packr = new Packr({ useRecords: false, variableMapSize: true });
    const header = packr.unpack(bytes.subarray(4, 4 + length)) as { lengths: number[] };
    header.lengths[2] = header.lengths[2]! + 1;
    const head = packr.pack(header);
    const padded = Buffer.alloc((4 + head.length + 3) & ~3);
    padded.writeUInt32LE(head.length, 0);
    head.copy(padded, 4);
    await writeFile(file, Buffer.concat([padded, bytes.subarray((4 + length + 3) & ~3)]));
    const edited = { ...tree, 'entities/Cliente.md': doc('Cliente', 'Quien pide un [[Pedido]] o dos.') };
    await writeTree(join(root, 'specs'), edited, tree);
    const report = await buildIndex(dirs);
    expect(report.bundle.hash).toBe(packBundle(await packInput(join(root, 'ref'), edited)).hash);
    // The memo written after it is sound again.
    const after = await readPackMemo(file);
    for (const pack of after.entries.values()) expect(pack.chunkIds.length).toBeGreaterThan(0);
  });
});
