import { afterEach, describe, expect, it } from 'vitest';
import { createHttpAgent, retryAfter } from '../../compiler/enrich/http-agent.js';
import { anthropicReply, openaiReply, startStub, type Reply, type Stub } from './_stub.js';
import { rejection } from '../helpers/rejection.js';

const KEY = 'sk-ant-stub-0123456789abcdefXYZ';
const PROMPT = { system: 'sys', user: 'hello' };
const stubs: Stub[] = [];
afterEach(async () => {
  await Promise.all(stubs.splice(0).map((stub) => stub.close()));
});

async function stub(...replies: Reply[]) {
  const s = await startStub(replies);
  stubs.push(s);
  return s;
}


describe('the Anthropic client', () => {
  it('posts to /v1/messages with x-api-key and anthropic-version, and returns the text blocks', async () => {
    const s = await stub(anthropicReply('{"summary":"x"}'));
    const agent = createHttpAgent({ provider: 'anthropic', apiKey: KEY, model: 'claude-test', baseUrl: s.url });
    expect(await agent.complete(PROMPT)).toBe('{"summary":"x"}');
    const [request] = s.requests;
    expect(request!.path).toBe('/v1/messages');
    expect(request!.headers['x-api-key']).toBe(KEY);
    expect(request!.headers['anthropic-version']).toBe('2023-06-01');
    expect(request!.headers.authorization).toBeUndefined();
    const body = JSON.parse(request!.body);
    expect(body).toMatchObject({ model: 'claude-test', system: 'sys', messages: [{ role: 'user', content: 'hello' }] });
  });

  it('tolerates a base URL that already ends in /v1', async () => {
    const s = await stub(anthropicReply('ok'));
    const agent = createHttpAgent({ provider: 'anthropic', apiKey: KEY, baseUrl: `${s.url}/v1/` });
    expect(await agent.complete(PROMPT)).toBe('ok');
    expect(s.requests[0]!.path).toBe('/v1/messages');
  });

  it('turns a malformed response body into AGENT_ERROR', async () => {
    const s = await stub({ body: '{"content": [' });
    const error = await rejection(createHttpAgent({ provider: 'anthropic', apiKey: KEY, baseUrl: s.url }).complete(PROMPT));
    expect(error.code).toBe('AGENT_ERROR');
    expect(error.message).toMatch(/unexpected response body/);
  });

  it('retries a 429 after its retry-after, then succeeds', async () => {
    const s = await stub({ status: 429, headers: { 'retry-after': '0.05' }, body: '{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}' }, anthropicReply('fine'));
    const agent = createHttpAgent({ provider: 'anthropic', apiKey: KEY, baseUrl: s.url, retryBaseMs: 5_000 });
    const started = performance.now();
    expect(await agent.complete(PROMPT)).toBe('fine');
    // retry-after (50 ms) replaced the 5 s computed backoff.
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(s.requests).toHaveLength(2);
  });

  it('gives up on a persistent 500 after the configured retries, with the provider message', async () => {
    const s = await stub({ status: 500, body: '{"type":"error","error":{"type":"api_error","message":"internal boom"}}' });
    const agent = createHttpAgent({ provider: 'anthropic', apiKey: KEY, baseUrl: s.url, maxRetries: 2, retryBaseMs: 1 });
    const error = await rejection(agent.complete(PROMPT));
    expect(error.code).toBe('AGENT_ERROR');
    expect(error.message).toContain('HTTP 500: internal boom');
    expect(s.requests).toHaveLength(3);
  });

  it('does not retry a 400', async () => {
    const s = await stub({ status: 400, body: '{"type":"error","error":{"type":"invalid_request_error","message":"bad model"}}' });
    const error = await rejection(createHttpAgent({ provider: 'anthropic', apiKey: KEY, baseUrl: s.url, retryBaseMs: 1 }).complete(PROMPT));
    expect(error.code).toBe('AGENT_ERROR');
    expect(s.requests).toHaveLength(1);
  });

  it('reports a slow reply as AGENT_TIMEOUT and does not retry it', async () => {
    const s = await stub({ ...anthropicReply('late'), delayMs: 3_000 });
    const agent = createHttpAgent({ provider: 'anthropic', apiKey: KEY, baseUrl: s.url, timeoutMs: 150, retryBaseMs: 1 });
    const error = await rejection(agent.complete(PROMPT));
    expect(error.code).toBe('AGENT_TIMEOUT');
    expect(error.message).toBe('Agent enrichment timed out after 150ms');
    expect(error.exitCode).toBe(5);
    expect(s.requests).toHaveLength(1);
  });

  it('redacts the key when an error body echoes it', async () => {
    const s = await stub({ status: 401, body: JSON.stringify({ error: { message: `invalid x-api-key ${KEY}` } }) });
    const error = await rejection(createHttpAgent({ provider: 'anthropic', apiKey: KEY, baseUrl: s.url }).complete(PROMPT));
    expect(error.message).not.toContain(KEY);
    expect(error.message).toContain('[REDACTED]');
    expect(JSON.stringify(error.params)).not.toContain(KEY);
  });

  it('reports an unreachable server as AGENT_ERROR after retrying', async () => {
    const s = await stub(anthropicReply('x'));
    const url = s.url;
    await s.close();
    stubs.pop();
    const error = await rejection(createHttpAgent({ provider: 'anthropic', apiKey: KEY, baseUrl: url, maxRetries: 1, retryBaseMs: 1 }).complete(PROMPT));
    expect(error.code).toBe('AGENT_ERROR');
    expect(error.message).toMatch(/request failed/);
  });
});

