/**
 * `kdd build --full` over an existing index keeps of the previous build only a summary per node
 * (compiler/incremental/earlier.ts). Its output must still be the fresh build's, byte for byte, and
 * what it reports about the previous index (tombstones, Stale and Deleted events) what an
 * incremental build of the same change reports, with the record cache read and without it.
 */
import { cp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildIndex, type IndexBuildReport } from '../../compiler/pipeline.js';
import type { DomainEvent } from '../../compiler/events.js';
import { makeTinyModel } from '../helpers/tiny-model/make-tiny-model.js';
import { tempTree, removedAfter } from '../helpers/temp-tree.js';

const roots = removedAfter('each');

const entity = (name: string, link: string, extra = '') => `---\nkind: entity\n---\n# ${name}\n\n## Descripción\n\nUn ${name} de un [[${link}]].${extra}\n`;
const specs = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`specs/01-domain/entities/E${i}.md`, entity(`E${i}`, `E${(i + 1) % 5}`)]));
const DELETED = 'specs/01-domain/entities/E4.md';
const CHANGED = 'specs/01-domain/entities/E1.md';
const UNCHANGED_NODE = 'nodes/entity/E2.json';

/** Every file under `dir` except the local `.cache/`, with its bytes. */
async function files(dir: string): Promise<Record<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const paths = entries.filter((entry) => entry.isFile()).map((entry) => relative(dir, join(entry.parentPath, entry.name)));
  const kept = paths.filter((path) => !path.startsWith('.cache')).sort();
  return Object.fromEntries(await Promise.all(kept.map(async (path) => [path, (await readFile(join(dir, path))).toString('base64')] as const)));
}

/** The events with their wall-clock fields and durations left out. */
const facts = (report: IndexBuildReport): unknown[] =>
  report.events
    .filter((event: DomainEvent) => event.event === 'EVT-KDDDocument-Stale' || event.event === 'EVT-KDDDocument-Deleted')
    .map(({ event, payload }) => ({ event, ...payload, detected_at: undefined, deleted_at: undefined }));

describe('a --full rebuild over an existing index', () => {
  for (const recordCache of [undefined, false] as const) {
    it(`gives the fresh build's bundle and files, and the incremental build's tombstones and events (record cache ${recordCache === false ? 'off' : 'on'})`, async () => {
      const root = await tempTree(specs);
      roots.push(root);
      const dirs = (name: string) => ({ specsDir: join(root, 'specs'), outDir: join(root, name, 'dist'), indexDir: join(root, name, 'idx'), recordCache });
      await buildIndex(dirs('full'));
      const { sources } = JSON.parse(await readFile(join(root, 'full/idx/manifest.json'), 'utf8')) as { sources: Record<string, string> };
      await cp(join(root, 'full'), join(root, 'incremental'), { recursive: true });
      // An old time on a node file the rebuild must leave as it is: rewriting it would move it.
      const untouched = join(root, 'full/idx', UNCHANGED_NODE);
      const old = new Date('2001-01-01T00:00:00Z');
      await utimes(untouched, old, old);

      await rm(join(root, DELETED));
      await writeFile(join(root, CHANGED), entity('E1', 'E2', '\n\nAhora con otra frase.'));
      const full = await buildIndex({ ...dirs('full'), mode: 'full' });
      const incremental = await buildIndex(dirs('incremental'));
      const fresh = await buildIndex(dirs('fresh'));

      expect(full.mode).toBe('full');
      expect(incremental.mode).toBe('incremental');
      // Bundle and `.kdd-index/` as a fresh build leaves them, but for the tombstone of the deleted spec.
      const rebuilt = await files(join(root, 'full/idx'));
      expect(Object.keys(rebuilt)).toContain('tombstones.jsonl');
      const { 'tombstones.jsonl': tombstones, ...rest } = rebuilt;
      expect(rest).toEqual(await files(join(root, 'fresh/idx')));
      // The same bundle bytes (the previous bundle stays beside it until the pointer's next move), and
      // the same pointer but for the committed index's size, which now counts the tombstone file.
      expect(full.bundle.bundle).toBe(fresh.bundle.bundle);
      expect(await readFile(join(root, 'full/dist', full.bundle.bundle))).toEqual(await readFile(join(root, 'fresh/dist', fresh.bundle.bundle)));
      const pointer = async (name: string) => JSON.parse(await readFile(join(root, name, 'dist/kdd.json'), 'utf8')) as { sizes: { index_bytes: number; index_ratio: number } };
      const [rebuiltPointer, freshPointer] = [await pointer('full'), await pointer('fresh')];
      expect(rebuiltPointer.sizes.index_bytes).toBe(freshPointer.sizes.index_bytes + Buffer.from(tombstones!, 'base64').length);
      expect({ ...rebuiltPointer, sizes: { ...rebuiltPointer.sizes, index_bytes: 0, index_ratio: 0 } }).toEqual({ ...freshPointer, sizes: { ...freshPointer.sizes, index_bytes: 0, index_ratio: 0 } });
      // What the rebuild reads of the previous index: the same as the incremental build, which keeps its records.
      expect(tombstones).toBe((await files(join(root, 'incremental/idx')))['tombstones.jsonl']);
      expect(full.changes).toEqual({ ...incremental.changes, reindexed: full.changes.reindexed });
      expect(full.changes).toMatchObject({ modified: ['01-domain/entities/E1.md'], deleted: ['01-domain/entities/E4.md'], tombstoned: ['Entity:E4'] });
      expect(facts(full)).toEqual(facts(incremental));
      expect(facts(full)).toMatchObject([
        { event: 'EVT-KDDDocument-Stale', document_id: 'E1', source_path: '01-domain/entities/E1.md', previous_hash: sources['01-domain/entities/E1.md'] },
        { event: 'EVT-KDDDocument-Deleted', document_id: 'E4', source_path: '01-domain/entities/E4.md', node_id: 'Entity:E4', edge_count: 2, embedding_count: 0 },
      ]);
      expect(JSON.parse(Buffer.from(tombstones!, 'base64').toString('utf8'))).toEqual({ node_id: 'Entity:E4', source_file: '01-domain/entities/E4.md', source_hash: sources['01-domain/entities/E4.md'], deleted_at: null });
      expect(full.tombstones).toBe(1);
      // The unchanged node file was compared, not written.
      expect((await stat(untouched)).mtime).toEqual(old);
    });
  }

  it('over an L2 index: a Deleted event counts the vectors the node had, as an incremental build does', async () => {
    const root = await tempTree(specs);
    roots.push(root);
    const embedder = await makeTinyModel(join(root, 'models'), { quantizedCopy: true });
    const dirs = (name: string) => ({ specsDir: join(root, 'specs'), outDir: join(root, name, 'dist'), indexDir: join(root, name, 'idx'), embedder, level: 'L2' as const });
    expect((await buildIndex(dirs('full'))).index_level).toBe('L2');
    await cp(join(root, 'full'), join(root, 'incremental'), { recursive: true });
    await rm(join(root, DELETED));
    const full = await buildIndex({ ...dirs('full'), mode: 'full' });
    const incremental = await buildIndex(dirs('incremental'));
    expect(facts(full)).toEqual(facts(incremental));
    expect(facts(full)).toMatchObject([{ event: 'EVT-KDDDocument-Deleted', node_id: 'Entity:E4', embedding_count: 1 }]);
  });
});
