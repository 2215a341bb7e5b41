/**
 * What the enrich command needs from an agent: a prompt in, the agent's text out. Two real kinds:
 * HTTPS APIs (./http-agent.ts: Anthropic Messages, OpenAI chat completions) and a local command
 * reading the prompt on stdin (./command-agent.ts, e.g. `claude -p`). Tests inject their own.
 *
 * REQ-003 CA-4: an API key lives only inside the agent's closure, is sent only as the provider's
 * auth header to the configured base URL, and every text that leaves an agent (replies quoted in
 * errors, stderr of a command) goes through {@link redact} first.
 */
import type { EnrichProvider } from './artifact.js';
import type { Prompt } from './prompt.js';

export interface Agent {
  readonly provider: EnrichProvider;
  /** Goes into the cache key and the provenance. */
  readonly model: string;
  /** The agent's raw text answer. Throws KddError AGENT_ERROR / AGENT_TIMEOUT. */
  complete(prompt: Prompt): Promise<string>;
}

const REDACTED = '[REDACTED]';
/** Shapes of common provider keys, redacted even when we were not told the key (echoed by a proxy…). */
const KEY_SHAPES = /\b(?:sk-ant-[A-Za-z0-9_-]{8,}|sk-(?:proj-)?[A-Za-z0-9_-]{16,})/g;

/** Removes every given secret (and anything shaped like a provider key) from a text. */
export function redact(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join(REDACTED);
  return out.replace(KEY_SHAPES, REDACTED);
}

/** At most `max` characters, for error details and diagnostics. */
export function excerpt(text: string, max = 300): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
