import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodeBundle } from '../../formats/bundle/bundle.js';
import { buildFixtureDist, postJson, raw, startServer, type FixtureDist, type Running } from './_setup.js';

let dist: FixtureDist;
let srv: Running;

beforeEach(async () => {
  dist = await buildFixtureDist();
  srv = await startServer({ dir: dist.dist });
});
afterEach(async () => {
  await srv?.close();
  await dist?.remove();
});

const EXTRA_SPEC = `---
id: BR-PEDIDO-009
kind: business-rule
title: Pedido mínimo
status: draft
---

# BR-PEDIDO-009 — Pedido mínimo

## Declaración

Un [[Pedido]] debe sumar al menos 10 euros.
`;

async function addSpecAndRebuild() {
  await writeFile(join(dist.specs, '01-domain', 'rules', 'BR-PEDIDO-009.md'), EXTRA_SPEC);
  return dist.rebuild();
}

/** Writes `kdd.json` the way the compiler does: to a temp name, then renamed over the old one. */
async function pointTo(file: string) {
  const tmp = join(dist.dist, '.kdd.json.tmp');
  await writeFile(tmp, JSON.stringify({ format: 1, bundle: file }));
  await rename(tmp, join(dist.dist, 'kdd.json'));
}

async function until<T>(probe: () => Promise<T>, ok: (value: T) => boolean, ms = 5000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
}

const statsHash = async () => (await raw(srv.port, { path: '/v1/stats' })).json().hash as string;

