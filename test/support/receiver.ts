import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A webhook receiver for tests: a plain node:http server on 127.0.0.1 that records every request
 * and answers as the test says (a status, a hang, a redirect, an endless body).
 */

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
  /** The parsed body, when it is JSON. */
  json?: any;
}

export type Behaviour = 'hang' | 'endless' | number | ((request: Received, response: ServerResponse) => void);

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** Answers in turn; the last one repeats. Default: 200. */
  answers: Behaviour[];
  /** Requests whose `data.id` (an action id) is `id`, or whose type is `type`. */
  about(filter: { id?: string; type?: string }): Received[];
  /** Waits until `count` requests pass `filter`; fails after `timeoutMs`. */
  waitFor(filter: (r: Received) => boolean, count?: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(answers: Behaviour[] = [200]): Promise<Receiver> {
  const received: Received[] = [];
  let turn = 0;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const entry: Received = { headers: request.headers, body, at: Date.now(), json };
      received.push(entry);
      const answer = receiver.answers[Math.min(turn++, receiver.answers.length - 1)] ?? 200;
      if (answer === 'hang') return;
      if (answer === 'endless') {
        response.writeHead(200, { 'content-type': 'application/octet-stream' });
        const block = Buffer.alloc(64 * 1024, 120);
        const pump = () => {
          while (!response.destroyed && response.write(block)) {
            /* keep writing until the socket pushes back */
          }
          if (!response.destroyed) response.once('drain', pump);
        };
        pump();
        return;
      }
      if (typeof answer === 'function') return answer(entry, response);
      response.writeHead(answer, answer >= 300 && answer < 400 ? { location: 'http://127.0.0.1:1/elsewhere' } : {});
      response.end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const receiver: Receiver = {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    answers,
    about: ({ id, type }) =>
      received.filter(
        (r) => (id === undefined || r.json?.data?.id === id) && (type === undefined || r.json?.type === type),
      ),
    waitFor: async (filter, count = 1, timeoutMs = 30_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = received.filter(filter);
        if (found.length >= count) return found;
        if (Date.now() > deadline)
          throw new Error(`only ${found.length} of ${count} requests arrived within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
  return receiver;
}

/**
 * Answers `status` to the first request of each webhook-id and 200 to the rest: a retry test that
 * holds whatever else the shared stack sends the same receiver. `delayMs`: the first answer of
 * each comes that much later (an attempt still in flight).
 */
export function firstAttemptAnswers(status: number, { delayMs = 0 } = {}): Behaviour {
  const seen = new Set<string>();
  return (request, response) => {
    const id = String(request.headers['webhook-id']);
    const first = !seen.has(id);
    seen.add(id);
    const answer = first ? status : 200;
    setTimeout(
      () => {
        response.writeHead(answer, answer >= 300 && answer < 400 ? { location: 'http://127.0.0.1:1/elsewhere' } : {});
        response.end();
      },
      first ? delayMs : 0,
    );
  };
}
