/**
 * Malformed requests of every sort (bad JSON, wrong types, huge values, unicode, deep nesting,
 * traversal in static paths, unknown routes and methods) each get a typed 4xx — never a 5xx,
 * never a hang — and the server is healthy afterwards.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, type ErrorCode } from '../../model/errors.js';
import { KINDS } from '../../model/graph.js';
import { resolveNodeRef } from '../../runtime/queries/resolve.js';
import { buildFixtureDist, raw, startServer, type FixtureDist, type Running } from './_setup.js';

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

interface Req {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

const JSON_HEADERS = { 'content-type': 'application/json' };
const POST_ROUTES = ['/v1/retrieve/context', '/v1/retrieve/search'];
const NODE_ROUTES = ['/v1/retrieve/graph?root_node=', '/v1/retrieve/impact?node_id=', '/v1/retrieve/coverage?node_id='];
/** True when a reference names a node: node parameters resolve ids, document ids, titles and file names at every door. */
const namesANode = (ref: string) => {
  const index = srv.server.holder.current()!.index;
  return index.nodeIndex.has(ref.trim()) || resolveNodeRef(index, ref) !== ref;
};

/** Text that JSON.parse refuses. */
const badJson = fc.string({ maxLength: 200 }).filter((s) => {
  if (s.trim() === '') return false;
  try {
    JSON.parse(s);
    return false;
  } catch {
    return true;
  }
});

const nonString = fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.array(fc.integer(), { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 2 }));

/** A valid query text plus one field set to a value the query must refuse. */
const badField = fc.oneof(
  fc.record({ field: fc.constant('limit'), value: fc.oneof(fc.integer({ min: 101 }), fc.integer({ max: 0 }), fc.double({ noInteger: true, noDefaultInfinity: true, noNaN: true }).filter((d) => !Number.isInteger(d)), fc.string({ minLength: 1, maxLength: 10 }).filter((s) => !/^\s*-?\d+\s*$/.test(s) && s.trim() !== ''), fc.constant(1e308)) }),
  fc.record({ field: fc.constant('depth'), value: fc.oneof(fc.integer({ min: 6 }), fc.integer({ max: 0 }), fc.constant(Number.MAX_SAFE_INTEGER)) }),
  fc.record({ field: fc.constant('min_score'), value: fc.oneof(fc.double({ min: 1.0001, noNaN: true, noDefaultInfinity: true }), fc.double({ max: -0.0001, noNaN: true, noDefaultInfinity: true })) }),
  fc.record({ field: fc.constant('include_kinds'), value: fc.oneof(fc.array(fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim() !== '' && !s.includes(',') && !(KINDS as readonly string[]).includes(s.trim().toLowerCase())), { minLength: 1, maxLength: 3 }), fc.integer()) }),
  fc.record({ field: fc.constant('expand_graph'), value: fc.oneof(fc.integer(), fc.string({ minLength: 1, maxLength: 5 }).filter((s) => s !== 'true' && s !== 'false')) }),
);

/** Nested arrays deeper than the 32-level limit, with unicode at the bottom. */
const deepBody = fc.tuple(fc.integer({ min: 33, max: 20_000 }), fc.string({ unit: 'grapheme', maxLength: 5 })).map(([depth, leaf]) => `{"query_text":${'['.repeat(depth)}${JSON.stringify(leaf)}${']'.repeat(depth)}}`);

const segment = fc.oneof(
  fc.constantFrom('..', '%2e%2e', '%2E%2E', '.%2e', '..%2f..', '..%5c..', '.git', '.env', '%00', '..;', '.'),
  fc.stringMatching(/^[a-zA-Z0-9_-]{1,8}$/),
);
const traversal = fc
  .tuple(fc.array(segment, { minLength: 1, maxLength: 6 }), fc.constantFrom('', '/etc/passwd', '/kdd.json', '/secret.txt'))
  .filter(([parts]) => parts.some((p) => p.startsWith('.') || p.startsWith('%2') || p === '%00'))
  .map(([parts, tail]) => `/${parts.join('/')}${tail}`);