describe('hot swap', () => {
  it('serves 300+ requests, 20 in flight, across a rebuild: no failure, each answer whole from one bundle', async () => {
    const oldHash = dist.hash;
    const oldNodes = dist.nodes;
    let next: { hash: string; nodes: number } | null = null;
    const nodesOf = (hash: string) => (hash === oldHash ? oldNodes : hash === next?.hash ? next.nodes : -1);

    const kinds = ['health', 'stats', 'context'] as const;
    const failures: string[] = [];
    const seen = new Set<string>();
    const counts = new Map<string, number>();
    const answers: { kind: (typeof kinds)[number]; hash: string; body: any }[] = [];
    let issued = 0;
    // At least 300 requests, and on until the new bundle has answered 60 of them (hard cap 3000).
    const newAnswers = () => (next ? counts.get(next.hash) ?? 0 : 0);
    const worker = async () => {
      while ((issued < 300 || newAnswers() < 60) && issued < 3000) {
        const kind = kinds[issued++ % kinds.length]!;
        const res =
          kind === 'context'
            ? await postJson(srv.port, '/v1/retrieve/context', { query_text: 'pedido mínimo', limit: 50, min_score: 0 })
            : await raw(srv.port, { path: kind === 'health' ? '/v1/retrieve/health' : '/v1/stats' });
        const hash = String(res.headers['x-kdd-bundle']);
        seen.add(hash);
        counts.set(hash, (counts.get(hash) ?? 0) + 1);
        if (res.status !== 200) {
          failures.push(`${kind}: ${res.status} ${res.text}`);
          continue;
        }
        // Checked once the rebuild has returned: the new bundle may answer before its hash is known here.
        answers.push({ kind, hash, body: res.json() });
      }
    };
    const load = Promise.all(Array.from({ length: 20 }, worker));
    await new Promise((r) => setTimeout(r, 30));
    next = await addSpecAndRebuild();
    await load;
    for (const { kind, hash, body } of answers) {
      // Consistency within one answer: the count in the body belongs to the bundle in the header.
      if (kind === 'health' && body.total_nodes !== nodesOf(hash)) failures.push(`health from ${hash} has ${body.total_nodes} nodes`);
      if (kind === 'stats' && (body.hash !== hash || body.counts.nodes !== nodesOf(hash))) failures.push(`stats body ${body.hash} vs header ${hash}`);
      if (kind === 'context') {
        const hasNew = body.results.some((r: { node_id: string }) => r.node_id === 'BR:BR-PEDIDO-009');
        if (hasNew !== (hash !== oldHash)) failures.push(`context from ${hash} ${hasNew ? 'has' : 'lacks'} the new rule`);
      }
    }

    expect(next.hash).not.toBe(oldHash);
    expect(next.nodes).toBe(oldNodes + 1);
    expect(failures).toEqual([]);
    expect([...seen].every((h) => h === oldHash || h === next!.hash)).toBe(true);
    expect(counts.get(oldHash)).toBeGreaterThan(0);
    expect(counts.get(next.hash)).toBeGreaterThanOrEqual(60);
    expect(await until(statsHash, (h) => h === next!.hash)).toBe(next.hash);
    expect(srv.logs.some((l) => l.includes(`swapped bundle ${oldHash} -> ${next!.hash}`))).toBe(true);
  });

  it('finishes a request on the bundle it started with when a swap happens mid-request', async () => {
    const oldHash = dist.hash;
    const response = new Promise<{ hash: string; body: string }>((resolve, reject) => {
      const body = JSON.stringify({ query_text: 'pedido mínimo', min_score: 0, limit: 50 });
      const req = request(
        { host: '127.0.0.1', port: srv.port, method: 'POST', path: '/v1/retrieve/context', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve({ hash: String(res.headers['x-kdd-bundle']), body: text }));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 5));
      // The rest of the body only after the new bundle is live.
      void (async () => {
        const next = await addSpecAndRebuild();
        expect(await srv.server.swap()).toMatchObject({ status: expect.stringMatching(/loaded|unchanged/) });
        expect(await statsHash()).toBe(next.hash);
        req.end(body.slice(5));
      })().catch(reject);
    });
    const { hash, body } = await response;
    expect(hash).toBe(oldHash);
    expect(body).not.toContain('BR:BR-PEDIDO-009');
  });

  it('rejects a corrupt or foreign new bundle with one log line and keeps serving the old one', async () => {
    const oldHash = dist.hash;
    const bytes = await readFile(join(dist.dist, `kdd-${oldHash}.msgpack`));

    // 1. Corrupt bytes under a plausible name: the content hash does not match the name.
    const corrupt = Buffer.from(bytes);
    corrupt[corrupt.length >> 1] = corrupt[corrupt.length >> 1]! ^ 0xff;
    await writeFile(join(dist.dist, 'kdd-0123456789ab.msgpack'), corrupt);
    await pointTo('kdd-0123456789ab.msgpack');
    await until(async () => srv.logs.length, () => srv.logs.some((l) => l.includes('rejected')));
    expect(srv.logs.filter((l) => l.includes('rejected'))).toHaveLength(1);
    expect(srv.logs.at(-1)).toContain(`still serving ${oldHash}`);

    // 2. A well-named bundle of an unknown format version.
    const foreign = encodeBundle({ format: 99 } as never);
    const tag = createHash('sha256').update(foreign).digest('hex').slice(0, 12);
    await writeFile(join(dist.dist, `kdd-${tag}.msgpack`), foreign);
    await pointTo(`kdd-${tag}.msgpack`);
    await until(async () => srv.logs.length, () => srv.logs.some((l) => l.includes('unsupported bundle format')));

    // 3. A pointer that is not JSON.
    await writeFile(join(dist.dist, 'kdd.json'), '{"bundle": ');
    await until(async () => srv.logs.length, () => srv.logs.some((l) => l.includes('not valid JSON')));

    for (const line of srv.logs.filter((l) => l.includes('rejected'))) expect(line).not.toContain('\n');
    expect(await statsHash()).toBe(oldHash);
    const res = await postJson(srv.port, '/v1/retrieve/context', { query_text: 'crear pedido' });
    expect(res.status).toBe(200);
    expect(res.headers['x-kdd-bundle']).toBe(oldHash);

    // A good build afterwards is picked up again.
    const next = await addSpecAndRebuild();
    expect(await until(statsHash, (h) => h === next.hash)).toBe(next.hash);
  });

  it('loads the first bundle when it appears after start (503 until then)', async () => {
    const { mkdtemp, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const later = await mkdtemp(join(tmpdir(), 'kdd-later-'));
    const waiting = await startServer({ dir: later });
    try {
      expect((await raw(waiting.port, { path: '/v1/stats' })).status).toBe(503);
      const { cp } = await import('node:fs/promises');
      await cp(join(dist.dist, `kdd-${dist.hash}.msgpack`), join(later, `kdd-${dist.hash}.msgpack`));
      await cp(join(dist.dist, 'kdd.json'), join(later, 'kdd.json'));
      const res = await until(() => raw(waiting.port, { path: '/v1/stats' }), (r) => r.status === 200);
      expect(res.json().hash).toBe(dist.hash);
    } finally {
      await waiting.close();
      await rm(later, { recursive: true, force: true });
    }
  });

  it('swaps to the bundle a merge writes into DIR; the merge memo under DIR/.cache/ is never served and swaps nothing', async () => {
    const { cp: copy } = await import('node:fs/promises');
    const { mergeAndWrite } = await import('../../compiler/team/merge-write.js');
    const oldHash = dist.hash;
    // A second developer's index: the fixture plus one rule, built outside the served folder.
    const other = join(dist.root, 'other');
    await copy(dist.specs, join(other, 'specs'), { recursive: true });
    await writeFile(join(other, 'specs', '01-domain', 'rules', 'BR-PEDIDO-009.md'), EXTRA_SPEC);
    const { build } = await import('../../compiler/pipeline.js');
    await build({ specsDir: join(other, 'specs'), outDir: join(other, 'dist'), indexDir: join(other, '.kdd-index') });
    const merged = await mergeAndWrite({ paths: [join(dist.root, '.kdd-index'), join(other, '.kdd-index')], outDir: dist.dist });
    expect(merged.cache.dir).toBe(join(dist.dist, '.cache'));
    expect(await until(statsHash, (h) => h === merged.bundle.hash)).toBe(merged.bundle.hash);
    expect(srv.logs.filter((l) => l.includes('swapped bundle'))).toEqual([expect.stringContaining(`${oldHash} -> ${merged.bundle.hash}`)]);
    expect((await raw(srv.port, { path: '/.cache/merge-pack' })).status).toBe(404);
    // The memo rewritten alone (same bundle): no swap, no log line.
    await writeFile(join(dist.dist, '.cache', 'merge-pack'), 'rewritten');
    await new Promise((r) => setTimeout(r, 300));
    expect(srv.logs.filter((l) => l.includes('swapped bundle') || l.includes('rejected'))).toHaveLength(1);
    expect(await statsHash()).toBe(merged.bundle.hash);
  });
});
