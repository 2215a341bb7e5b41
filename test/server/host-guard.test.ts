/**
 * DNS-rebinding guard: `kdd serve` answers only requests whose Host names a loopback host, the
 * address it listens on, or a name of `allowedHosts`; any other Host gets 421 HOST_NOT_ALLOWED,
 * API and static files alike. Found answering `Host: attacker.example` with 200.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureDist, raw, startServer, type FixtureDist, type Running } from './_setup.js';

let dist: FixtureDist;
let plain: Running;
let allowing: Running;

beforeAll(async () => {
  dist = await buildFixtureDist();
  plain = await startServer({ dir: dist.dist });
  allowing = await startServer({ dir: dist.dist, allowedHosts: ['docs.example.org', 'KDD.internal'] });
});

afterAll(async () => {
  await Promise.all([plain.close(), allowing.close()]);
  await dist.remove();
});

describe('Host header guard', () => {
  it.each(['127.0.0.1', 'localhost', 'LOCALHOST', 'app.localhost', '[::1]', '127.0.0.2'])('accepts the loopback name %s (with a port)', async (host) => {
    const res = await raw(plain.port, { path: '/v1/stats', headers: { host: `${host}:${plain.port}` } });
    expect(res.status).toBe(200);
  });

  it.each(['attacker.example', 'attacker.example.', '10.0.0.5', 'localhost.attacker.example', '127.0.0.1.nip.io'])('refuses Host %s with 421 on the API and on static files', async (host) => {
    for (const path of ['/v1/stats', '/kdd.json']) {
      const res = await raw(plain.port, { path, headers: { host } });
      expect(res.status).toBe(421);
      expect(res.json().error.code).toBe('HOST_NOT_ALLOWED');
    }
  });

  it('accepts the names given in allowedHosts (case-insensitive), still refuses others', async () => {
    expect((await raw(allowing.port, { path: '/v1/stats', headers: { host: 'docs.example.org:8080' } })).status).toBe(200);
    expect((await raw(allowing.port, { path: '/kdd.json', headers: { host: 'kdd.internal' } })).status).toBe(200);
    expect((await raw(allowing.port, { path: '/v1/stats', headers: { host: 'attacker.example' } })).status).toBe(421);
  });
});
