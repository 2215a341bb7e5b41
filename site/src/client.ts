/** The page's side of the worker protocol: one promise per request. */
import type { InitMessage, RequestType, Requests, ResponseMessage } from './protocol.js';

export class QueryError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface Client {
  request<K extends RequestType>(type: K, params: Requests[K][0]): Promise<Requests[K][1]>;
}

export function createClient(base: string): Client {
  const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let next = 1;
  worker.onmessage = (event: MessageEvent<ResponseMessage>) => {
    const message = event.data;
    const waiter = pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id);
    if (message.ok) waiter.resolve(message.result);
    else waiter.reject(new QueryError(message.error.code, message.error.message));
  };
  worker.postMessage({ base } satisfies InitMessage);
  return {
    request(type, params) {
      const id = next++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
        worker.postMessage({ id, type, params });
      });
    },
  };
}
