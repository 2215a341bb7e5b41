/**
 * The record cache's entries file is appended to by builds that changed few records
 * (compiler/cache/entry-file.ts): whatever sequence of edits, additions and deletions it went
 * through, and whatever an interrupted append or a damaged file left, a build must still give the
 * bytes of a full build, and a cache it cannot vouch for must be ignored.
 */
import { appendFile, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { Packr } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { entriesPath, readRecordCache } from '../../compiler/cache/record-cache.js';
import { readIndexDir } from '../../compiler/emit/read-index-dir.js';
import { build, buildIndex } from '../../compiler/pipeline.js';
import { nodeFileText } from '../../formats/index-dir/node-file.js';
import { tempTree, removedAfter } from '../helpers/temp-tree.js';

const roots = removedAfter('all');

const NAMES = ['Pedido', 'Cliente', 'Factura', 'Producto', 'Almacen', 'Envio', 'Pago', 'Tienda'];
const entity = (name: string, text: string) => `---\nid: ${name}\nkind: entity\n---\n# ${name}\n\n## Descripción\n\nUn ${name.toLowerCase()} ${text}.\n`;
const specPath = (name: string) => `01-domain/entities/${name}.md`;

async function setup() {
  const root = await tempTree(Object.fromEntries(NAMES.map((name, i) => [`specs/${specPath(name)}`, entity(name, `con [[${NAMES[(i + 1) % NAMES.length]}]]`)])));
  roots.push(root);
  const dirs = { specsDir: join(root, 'specs'), outDir: join(root, 'dist'), indexDir: join(root, '.kdd-index'), recordCache: join(root, 'cache', 'records') };
  return { root, dirs };
}

type Dirs = Awaited<ReturnType<typeof setup>>['dirs'];

let fullBuilds = 0;
/** The bundle hash a full build of the same specs gives, in new folders. */
async function fullHash(root: string, dirs: Dirs): Promise<string> {
  const n = fullBuilds++;
  const report = await build({ specsDir: dirs.specsDir, outDir: join(root, `full-${n}`, 'dist'), indexDir: join(root, `full-${n}`, 'idx') });
  return report.bundle.hash;
}

async function headerOf(file: string): Promise<{ entries: { tag: Uint8Array; length: number } }> {
  const bytes = await readFile(file);
  return new Packr({ useRecords: false, variableMapSize: true }).unpack(bytes.subarray(4, 4 + bytes.readUInt32LE(0))) as { entries: { tag: Uint8Array; length: number } };
}

async function cachedTexts(dirs: Dirs): Promise<string[] | null> {
  const cache = await readRecordCache(dirs.recordCache, await readFile(join(dirs.indexDir, 'manifest.json'), 'utf8'));
  return cache && cache.records.map(nodeFileText);
}

async function nodeFileTexts(dirs: Dirs): Promise<string[]> {
  return (await readIndexDir(dirs.indexDir)).records.map(nodeFileText);
}

describe('record cache entries appended', () => {
  it('a one-edit build appends the changed record and keeps the file; what it reads back equals the node files and a full build', async () => {
    const { root, dirs } = await setup();
    await buildIndex(dirs);
    const before = await headerOf(dirs.recordCache);
    const size = (await readFile(entriesPath(dirs.recordCache))).length;
    await appendFile(join(dirs.specsDir, specPath('Factura')), '\nUna línea más.\n');
    const report = await buildIndex(dirs);
    expect(report.changes.reindexed).toEqual([specPath('Factura')]);
    const after = await headerOf(dirs.recordCache);
    // Same file (same tag), longer by the one entry appended.
    expect(Buffer.from(after.entries.tag).equals(Buffer.from(before.entries.tag))).toBe(true);
    const entries = await readFile(entriesPath(dirs.recordCache));
    expect(entries.length).toBe(after.entries.length);
    expect(entries.length).toBeGreaterThan(size);
    expect(entries.length - size).toBeLessThan(size / 4);
    expect(await cachedTexts(dirs)).toEqual(await nodeFileTexts(dirs));
    expect(report.bundle.hash).toBe(await fullHash(root, dirs));
  });

  it('bytes an interrupted append left past the valid length are never read, and the next append cuts them', async () => {
    const { root, dirs } = await setup();
    await buildIndex(dirs);
    const valid = (await headerOf(dirs.recordCache)).entries.length;
    // Longer than any entry the next build appends, so only a cut removes all of it.
    const garbage = Buffer.alloc(100_000, 'half an entry of garbage ');
    await appendFile(entriesPath(dirs.recordCache), garbage);
    expect(await cachedTexts(dirs)).toEqual(await nodeFileTexts(dirs));
    await appendFile(join(dirs.specsDir, specPath('Pago')), '\nOtra línea.\n');
    const report = await buildIndex(dirs);
    const entries = await readFile(entriesPath(dirs.recordCache));
    expect(entries.length).toBe((await headerOf(dirs.recordCache)).entries.length);
    expect(entries.length).toBeLessThan(valid + garbage.length);
    expect(await cachedTexts(dirs)).toEqual(await nodeFileTexts(dirs));
    expect(report.bundle.hash).toBe(await fullHash(root, dirs));
  });

  it('a truncated, deleted or re-tagged entries file makes the cache be ignored, and the build still equals a full one', async () => {
    const { root, dirs } = await setup();
    await buildIndex(dirs);
    const file = entriesPath(dirs.recordCache);
    const original = await readFile(file);
    const damages: Array<[string, () => Promise<void>]> = [
      ['truncated', () => writeFile(file, original.subarray(0, original.length - 10))],
      ['deleted', () => rm(file)],
      // Another file written anew under the same name: same bytes, another tag.
      ['re-tagged', () => writeFile(file, Buffer.concat([original.subarray(0, 8), Buffer.alloc(8, 7), original.subarray(16)]))],
    ];
    for (const [name, damage] of damages) {
      await damage();
      expect(await cachedTexts(dirs), name).toBeNull();
      await appendFile(join(dirs.specsDir, specPath('Envio')), `\nTras ${name}.\n`);
      const report = await buildIndex(dirs);
      expect(report.bundle.hash, name).toBe(await fullHash(root, dirs));
      // The build that could not use the cache wrote a sound one.
      expect(await cachedTexts(dirs), name).toEqual(await nodeFileTexts(dirs));
    }
  });

  it('a file whose unused entries pass a quarter of those in use is written anew, without them', async () => {
    const { dirs } = await setup();
    await buildIndex(dirs);
    const first = await headerOf(dirs.recordCache);
    const tags = new Set<string>([Buffer.from(first.entries.tag).toString('hex')]);
    let grown = 0;
    for (let i = 0; i < 6; i++) {
      await appendFile(join(dirs.specsDir, specPath(NAMES[i % 2]!)), `\nCambio ${i}.\n`);
      await buildIndex(dirs);
      const header = await headerOf(dirs.recordCache);
      tags.add(Buffer.from(header.entries.tag).toString('hex'));
      grown = Math.max(grown, header.entries.length);
    }
    // Some builds appended (the file grew under one tag), some wrote it anew (new tags).
    expect(tags.size).toBeGreaterThan(1);
    expect(tags.size).toBeLessThan(7);
    const entries = await readFile(entriesPath(dirs.recordCache));
    expect(entries.length).toBeLessThanOrEqual(grown);
    expect(await cachedTexts(dirs)).toEqual(await nodeFileTexts(dirs));
  });

  it('any sequence of edits, additions and deletions through the appended cache equals a full build after every step (fixed seed)', async () => {
    const step = fc.oneof(
      fc.record({ kind: fc.constant('edit' as const), doc: fc.nat({ max: NAMES.length - 1 }), text: fc.stringMatching(/^[a-z ]{1,30}$/) }),
      fc.record({ kind: fc.constant('link' as const), doc: fc.nat({ max: NAMES.length - 1 }), to: fc.nat({ max: NAMES.length - 1 }) }),
      fc.record({ kind: fc.constant('delete' as const), doc: fc.nat({ max: NAMES.length - 1 }) }),
      fc.record({ kind: fc.constant('add' as const), doc: fc.nat({ max: NAMES.length - 1 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 4 }), async (steps) => {
        const { root, dirs } = await setup();
        await buildIndex(dirs);
        const present = new Set(NAMES);
        for (const s of steps) {
          const name = NAMES[s.doc]!;
          const file = join(dirs.specsDir, specPath(name));
          if (s.kind === 'delete') {
            // Never the last document: a build that deletes every document is refused (mass-delete guard).
            if (present.size <= 2 || !present.has(name)) continue;
            await rm(file);
            present.delete(name);
          } else if (s.kind === 'add' || !present.has(name)) {
            await writeFile(file, entity(name, 'vuelve'));
            present.add(name);
          } else {
            await appendFile(file, s.kind === 'edit' ? `\n${s.text}.\n` : `\nVer [[${NAMES[s.to]!}]].\n`);
          }
          const report = await buildIndex(dirs);
          expect(report.bundle.hash).toBe(await fullHash(root, dirs));
          expect(await cachedTexts(dirs)).toEqual(await nodeFileTexts(dirs));
        }
      }),
      { seed: 23, numRuns: 6 },
    );
  }, 60_000);
});