describe('the OpenAI client', () => {
  it('posts to /v1/chat/completions with a bearer token and returns the message content', async () => {
    const s = await stub(openaiReply('{"summary":"y"}'));
    const agent = createHttpAgent({ provider: 'openai', apiKey: 'sk-openai-stub-0123456789abcdef', baseUrl: s.url, model: 'gpt-test' });
    expect(await agent.complete(PROMPT)).toBe('{"summary":"y"}');
    const [request] = s.requests;
    expect(request!.path).toBe('/v1/chat/completions');
    expect(request!.headers.authorization).toBe('Bearer sk-openai-stub-0123456789abcdef');
    expect(request!.headers['x-api-key']).toBeUndefined();
    expect(JSON.parse(request!.body)).toMatchObject({ model: 'gpt-test', messages: [{ role: 'system', content: 'sys' }, { role: 'user', content: 'hello' }] });
  });

  it('turns a body without choices into AGENT_ERROR', async () => {
    const s = await stub({ body: '{"object":"chat.completion","choices":[]}' });
    const error = await rejection(createHttpAgent({ provider: 'openai', apiKey: 'k'.repeat(20), baseUrl: s.url }).complete(PROMPT));
    expect(error.code).toBe('AGENT_ERROR');
  });

  it('retries a 503 then succeeds', async () => {
    const s = await stub({ status: 503, body: '{"error":{"message":"overloaded"}}' }, openaiReply('ok'));
    expect(await createHttpAgent({ provider: 'openai', apiKey: 'k'.repeat(20), baseUrl: s.url, retryBaseMs: 1 }).complete(PROMPT)).toBe('ok');
    expect(s.requests).toHaveLength(2);
  });
});

describe('retryAfter', () => {
  it('reads seconds and HTTP dates, capped', () => {
    expect(retryAfter('2', 60_000)).toBe(2_000);
    expect(retryAfter('120', 10_000)).toBe(10_000);
    expect(retryAfter(new Date(1_000_000 + 3_000).toUTCString(), 60_000, 1_000_000)).toBe(3_000);
    expect(retryAfter(null, 1)).toBeNull();
    expect(retryAfter('soon', 1)).toBeNull();
  });
});
