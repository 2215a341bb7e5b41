/**
 * JSON request bodies with limits (#5): size (413), content type (415), time (504), syntax (400).
 * Everything that goes wrong becomes a {@link KddError} from the one error table.
 */
import type { IncomingMessage } from 'node:http';
import { createError, type KddError } from '../model/errors.js';

export interface BodyLimits {
  /** Largest accepted body, bytes. */
  maxBytes: number;
  /** Time allowed to receive the whole body, ms. */
  timeoutMs: number;
  /**
   * Deepest array/object nesting accepted. Default 32. Params are flat; deep nesting only serves
   * to exhaust the stack of recursive code downstream (`JSON.stringify` in error messages).
   */
  maxDepth?: number;
}

/**
 * Over this many times `maxBytes`, a body is not even drained: the answer is sent at once and the
 * connection closed. Below it the excess is read and thrown away so the client sees a clean 413.
 */
const DRAIN_FACTOR = 16;

/** Outcome that tells the HTTP layer whether the connection can be kept. */
export class BodyError extends Error {
  constructor(
    readonly error: KddError,
    /** True when unread bytes remain on the socket: answer with `Connection: close`. */
    readonly closeConnection: boolean,
  ) {
    super(error.message);
  }
}

/**
 * Reads a JSON body. An absent or empty body is `{}` whatever its content type, so a bare
 * `POST` reaches the query and gets the query's own error (e.g. `QUERY_TOO_SHORT`).
 * @throws BodyError
 */
export async function readJsonBody(req: IncomingMessage, limits: BodyLimits): Promise<unknown> {
  const declared = req.headers['content-length'];
  const chunked = req.headers['transfer-encoding'] !== undefined;
  if (!chunked && (declared === undefined || declared === '0')) return {};

  const declaredBytes = declared === undefined ? 0 : Number(declared);
  if (declaredBytes > limits.maxBytes * DRAIN_FACTOR) throw new BodyError(tooLarge(limits), true);
  if (!isJsonType(req.headers['content-type'])) {
    const drained = await drain(req, limits, limits.maxBytes * DRAIN_FACTOR);
    throw new BodyError(createError('UNSUPPORTED_MEDIA_TYPE', { content_type: req.headers['content-type'] ?? '(none)' }), !drained);
  }
  if (declaredBytes > limits.maxBytes) {
    const drained = await drain(req, limits, limits.maxBytes * DRAIN_FACTOR);
    throw new BodyError(tooLarge(limits), !drained);
  }

  const bytes = await collect(req, limits);
  if (bytes.byteLength === 0) return {};
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new BodyError(invalidBody('is not valid UTF-8'), false);
  }
  const depth = nestingDepth(text);
  if (depth > (limits.maxDepth ?? 32)) throw new BodyError(invalidBody(`nests deeper than ${limits.maxDepth ?? 32} levels`), false);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new BodyError(invalidBody(`is not valid JSON (${(error as Error).message})`), false);
  }
}

/** `application/json`, optionally with parameters (`; charset=utf-8`); `+json` types too. */
export function isJsonType(header: string | undefined): boolean {
  if (!header) return false;
  const type = header.split(';', 1)[0]!.trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

/** Deepest `[`/`{` nesting outside strings (a linear scan, run before JSON.parse). */
export function nestingDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) max = Math.max(max, ++depth);
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return max;
}

const tooLarge = (limits: BodyLimits) => createError('PAYLOAD_TOO_LARGE', { limit: limits.maxBytes });
const invalidBody = (reason: string) => createError('INVALID_PARAMS', { field: 'body', reason });

function collect(req: IncomingMessage, limits: BodyLimits): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let overflow = false;
    const timer = setTimeout(() => finish(new BodyError(createError('TIMEOUT', { timeout_ms: limits.timeoutMs }), true)), limits.timeoutMs);
    const finish = (error: BodyError | null) => {
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('error', onError).off('aborted', onAbort);
      if (error) reject(error);
      else resolve(Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limits.maxBytes * DRAIN_FACTOR) {
        finish(new BodyError(tooLarge(limits), true));
        return;
      }
      if (size > limits.maxBytes) overflow = true;
      if (!overflow) chunks.push(chunk);
    };
    const onEnd = () => finish(overflow ? new BodyError(tooLarge(limits), false) : null);
    const onError = () => finish(new BodyError(invalidBody('could not be read'), true));
    const onAbort = onError;
    req.on('data', onData).on('end', onEnd).on('error', onError).on('aborted', onAbort);
  });
}

/** Reads and discards up to `cap` bytes; true when the body ended within the cap and time. */
function drain(req: IncomingMessage, limits: BodyLimits, cap: number): Promise<boolean> {
  return new Promise((resolve) => {
    let size = 0;
    const timer = setTimeout(() => done(false), limits.timeoutMs);
    const done = (complete: boolean) => {
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('error', onError);
      if (!complete) req.pause();
      resolve(complete);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > cap) done(false);
    };
    const onEnd = () => done(true);
    const onError = () => done(false);
    req.on('data', onData).on('end', onEnd).on('error', onError);
  });
}
