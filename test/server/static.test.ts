import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeBundle } from '../../formats/bundle/bundle.js';
import type { IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { writeCompressedCopies } from '../../compiler/pack/precompress.js';
import { safeStaticPath } from '../../server/http.js';
import { buildFixtureDist, raw, startServer, type FixtureDist, type Running } from './_setup.js';

let dist: FixtureDist;
let srv: Running;

beforeAll(async () => {
  dist = await buildFixtureDist();
  // Things next to dist/ that must never be served, and a page inside it that may be.
  await writeFile(join(dist.root, 'secret.txt'), 'outside the served folder');
  await writeFile(join(dist.dist, '.env'), 'TOKEN=dotfile');
  // `kdd merge` keeps its pack memo in DIR/.cache/ by default: private to the server.
  await mkdir(join(dist.dist, '.cache'), { recursive: true });
  await writeFile(join(dist.dist, '.cache', 'merge-pack'), 'memo');
  await writeFile(join(dist.dist, 'index.html'), '<!doctype html><title>kdd</title>');
  await mkdir(join(dist.dist, 'pages'), { recursive: true });
  await writeFile(join(dist.dist, 'pages', 'about.html'), '<p>about</p>');
  srv = await startServer({ dir: dist.dist });
});
afterAll(async () => {
  await srv?.close();
  await dist?.remove();
});

describe('compressed copies (kdd site writes X.br and X.gz)', () => {
  const page = '<p>' + 'a spec rendered as a page, repeated. '.repeat(400) + '</p>';
  const piece = 'kdd-s-0123456789ab.msgpack';

  beforeAll(async () => {
    await writeFile(join(dist.dist, 'pages', 'big.html'), page);
    await writeCompressedCopies(join(dist.dist, 'pages', 'big.html'), Buffer.from(page));
    await writeFile(join(dist.dist, piece), page);
  });

  /** GET with `accept-encoding`; the body decoded per `content-encoding`. */
  async function get(path: string, acceptEncoding: string): Promise<{ headers: IncomingHttpHeaders; body: string; sent: number }> {
    const { request } = await import('node:http');
    return new Promise((resolve, reject) => {
      request({ host: '127.0.0.1', port: srv.port, path, headers: { 'accept-encoding': acceptEncoding } }, (r) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => {
          const bytes = Buffer.concat(chunks);
          const encoding = r.headers['content-encoding'];
          const body = encoding === 'br' ? brotliDecompressSync(bytes) : encoding === 'gzip' ? gunzipSync(bytes) : bytes;
          resolve({ headers: r.headers, body: body.toString('utf8'), sent: bytes.byteLength });
        });
      })
        .on('error', reject)
        .end();
    });
  }

  it('sends brotli to a client that accepts it, gzip to one that accepts only gzip, the file as is otherwise', async () => {
    const br = await get('/pages/big.html', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['vary']).toBe('Accept-Encoding');
    expect(br.headers['content-type']).toContain('text/html');
    expect(br.body).toBe(page);
    expect(br.sent).toBeLessThan(page.length / 10);
    const gz = await get('/pages/big.html', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.body).toBe(page);
    const plain = await get('/pages/big.html', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(page);
  });

  it('marks the site pieces immutable, like the bundle', async () => {
    const res = await get(`/${piece}`, 'br');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-type']).toBe('application/vnd.msgpack');
  });
});

describe('static files of DIR', () => {
  it('serves the hashed bundle as immutable msgpack with its exact bytes', async () => {
    const res = await raw(srv.port, { path: `/kdd-${dist.hash}.msgpack` });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-type']).toBe('application/vnd.msgpack');
    const { request } = await import('node:http');
    const bytes = await new Promise<Buffer>((resolve, reject) => {
      request({ host: '127.0.0.1', port: srv.port, path: `/kdd-${dist.hash}.msgpack` }, (r) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => resolve(Buffer.concat(chunks)));
      })
        .on('error', reject)
        .end();
    });
    expect(decodeBundle(bytes).nodes.length).toBe(dist.nodes);
  });

  it('serves kdd.json and pages with no-cache and an ETag, and revalidates with 304', async () => {
    const pointer = await raw(srv.port, { path: '/kdd.json' });
    expect(pointer.status).toBe(200);
    expect(pointer.headers['cache-control']).toBe('no-cache');
    expect(pointer.json().bundle).toBe(`kdd-${dist.hash}.msgpack`);
    const etag = String(pointer.headers.etag);
    expect((await raw(srv.port, { path: '/kdd.json', headers: { 'if-none-match': etag } })).status).toBe(304);

    const page = await raw(srv.port, { path: '/pages/about.html' });
    expect(page.status).toBe(200);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers['content-type']).toContain('text/html');
    expect((await raw(srv.port, { path: '/' })).text).toContain('<title>kdd</title>');
  });

  it('answers HEAD like GET without a body', async () => {
    const res = await raw(srv.port, { method: 'HEAD', path: '/kdd.json' });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
  });

  it('refuses path traversal, encoded or not, and dotfiles, with a typed 404', async () => {
    const attempts = [
      '/../secret.txt',
      '/../../../../etc/passwd',
      '/%2e%2e/secret.txt',
      '/%2E%2E%2Fsecret.txt',
      '/..%2fsecret.txt',
      '/pages/../../secret.txt',
      '/pages/%2e%2e/%2e%2e/secret.txt',
      '/..\\secret.txt',
      '/%5c..%5csecret.txt',
      '/.env',
      '/%2eenv',
      '/.cache/merge-pack',
      '/%2ecache/merge-pack',
      '/.cache/',
      '/pages/%00/about.html',
      '/%',
    ];
    for (const path of attempts) {
      const res = await raw(srv.port, { path });
      expect(res.status, path).toBe(404);
      expect(res.json().error.code, path).toBe('NOT_FOUND');
      expect(res.text).not.toContain('outside the served folder');
      expect(res.text).not.toContain('TOKEN=');
    }
  });

  it('does not follow a symlink out of DIR', async () => {
    await symlink(join(dist.root, 'secret.txt'), join(dist.dist, 'link.txt'));
    await symlink(dist.root, join(dist.dist, 'up'));
    for (const path of ['/link.txt', '/up/secret.txt']) {
      const res = await raw(srv.port, { path });
      expect(res.status, path).toBe(404);
      expect(res.text).not.toContain('outside the served folder');
    }
  });

  it('refuses methods other than GET and HEAD on files', async () => {
    const res = await raw(srv.port, { method: 'POST', path: '/kdd.json', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expect(res.json().error.code).toBe('METHOD_NOT_ALLOWED');
  });

  it('answers a missing file with a typed 404', async () => {
    const res = await raw(srv.port, { path: '/kdd-000000000000.msgpack' });
    expect(res.status).toBe(404);
    expect(res.json().error.code).toBe('NOT_FOUND');
  });
});

describe('safeStaticPath', () => {
  it('accepts plain paths and refuses dot segments, dotfiles, NUL and backslashes once decoded', () => {
    expect(safeStaticPath('/kdd.json')).toBe(true);
    expect(safeStaticPath('/pages/about.html')).toBe(true);
    for (const bad of ['/..', '/a/../b', '/%2e%2e/x', '/.git/config', '/a%00b', '/a%5cb', '/%E0%A4%A']) expect(safeStaticPath(bad), bad).toBe(false);
  });
});
