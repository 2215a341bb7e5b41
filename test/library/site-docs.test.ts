/** `kdd site --specs` (#18): one content-hashed document piece per node, found through its bucket. */
import { cp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../compiler/pipeline.js';
import { writeDocuments } from '../../library/site.js';
import { DOCS_POINTER_FILE, docBucket, type DocBucket, type DocPiece, type DocsPointer } from '../../formats/site-docs.js';
import { FIXTURES, removeTree, tempTree } from '../helpers/temp-tree.js';

describe('document pieces', () => {
  let work: string;
  let specs: string;
  let dist: string;

  beforeAll(async () => {
    work = await tempTree({});
    specs = join(work, 'specs');
    dist = join(work, 'dist');
    await cp(join(FIXTURES, 'kinds'), specs, { recursive: true });
    await build({ specsDir: specs, outDir: dist, indexDir: join(work, 'idx') });
  });
  afterAll(() => removeTree(work));

  const json = async <T>(name: string): Promise<T> => JSON.parse(await readFile(join(dist, name), 'utf8')) as T;
  const piece = async (pointer: DocsPointer, id: string): Promise<DocPiece | undefined> => {
    const bucket = await json<DocBucket>(pointer.buckets[docBucket(id, pointer.buckets.length)]!);
    return bucket[id] === undefined ? undefined : json<DocPiece>(bucket[id]);
  };

  it('renders every node, and the same tree gives the same files', async () => {
    const pointer = await writeDocuments(dist, specs);
    expect(pointer).toMatchObject({ documents: 28, missing: 0, stale: 0 });
    const files = (await readdir(dist)).filter((f) => f.startsWith('kdd-doc')).sort();
    expect(await writeDocuments(dist, specs)).toEqual(pointer);
    expect((await readdir(dist)).filter((f) => f.startsWith('kdd-doc')).sort()).toEqual(files);
    const uc = await piece(pointer, 'UC:UC-001');
    expect(uc).toMatchObject({ id: 'UC:UC-001', format: 'markdown', source_file: '02-behavior/use-cases/UC-001-CrearPedido.md' });
    expect(uc!.html).toContain('<ol>');
    expect(uc!.html).toContain('href="#/node/CMD%3ACMD-001"');
    expect((await piece(pointer, 'FEAT:crear-pedido'))?.format).toBe('gherkin');
  });

  it('skips a spec edited since the build and one that is gone, and says so', async () => {
    await writeFile(join(specs, '01-domain/entities/Pedido.md'), '---\nkind: entity\n---\n# Pedido\n\nEdited after the build.\n');
    await rm(join(specs, '01-domain/entities/Usuario.md'));
    const pointer = await writeDocuments(dist, specs);
    expect(pointer).toMatchObject({ documents: 26, missing: 1, stale: 1 });
    expect(await piece(pointer, 'Entity:Pedido')).toBeUndefined();
    expect(await piece(pointer, 'Entity:Usuario')).toBeUndefined();
    expect(await json<DocsPointer>(DOCS_POINTER_FILE)).toEqual(pointer);
  });
});
