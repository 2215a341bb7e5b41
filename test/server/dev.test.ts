import { appendFile, cp, mkdtemp, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDev, type DevSession } from '../../server/dev.js';
import { DEV_MARKER } from '../../formats/dev-status.js';
import { KDD_ENGINE_SPECS, removeTree } from '../helpers/temp-tree.js';

let root: string;
let session: DevSession;
const log: string[] = [];
const FILE = '01-domain/entities/KDDDocument.md';

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'kdd-dev-'));
  await cp(KDD_ENGINE_SPECS, join(root, 'specs'), { recursive: true });
  session = await startDev({ specsDir: join(root, 'specs'), outDir: join(root, 'dist'), indexDir: join(root, '.kdd-index'), port: 0, debounceMs: 20, log: (line) => void log.push(line) });
}, 60_000);

afterAll(async () => {
  await session?.close();
  await removeTree(root);
});

async function search(text: string): Promise<{ ids: string[]; bundle: string | null }> {
  const response = await fetch(`${session.url}/v1/retrieve/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query_text: text }) });
  const body = (await response.json()) as { results: { node_id: string }[] };
  return { ids: body.results.map((result) => result.node_id), bundle: response.headers.get('x-kdd-bundle') };
}

async function until<T>(probe: () => Promise<T | null>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out; kdd dev said:\n${log.join('\n')}`);
    await new Promise((done) => setTimeout(done, 20));
  }
}

const statusFile = async () => JSON.parse(await readFile(join(root, 'dist/kdd-dev.json'), 'utf8')) as { generation: number; state: string; bundle: string; warnings: { code: string; file: string }[] };

describe('kdd dev (server/dev.ts) on the kdd-engine specs', () => {
  it('serves the site marked for live reload, the status file and the API', async () => {
    expect(await readFile(join(root, 'dist/index.html'), 'utf8')).toContain(DEV_MARKER);
    const status = await (await fetch(`${session.url}/kdd-dev.json`)).json();
    expect(status).toMatchObject({ state: 'ok', generation: 1 });
    expect((await search('documento indexado')).ids.length).toBeGreaterThan(0);
  });

  it('an edit saved on disk becomes searchable over HTTP', async () => {
    await appendFile(join(root, 'specs', FILE), '\nEl quetzal verde marca este documento.\n');
    const found = await until(async () => ((await search('quetzal verde')).ids.includes('Entity:KDDDocument') ? true : null));
    expect(found).toBe(true);
    expect(await until(async () => ((await statusFile()).state === 'ok' ? true : null))).toBe(true);
  });

  it('an MCP server following the same folder answers with the edit too', async () => {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js');
    const { createMcpServer } = await import('../../server/mcp.js');
    const mcp = await createMcpServer({ dir: join(root, 'dist'), log: () => undefined, holder: { debounceMs: 20 } });
    const client = new Client({ name: 'dev-test', version: '0.0.0' });
    try {
      await mcp.holder.ready;
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await mcp.server.connect(serverSide);
      await client.connect(clientSide);
      await appendFile(join(root, 'specs', FILE), '\nEl axolote también lo consulta.\n');
      const found = await until(async () => {
        const result = (await client.callTool({ name: 'kdd_search', arguments: { query_text: 'axolote' } })) as { content: { text?: string }[] };
        return result.content[0]?.text?.includes('Entity:KDDDocument') ? true : null;
      });
      expect(found).toBe(true);
    } finally {
      await client.close();
      await mcp.close();
    }
  });

  it('a burst of edits ends with the last one live (one build at a time, none lost)', async () => {
    // Words that share no stem, so only the last edit's build can return the last one.
    const words = ['zorblat', 'quimbex', 'trandolo', 'vespuri', 'glonkit'];
    for (const word of words) {
      await appendFile(join(root, 'specs', FILE), `\nRáfaga con la palabra ${word}.\n`);
      await new Promise((done) => setTimeout(done, 15));
    }
    expect(await until(async () => ((await search('glonkit')).ids.includes('Entity:KDDDocument') ? true : null))).toBe(true);
    for (const word of words) expect((await search(word)).ids).toContain('Entity:KDDDocument');
    expect(await until(async () => ((await statusFile()).state === 'ok' ? true : null))).toBe(true);
  });

  it('a broken edit is reported and not published; fixing it publishes again', async () => {
    const before = await search('quetzal verde');
    const text = await readFile(join(root, 'specs', FILE), 'utf8');
    // Saved by rename, as many editors do: the watcher must keep following the file.
    await writeFile(join(root, 'specs', `${FILE}.tmp`), text.replace(/^---\n/, '---\nid: [unclosed\n'));
    await rename(join(root, 'specs', `${FILE}.tmp`), join(root, 'specs', FILE));
    const broken = await until(async () => {
      const status = await statusFile();
      return status.state === 'broken' ? status : null;
    });
    expect(broken.warnings).toContainEqual(expect.objectContaining({ code: 'INVALID_FRONT_MATTER', file: FILE }));
    expect(log.some((line) => line.includes('INVALID_FRONT_MATTER'))).toBe(true);
    expect(await search('quetzal verde')).toEqual(before);

    await writeFile(join(root, 'specs', FILE), `${text}\nArreglado con un ornitorrinco.\n`);
    expect(await until(async () => ((await search('ornitorrinco')).ids.includes('Entity:KDDDocument') ? true : null))).toBe(true);
    // The API swaps first; the status the site follows is written once the site's files are too.
    expect(await until(async () => ((await statusFile()).state === 'ok' ? true : null))).toBe(true);
  });

  it('close() stops the server', async () => {
    const url = session.url;
    await session.close();
    await expect(fetch(`${url}/kdd-dev.json`)).rejects.toThrow();
  });
});
