/**
 * HTTPS agents over global `fetch`: the Anthropic Messages API and OpenAI chat completions.
 *
 * - One request per attempt, each with `AbortSignal.timeout(timeoutMs)`; a timeout is not retried
 *   (it would multiply the wait) and becomes AGENT_TIMEOUT.
 * - 429 and 5xx (and network failures) are retried with exponential backoff and jitter, at most
 *   `maxRetries` times; a `retry-after` header (seconds or HTTP date) replaces the computed delay,
 *   capped at `maxRetryWaitMs`.
 * - Other statuses and unusable bodies are AGENT_ERROR with the provider's message, redacted.
 */
import { createError, isKddError, type KddError } from '../../model/errors.js';
import { excerpt, redact, type Agent } from './agent.js';
import type { Prompt } from './prompt.js';

export type HttpProvider = 'anthropic' | 'openai';

export const DEFAULT_BASE_URL: Readonly<Record<HttpProvider, string>> = {
  anthropic: 'https://api.anthropic.com',
  openai: 'https://api.openai.com',
};
export const DEFAULT_MODEL: Readonly<Record<HttpProvider, string>> = {
  anthropic: 'claude-sonnet-4-5',
  openai: 'gpt-4.1-mini',
};
export const ANTHROPIC_VERSION = '2023-06-01';

export interface HttpAgentOptions {
  provider: HttpProvider;
  /** Never stored outside this agent's closure, never logged. */
  apiKey: string;
  model?: string;
  /** Without the `/v1` part (a trailing `/v1` is tolerated). Default: the provider's public API. */
  baseUrl?: string;
  /** Per attempt. Default 120 000. */
  timeoutMs?: number;
  /** Retries after the first attempt, on 429/5xx/network errors. Default 3. */
  maxRetries?: number;
  /** First backoff delay; doubles each retry. Default 1 000. */
  retryBaseMs?: number;
  /** Upper bound of any single wait, `retry-after` included. Default 60 000. */
  maxRetryWaitMs?: number;
  /** Max tokens of the answer. Default 2 048. */
  maxTokens?: number;
  /** Called once per HTTP request sent (cost accounting). */
  onRequest?: () => void;
}

export function createHttpAgent(options: HttpAgentOptions): Agent {
  const { provider, apiKey } = options;
  const model = options.model ?? DEFAULT_MODEL[provider];
  const base = (options.baseUrl ?? DEFAULT_BASE_URL[provider]).replace(/\/+$/, '').replace(/\/v1$/, '');
  const timeoutMs = options.timeoutMs ?? 120_000;
  const maxRetries = options.maxRetries ?? 3;
  const retryBaseMs = options.retryBaseMs ?? 1_000;
  const maxWait = options.maxRetryWaitMs ?? 60_000;
  const maxTokens = options.maxTokens ?? 2_048;
  const secrets = [apiKey];

  const request = (prompt: Prompt): { url: string; init: RequestInit } => {
    if (provider === 'anthropic') {
      return {
        url: `${base}/v1/messages`,
        init: {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': apiKey, 'anthropic-version': ANTHROPIC_VERSION },
          body: JSON.stringify({ model, max_tokens: maxTokens, temperature: 0, system: prompt.system, messages: [{ role: 'user', content: prompt.user }] }),
        },
      };
    }
    return {
      url: `${base}/v1/chat/completions`,
      init: {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
        body: JSON.stringify({
          model,
          max_tokens: maxTokens,
          temperature: 0,
          response_format: { type: 'json_object' },
          messages: [
            { role: 'system', content: prompt.system },
            { role: 'user', content: prompt.user },
          ],
        }),
      },
    };
  };

  return {
    provider,
    model,
    async complete(prompt) {
      const { url, init } = request(prompt);
      for (let attempt = 0; ; attempt++) {
        let response: Response;
        let body: string;
        try {
          options.onRequest?.();
          response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
          body = await response.text();
        } catch (error) {
          if (isTimeout(error)) throw createError('AGENT_TIMEOUT', { timeout_ms: timeoutMs });
          const failure = createError('AGENT_ERROR', { detail: redact(`${provider} request failed: ${causeOf(error)}`, secrets) });
          if (attempt < maxRetries) {
            await sleep(backoff(attempt, retryBaseMs, maxWait));
            continue;
          }
          throw failure;
        }
        if (response.ok) return textOf(provider, body, secrets);
        const failure = statusError(provider, response.status, body, secrets);
        if (retryable(response.status) && attempt < maxRetries) {
          await sleep(retryAfter(response.headers.get('retry-after'), maxWait) ?? backoff(attempt, retryBaseMs, maxWait));
          continue;
        }
        throw failure;
      }
    },
  };
}

const retryable = (status: number) => status === 429 || status >= 500;

function isTimeout(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  return name === 'TimeoutError' || name === 'AbortError';
}

function causeOf(error: unknown): string {
  const e = error as { message?: string; cause?: { code?: string; message?: string } };
  return [e.message, e.cause?.code ?? e.cause?.message].filter(Boolean).join(': ') || String(error);
}

/** Exponential: base · 2^attempt, ± 20 % jitter, capped. */
export function backoff(attempt: number, baseMs: number, maxMs: number): number {
  const raw = baseMs * 2 ** attempt;
  return Math.min(maxMs, Math.round(raw * (0.8 + Math.random() * 0.4)));
}

/** `retry-after` in seconds (fractions accepted) or as an HTTP date; null when absent or unusable. */
export function retryAfter(header: string | null, maxMs: number, now = Date.now()): number | null {
  if (header === null || header.trim() === '') return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(maxMs, Math.round(seconds * 1000));
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.min(maxMs, Math.max(0, date - now));
}

function statusError(provider: HttpProvider, status: number, body: string, secrets: readonly string[]): KddError {
  let message = excerpt(body);
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown; type?: unknown } | string };
    const error = parsed.error;
    if (typeof error === 'string') message = error;
    else if (error && typeof error.message === 'string') message = error.message;
  } catch {
    // not JSON: keep the excerpt
  }
  return createError('AGENT_ERROR', { detail: redact(`${provider} answered HTTP ${status}: ${excerpt(message)}`, secrets), status });
}

/** The assistant's text from each provider's response shape. */
function textOf(provider: HttpProvider, body: string, secrets: readonly string[]): string {
  try {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    if (provider === 'anthropic') {
      const blocks = Array.isArray(parsed.content) ? (parsed.content as { type?: unknown; text?: unknown }[]) : [];
      const text = blocks.filter((b) => b.type === 'text' && typeof b.text === 'string').map((b) => b.text as string).join('');
      if (text) return text;
    } else {
      const choices = Array.isArray(parsed.choices) ? (parsed.choices as { message?: { content?: unknown } }[]) : [];
      const content = choices[0]?.message?.content;
      if (typeof content === 'string' && content) return content;
    }
  } catch (error) {
    if (isKddError(error)) throw error;
  }
  throw createError('AGENT_ERROR', { detail: redact(`${provider} returned an unexpected response body: ${excerpt(body)}`, secrets), raw: redact(body.slice(0, 2000), secrets) });
}

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));
