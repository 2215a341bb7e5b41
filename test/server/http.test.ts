import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../model/errors.js';
import { ROUTES } from '../../server/routes.js';
import { buildFixtureDist, postJson, raw, startServer, type FixtureDist, type Running } from './_setup.js';

let dist: FixtureDist;
let srv: Running;

beforeAll(async () => {
  dist = await buildFixtureDist();
  srv = await startServer({ dir: dist.dist });
});
afterAll(async () => {
  await srv?.close();
  await dist?.remove();
});

const get = (path: string) => raw(srv.port, { path });
const post = (path: string, body: unknown) => postJson(srv.port, path, body);

/** Status, code and the table's status for that code agree. */
function expectError(res: { status: number; json(): any; text: string }, status: number, code: string) {
  expect(res.status, res.text).toBe(status);
  const body = res.json();
  expect(body).toEqual({ error: { code, message: expect.any(String) } });
  expect(ERRORS[code as keyof typeof ERRORS].http).toBe(status);
  expect(res.text).not.toMatch(/\n\s+at /);
}

describe('retrieval endpoints answer with the runtime queries', () => {
  it('POST /v1/retrieve/context ranks CMD-001 and UC-001 first for their own words', async () => {
    const byId = await post('/v1/retrieve/context', { query_text: 'CMD-001' });
    expect(byId.status).toBe(200);
    expect(byId.headers['x-kdd-bundle']).toBe(dist.hash);
    const ids = byId.json().results.map((r: { node_id: string }) => r.node_id);
    expect(ids[0]).toBe('CMD:CMD-001');
    expect(ids.slice(0, 3)).toContain('UC:UC-001');

    const byWords = await post('/v1/retrieve/context', { query: 'crear pedido', limit: 5 });
    const body = byWords.json();
    expect(body.results.slice(0, 2).map((r: { node_id: string }) => r.node_id).sort()).toEqual(['CMD:CMD-001', 'UC:UC-001']);
    expect(body.results.length).toBeLessThanOrEqual(5);
    expect(body.warnings.map((w: { code: string }) => w.code)).toContain('NO_EMBEDDINGS');
  });

  it('POST /v1/retrieve/context and /search with explain: true say why each result ranked', async () => {
    for (const path of ['/v1/retrieve/context', '/v1/retrieve/search']) {
      const res = await post(path, { query_text: 'CMD-001', explain: true });
      expect(res.status).toBe(200);
      const top = res.json().results[0];
      expect(top.node_id).toBe('CMD:CMD-001');
      expect(top.why.exact).toBe('CMD-001');
      expect(top.why.matched[0].fields).toContain('id');
    }
    expect((await post('/v1/retrieve/context', { query_text: 'CMD-001' })).json().results[0].why).toBeUndefined();
    // An impact question: each dependant of the subject names its edge to it.
    const impact = (await post('/v1/retrieve/context', { query_text: 'what depends on the Pedido entity', explain: true })).json();
    expect(impact.results[0].node_id).toBe('Entity:Pedido');
    expect(impact.results.find((r: { node_id: string }) => r.node_id === 'BR:BR-PEDIDO-001').why.depends_on).toEqual({ from_node: 'BR:BR-PEDIDO-001', edge_type: 'ENTITY_RULE', to_node: 'Entity:Pedido' });
  });

  it('POST /v1/retrieve/search finds the event by its words and honours include_kinds (Appendix C names too)', async () => {
    const res = await post('/v1/retrieve/search', { query: 'pedido creado', kinds: ['event'], min_score: 0 });
    expect(res.status).toBe(200);
    const results = res.json().results;
    expect(results[0].node_id).toBe('EVT:EVT-Pedido-Creado');
    expect(results.every((r: { document_kind: string }) => r.document_kind === 'event')).toBe(true);
  });

  it('GET /v1/retrieve/graph walks from the root with query-string params', async () => {
    const res = await get('/v1/retrieve/graph?node=Entity:Pedido&depth=1&edge_types=ENTITY_RULE');
    expect(res.status).toBe(200);
    const body = res.json();
    expect(body.center_node.id).toBe('Entity:Pedido');
    expect(body.related_nodes.map((n: { id: string }) => n.id)).toContain('BR:BR-PEDIDO-001');
    expect(body.edges.every((e: { edge_type: string }) => e.edge_type === 'ENTITY_RULE')).toBe(true);
  });

  it('GET /v1/retrieve/impact of Entity:Pedido lists BR-PEDIDO-001 as directly affected', async () => {
    const res = await get('/v1/retrieve/impact?node_id=Entity:Pedido&change_type=remove');
    expect(res.status).toBe(200);
    const body = res.json();
    expect(body.analyzed_node.id).toBe('Entity:Pedido');
    expect(body.change_type).toBe('remove');
    expect(body.directly_affected.map((n: { id: string }) => n.id)).toContain('BR:BR-PEDIDO-001');
  });

  it('GET /v1/retrieve/coverage reports what an entity has and lacks', async () => {
    const body = (await get('/v1/retrieve/coverage?node=Entity:Pedido')).json();
    expect(body.analyzed_node.id).toBe('Entity:Pedido');
    expect(body.required.map((r: { category: string }) => r.category)).toContain('business_rules');
    expect(typeof body.coverage_percent).toBe('number');
  });

  it('GET /v1/retrieve/layer-violations lists the precomputed violations', async () => {
    const body = (await get('/v1/retrieve/layer-violations')).json();
    expect(body.total_violations).toBe(body.violations.length);
    expect(body.total_violations).toBeGreaterThan(0);
    expect(body.violations[0]).toHaveProperty('explanation');
  });

  it('GET /v1/retrieve/hints resolves repeated hints and returns constraints first', async () => {
    const body = (await get('/v1/retrieve/hints?hints=src/pedido.ts&hints=Entity:Pedido')).json();
    expect(body.resolved_entities.map((r: { node_id: string }) => r.node_id)).toContain('Entity:Pedido');
    expect(body.constraints.map((c: { node_id: string }) => c.node_id)).toContain('BR:BR-PEDIDO-001');
  });

  it('GET /v1/retrieve/health reports dangling links and orphans', async () => {
    const body = (await get('/v1/retrieve/health')).json();
    expect(body.total_nodes).toBe(dist.nodes);
    expect(body.total_dangling).toBe(body.dangling.length);
  });

  it('GET /v1/stats and /healthz describe the loaded bundle', async () => {
    const stats = (await get('/v1/stats')).json();
    expect(stats).toMatchObject({ hash: dist.hash, bundle: `kdd-${dist.hash}.msgpack`, index_level: 'L1', counts: { nodes: dist.nodes } });
    expect(Date.parse(stats.loaded_at)).not.toBeNaN();
    const health = await get('/healthz');
    expect(health.status).toBe(200);
    expect(health.json()).toEqual({ status: 'ok', bundle: dist.hash });
  });

  it('every route of the table is reachable with its method', async () => {
    for (const route of ROUTES) {
      const res = route.method === 'GET' ? await get(route.path) : await post(route.path, {});
      expect(res.status, `${route.method} ${route.path}`).toBeLessThan(500);
      expect(['NOT_FOUND', 'METHOD_NOT_ALLOWED']).not.toContain(res.json().error?.code);
    }
  });
});

