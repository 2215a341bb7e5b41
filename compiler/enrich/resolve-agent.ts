/**
 * Agent options → which agent (CMD-003 `agent_provider`, `api_key_env`). Resolved in two steps so
 * the cache can be checked without a key: {@link agentIdentity} (provider + model, never throws
 * API_KEY_MISSING) and {@link createAgent} (reads the key from the environment, only when something
 * must be sent).
 *
 * Provider: `--provider`, else `command` when `--agent-cmd` is given, else guessed from
 * `--api-key-env` (a name containing OPENAI → openai), else the first of ANTHROPIC_API_KEY /
 * OPENAI_API_KEY that is set, else anthropic.
 */
import { basename } from 'node:path';
import { createError } from '../../model/errors.js';
import type { Agent } from './agent.js';
import type { EnrichProvider } from './artifact.js';
import { createCommandAgent, splitCommand } from './command-agent.js';
import { createHttpAgent, DEFAULT_MODEL, type HttpProvider } from './http-agent.js';

export const PROVIDERS: readonly EnrichProvider[] = ['anthropic', 'openai', 'command'];
export const DEFAULT_KEY_ENV: Readonly<Record<HttpProvider, string>> = { anthropic: 'ANTHROPIC_API_KEY', openai: 'OPENAI_API_KEY' };

export interface AgentChoice {
  provider?: EnrichProvider;
  /** Local agent command line (`claude -p`). */
  agentCmd?: string;
  model?: string;
  baseUrl?: string;
  /** Name of the environment variable holding the key (never the key itself). */
  apiKeyEnv?: string;
  timeoutMs?: number;
  maxRetries?: number;
  retryBaseMs?: number;
  maxRetryWaitMs?: number;
}

export interface AgentIdentity {
  provider: EnrichProvider;
  model: string;
}

type Env = Readonly<Record<string, string | undefined>>;

function pickProvider(choice: AgentChoice, env: Env): EnrichProvider {
  if (choice.provider) {
    if (!PROVIDERS.includes(choice.provider)) throw createError('INVALID_PARAMS', { field: 'provider', reason: `expected one of ${PROVIDERS.join(', ')}` });
    if (choice.agentCmd && choice.provider !== 'command') throw createError('INVALID_PARAMS', { field: 'agent-cmd', reason: `--agent-cmd needs --provider command, not ${choice.provider}` });
    return choice.provider;
  }
  if (choice.agentCmd) return 'command';
  if (choice.apiKeyEnv) return /openai/i.test(choice.apiKeyEnv) ? 'openai' : 'anthropic';
  if (env.ANTHROPIC_API_KEY) return 'anthropic';
  if (env.OPENAI_API_KEY) return 'openai';
  return 'anthropic';
}

export function agentIdentity(choice: AgentChoice, env: Env): AgentIdentity {
  const provider = pickProvider(choice, env);
  if (provider === 'command') {
    if (!choice.agentCmd) throw createError('INVALID_PARAMS', { field: 'agent-cmd', reason: '--provider command needs --agent-cmd "PROGRAM ARGS"' });
    const program = splitCommand(choice.agentCmd)[0];
    if (!program) throw createError('INVALID_PARAMS', { field: 'agent-cmd', reason: 'empty command' });
    return { provider, model: choice.model ?? basename(program) };
  }
  return { provider, model: choice.model ?? DEFAULT_MODEL[provider] };
}

export interface CreateAgentContext {
  env: Env;
  cwd?: string;
  onRequest?: () => void;
}

/** @throws KddError API_KEY_MISSING when an HTTP provider has no key in the environment. */
export function createAgent(choice: AgentChoice, context: CreateAgentContext): Agent {
  const { provider, model } = agentIdentity(choice, context.env);
  if (provider === 'command') {
    return createCommandAgent({ command: choice.agentCmd!, model, timeoutMs: choice.timeoutMs, cwd: context.cwd, onRequest: context.onRequest, secrets: knownKeys(context.env) });
  }
  const envVar = choice.apiKeyEnv ?? (choice.provider ? DEFAULT_KEY_ENV[provider] : `${DEFAULT_KEY_ENV.anthropic} or ${DEFAULT_KEY_ENV.openai}`);
  const apiKey = context.env[choice.apiKeyEnv ?? DEFAULT_KEY_ENV[provider]]?.trim();
  if (!apiKey) throw createError('API_KEY_MISSING', { env_var: envVar });
  return createHttpAgent({
    provider,
    apiKey,
    model,
    baseUrl: choice.baseUrl,
    timeoutMs: choice.timeoutMs,
    maxRetries: choice.maxRetries,
    retryBaseMs: choice.retryBaseMs,
    maxRetryWaitMs: choice.maxRetryWaitMs,
    onRequest: context.onRequest,
  });
}

/** Keys present in the environment, so a local command's stderr cannot leak them through us. */
function knownKeys(env: Env): string[] {
  return Object.entries(env)
    .filter(([name, value]) => /API_KEY|TOKEN|SECRET/i.test(name) && typeof value === 'string' && value.length >= 8)
    .map(([, value]) => value!);
}
