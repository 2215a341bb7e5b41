/**
 * A local stand-in for the Anthropic / OpenAI APIs on 127.0.0.1 (no internet in tests). Each
 * request is answered by the next scripted reply (the last one repeats); every request is recorded.
 * `close()` drops open connections, so a deliberately slow reply never keeps the test alive.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StubRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  body: string;
  /** Wait this long before answering (timeouts). */
  delayMs?: number;
}

export interface Stub {
  url: string;
  requests: StubRequest[];
  /** Replaces the script. */
  script(replies: Reply[]): void;
  close(): Promise<void>;
}

export async function startStub(replies: Reply[] = []): Promise<Stub> {
  let queue = [...replies];
  const requests: StubRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      const reply = queue.length > 1 ? queue.shift()! : queue[0] ?? { status: 500, body: '{"error":{"message":"no script"}}' };
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
        res.end(reply.body);
      };
      if (reply.delayMs) {
        const timer = setTimeout(send, reply.delayMs);
        timers.add(timer);
      } else send();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script(next) {
      queue = [...next];
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

/** An Anthropic Messages API success whose text is `text`. */
export function anthropicReply(text: string): Reply {
  return { body: JSON.stringify({ id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'text', text }], stop_reason: 'end_turn' }) };
}

/** An OpenAI chat-completions success whose content is `text`. */
export function openaiReply(text: string): Reply {
  return { body: JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }] }) };
}

/** A well-formed enrichment answer. */
export function enrichmentJson(relations: unknown[] = [], summary = 'Crea un pedido en borrador a partir del carrito del cliente.'): string {
  return JSON.stringify({ summary, implicit_relations: relations, impact_notes: ['Cambios en Pedido afectan a este comando.'] });
}