describe('errors are typed codes with the status of the error table', () => {
  it('400 for invalid parameters', async () => {
    expectError(await post('/v1/retrieve/context', { query_text: 'ab' }), 400, 'QUERY_TOO_SHORT');
    expectError(await post('/v1/retrieve/context', {}), 400, 'QUERY_TOO_SHORT');
    expectError(await get('/v1/retrieve/graph?root_node=Entity:Pedido&depth=9'), 400, 'INVALID_DEPTH');
    expectError(await get('/v1/retrieve/graph?root_node=Entity:Pedido&edge_types=NOPE'), 400, 'INVALID_EDGE_TYPE');
    expectError(await get('/v1/retrieve/impact?node_id=Entity:Pedido&change_type=explode'), 400, 'INVALID_CHANGE_TYPE');
    expectError(await post('/v1/retrieve/search', { query_text: 'pedido', min_score: 3 }), 400, 'INVALID_SCORE_RANGE');
    expectError(await get('/v1/retrieve/hints'), 400, 'EMPTY_HINTS');
    expectError(await post('/v1/retrieve/context', { query_text: 'pedido', limit: 'many' }), 400, 'INVALID_PARAMS');
    expectError(await post('/v1/retrieve/context', ['pedido']), 400, 'INVALID_PARAMS');
  });

  it('400 for a body that is not JSON, too deeply nested, or an alias given twice', async () => {
    const bad = await raw(srv.port, { method: 'POST', path: '/v1/retrieve/context', headers: { 'content-type': 'application/json' }, body: '{"query_text":' });
    expectError(bad, 400, 'INVALID_PARAMS');
    expect(bad.json().error.message).toContain("'body'");
    const deep = `{"query_text":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    expectError(await raw(srv.port, { method: 'POST', path: '/v1/retrieve/context', headers: { 'content-type': 'application/json' }, body: deep }), 400, 'INVALID_PARAMS');
    expectError(await post('/v1/retrieve/context', { query: 'pedido', query_text: 'pedido' }), 400, 'INVALID_PARAMS');
    expectError(await get(`/v1/retrieve/graph?root_node=${'x'.repeat(5000)}`), 400, 'INVALID_PARAMS');
  });

  it('404 for an unknown node and for an unknown route', async () => {
    expectError(await get('/v1/retrieve/impact?node_id=Entity:Nope'), 404, 'NODE_NOT_FOUND');
    expectError(await get('/v1/retrieve/graph?root_node=Entity:Nope'), 404, 'NODE_NOT_FOUND');
    expectError(await get('/v1/retrieve/nope'), 404, 'NOT_FOUND');
    expectError(await get('/v1'), 404, 'NOT_FOUND');
  });

  it('405 with an Allow header for a known path under the wrong method', async () => {
    const res = await get('/v1/retrieve/context');
    expectError(res, 405, 'METHOD_NOT_ALLOWED');
    expect(res.headers.allow).toBe('POST');
    const del = await raw(srv.port, { method: 'DELETE', path: '/v1/retrieve/impact?node_id=Entity:Pedido' });
    expectError(del, 405, 'METHOD_NOT_ALLOWED');
    expect(del.headers.allow).toBe('GET');
  });

  it('413 for a body over the limit, declared or streamed', async () => {
    const big = JSON.stringify({ query_text: 'x'.repeat(100 * 1024) });
    expectError(await raw(srv.port, { method: 'POST', path: '/v1/retrieve/context', headers: { 'content-type': 'application/json' }, body: big }), 413, 'PAYLOAD_TOO_LARGE');
    const chunked = await raw(srv.port, {
      method: 'POST',
      path: '/v1/retrieve/context',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      body: big,
    });
    expectError(chunked, 413, 'PAYLOAD_TOO_LARGE');
    // The server is still fine afterwards.
    expect((await get('/healthz')).status).toBe(200);
  });

  it('415 for a body that is not declared as JSON', async () => {
    const res = await raw(srv.port, { method: 'POST', path: '/v1/retrieve/context', headers: { 'content-type': 'text/plain' }, body: '{"query_text":"pedido"}' });
    expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    const none = await raw(srv.port, { method: 'POST', path: '/v1/retrieve/search', body: '{"query_text":"pedido"}' });
    expectError(none, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('422 for coverage of a kind without coverage rules', async () => {
    expectError(await get('/v1/retrieve/coverage?node_id=GLOSS:Glosario'), 422, 'UNKNOWN_KIND');
  });

  it('504 when the body does not arrive within the time limit', async () => {
    const slow = await startServer({ dir: dist.dist, limits: { bodyTimeoutMs: 150 } });
    try {
      const { request } = await import('node:http');
      const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: slow.port, method: 'POST', path: '/v1/retrieve/context', headers: { 'content-type': 'application/json', 'content-length': '100' } }, (r) => {
          let body = '';
          r.on('data', (c) => (body += c));
          r.on('end', () => resolve({ status: r.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.write('{"query_text":'); // and never the rest
      });
      expect(res.status).toBe(504);
      expect(JSON.parse(res.body).error.code).toBe('TIMEOUT');
    } finally {
      await slow.close();
    }
  });

  it('503 INDEX_UNAVAILABLE before any bundle is loaded; /healthz stays 200', async () => {
    const { mkdtemp, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const empty = await mkdtemp(join(tmpdir(), 'kdd-empty-'));
    const none = await startServer({ dir: empty });
    try {
      expectError(await raw(none.port, { path: '/v1/stats' }), 503, 'INDEX_UNAVAILABLE');
      expectError(await postJson(none.port, '/v1/retrieve/context', { query_text: 'pedido' }), 503, 'INDEX_UNAVAILABLE');
      const health = await raw(none.port, { path: '/healthz' });
      expect(health.status).toBe(200);
      expect(health.json()).toEqual({ status: 'ok', bundle: null });
    } finally {
      await none.close();
      await rm(empty, { recursive: true, force: true });
    }
  });
});

describe('CORS', () => {
  it('adds the allowed origin to answers and answers preflights only when enabled', async () => {
    const open = await startServer({ dir: dist.dist, cors: 'https://docs.example' });
    try {
      const res = await raw(open.port, { path: '/v1/stats' });
      expect(res.headers['access-control-allow-origin']).toBe('https://docs.example');
      const pre = await raw(open.port, { method: 'OPTIONS', path: '/v1/retrieve/context' });
      expect(pre.status).toBe(204);
      expect(pre.headers['access-control-allow-methods']).toContain('POST');
    } finally {
      await open.close();
    }
    expect((await get('/v1/stats')).headers['access-control-allow-origin']).toBeUndefined();
    expectError(await raw(srv.port, { method: 'OPTIONS', path: '/v1/retrieve/context' }), 405, 'METHOD_NOT_ALLOWED');
  });
});