const requests: fc.Arbitrary<Req> = fc.oneof(
  // Bad JSON, declared as JSON.
  fc.tuple(fc.constantFrom(...POST_ROUTES), badJson).map(([path, body]) => ({ method: 'POST', path, headers: JSON_HEADERS, body })),
  // Wrong type for the query text.
  fc.tuple(fc.constantFrom(...POST_ROUTES), nonString).map(([path, v]) => ({ method: 'POST', path, headers: JSON_HEADERS, body: JSON.stringify({ query_text: v }) })),
  // Too short (unicode included).
  fc.tuple(fc.constantFrom(...POST_ROUTES), fc.string({ unit: 'grapheme', maxLength: 2 })).filter(([, s]) => s.trim().length < 3).map(([path, s]) => ({ method: 'POST', path, headers: JSON_HEADERS, body: JSON.stringify({ query_text: s }) })),
  // Out-of-range or wrongly typed optional fields.
  // (search has no depth or expand_graph: unknown params are ignored, so those go to context only)
  fc.tuple(fc.constantFrom(...POST_ROUTES), badField).map(([route, { field, value }]) => ({ path: field === 'depth' || field === 'expand_graph' ? '/v1/retrieve/context' : route, field, value })).map(({ path, field, value }) => ({ method: 'POST', path, headers: JSON_HEADERS, body: JSON.stringify({ query_text: 'pedido', [field]: value }) })),
  // Not an object at all.
  fc.tuple(fc.constantFrom(...POST_ROUTES), fc.oneof(fc.integer(), fc.boolean(), fc.array(fc.string(), { minLength: 0, maxLength: 3 }), fc.string())).map(([path, v]) => ({ method: 'POST', path, headers: JSON_HEADERS, body: JSON.stringify(v) })),
  // Huge values.
  fc.tuple(fc.constantFrom(...POST_ROUTES), fc.integer({ min: 65 * 1024, max: 300 * 1024 })).map(([path, n]) => ({ method: 'POST', path, headers: JSON_HEADERS, body: JSON.stringify({ query_text: 'é'.repeat(n / 2) }) })),
  fc.tuple(fc.constantFrom(...NODE_ROUTES), fc.integer({ min: 4100, max: 20_000 })).map(([path, n]) => ({ method: 'GET', path: `${path}${'x'.repeat(n)}` })),
  // Deep nesting.
  fc.tuple(fc.constantFrom(...POST_ROUTES), deepBody).map(([path, body]) => ({ method: 'POST', path, headers: JSON_HEADERS, body })),
  // Wrong content type.
  fc.tuple(fc.constantFrom(...POST_ROUTES), fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx', 'text/json')).map(([path, type]) => ({ method: 'POST', path, headers: { 'content-type': type }, body: '{"query_text":"pedido"}' })),
  // Unknown node ids, unicode included.
  fc.tuple(fc.constantFrom(...NODE_ROUTES), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 })).filter(([, id]) => id.trim() !== '' && !namesANode(id)).map(([path, id]) => ({ method: 'GET', path: `${path}${encodeURIComponent(id)}` })),
  // Bad query-string params.
  fc.tuple(fc.constantFrom('depth', 'edge_types', 'include_kinds', 'respect_layers', 'direction'), fc.string({ minLength: 1, maxLength: 20 })).filter(([, v]) => !/^\s*[1-5]\s*$/.test(v) && !/^(true|false|both|in|out|wiki_link|\s*,?\s*)$/i.test(v)).map(([name, v]) => ({ method: 'GET', path: `/v1/retrieve/graph?root_node=Entity:Pedido&${name}=${encodeURIComponent(v)}` })),
  // Path traversal and dotfiles in static paths.
  traversal.map((path) => ({ method: 'GET', path })),
  // Unknown routes under the API.
  fc.stringMatching(/^[a-z0-9/_-]{1,30}$/).filter((p) => !['retrieve/context', 'retrieve/search', 'retrieve/graph', 'retrieve/impact', 'retrieve/coverage', 'retrieve/layer-violations', 'retrieve/hints', 'retrieve/health', 'stats'].includes(p)).map((p) => ({ method: 'GET', path: `/v1/${p}` })),
  // Unknown or wrong methods.
  fc.tuple(fc.constantFrom('PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'PROPFIND'), fc.constantFrom('/v1/retrieve/context', '/v1/retrieve/graph', '/v1/stats', '/healthz', '/kdd.json')).map(([method, path]) => ({ method, path })),
  fc.constantFrom('/v1/retrieve/graph', '/v1/retrieve/impact', '/v1/stats', '/healthz').map((path) => ({ method: 'POST', path, headers: JSON_HEADERS, body: '{}' })),
);

describe('malformed requests', () => {
  it('get a typed 4xx each (1,000 random requests), and /healthz is 200 afterwards', async () => {
    const seen = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(requests, async (req) => {
        const res = await raw(srv.port, { ...req, timeoutMs: 5000 });
        const where = `${req.method} ${req.path.slice(0, 80)} ${req.body?.slice(0, 80) ?? ''} → ${res.status} ${res.text.slice(0, 200)}`;
        expect(res.status, where).toBeGreaterThanOrEqual(400);
        expect(res.status, where).toBeLessThan(500);
        const body = res.json();
        const code = body.error?.code as ErrorCode;
        expect(Object.keys(body), where).toEqual(['error']);
        expect(ERRORS[code]?.http, where).toBe(res.status);
        expect(typeof body.error.message).toBe('string');
        seen.set(code, (seen.get(code) ?? 0) + 1);
      }),
      { numRuns: 1000 },
    );
    expect(seen.size).toBeGreaterThanOrEqual(8);
    const health = await raw(srv.port, { path: '/healthz' });
    expect(health.status).toBe(200);
    expect(health.json().bundle).toBe(dist.hash);
    expect(srv.logs.filter((l) => l.includes('failed'))).toEqual([]);
  }, 30_000);
});
