import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { Agent, createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A small HTTP proxy on 127.0.0.1 in front of the real store, switchable at runtime between
 * passing requests through and the faults a DynamoDB client meets in production: throttling
 * answered the way DynamoDB answers it, connections reset, the endpoint gone, or a store that
 * accepts a request and never answers. No SDK or service code is replaced.
 */

export type Fault =
  /** HTTP 400 with DynamoDB's `ProvisionedThroughputExceededException` body. */
  | 'throughput-exceeded'
  /** HTTP 400 with DynamoDB's `ThrottlingException` body. */
  | 'throttling'
  /** Every connection is destroyed as soon as it is accepted. */
  | 'reset'
  /** Nothing listens on the port any more (connections are refused). */
  | 'down'
  /** Requests are read and never answered. */
  | 'hang'
  /** The request reaches the store, which acts on it, and the reply is lost on the way back. */
  | 'lose-reply'
  /** A TransactWriteItems cancelled because another transaction held one of its items (other calls pass). */
  | 'transaction-conflict'
  /**
   * HTTP 500 as DynamoDB Local (never DynamoDB) answers a write that waited too long for its lock,
   * under a burst it runs one transaction at a time.
   */
  | 'lock-timeout';

export type Mode = 'pass' | Fault;

const ERRORS: Partial<Record<Fault, { type: string; message: string; status?: number }>> = {
  'throughput-exceeded': {
    type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException',
    message:
      'The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API.',
  },
  throttling: {
    type: 'com.amazon.coral.availability#ThrottlingException',
    message: 'Rate of requests exceeds the allowed throughput.',
  },
  // Its words, as DynamoDB Local 1.25.1 sends them.
  'lock-timeout': {
    type: 'com.amazonaws.dynamodb.v20120810#InternalServerError',
    message:
      'This action timed out because it too long waiting for a lock. This request will succeed in actual DynamoDB API',
    status: 500,
  },
};

export interface FaultProxy {
  /** The endpoint to give the service instead of the store's. */
  readonly url: string;
  readonly mode: Mode;
  /** Requests (not connections) seen since the last `set` or `failNext`, by what happened to them. */
  readonly seen: { passed: number; failed: number };
  /** Switches every later request (and, for `reset`/`down`, every open connection) to `mode`. */
  set(mode: Mode): Promise<void>;
  /**
   * Fails only the next `count` requests with `fault`, then passes again. With `transactionsOnly`,
   * only transactions meet the fault and are counted in `seen` (a request's other store calls,
   * such as the caller's quota write, pass untouched).
   */
  failNext(
    count: number,
    fault: 'throughput-exceeded' | 'throttling' | 'lose-reply' | 'transaction-conflict' | 'lock-timeout',
    options?: { transactionsOnly?: boolean },
  ): Promise<void>;
  close(): Promise<void>;
}

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const upstream = new URL(target);
  const agent = new Agent({ keepAlive: true });
  const sockets = new Set<Socket>();
  const hanging = new Set<ServerResponse>();
  let mode: Mode = 'pass';
  let failures: { left: number; fault: Fault; transactionsOnly?: boolean } | undefined;
  const seen = { passed: 0, failed: 0 };

  const server = createServer((req, res) => answer(req, res));
  server.on('connection', (socket: Socket) => {
    if (mode === 'reset') {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  function answer(req: IncomingMessage, res: ServerResponse) {
    let fault: Mode = mode;
    const transaction = String(req.headers['x-amz-target']).endsWith('.TransactWriteItems');
    if (failures?.transactionsOnly && !transaction) {
      forward(req, res);
      return;
    }
    if (failures?.fault === 'transaction-conflict' && !transaction) {
      // Only transactions meet this fault; the reads around them pass untouched and uncounted.
    } else if (failures && failures.left > 0) {
      failures.left--;
      fault = failures.fault;
    }
    if (fault === 'pass') {
      seen.passed++;
      forward(req, res);
      return;
    }
    if (fault === 'lose-reply') {
      seen.failed++;
      forward(req, res, true);
      return;
    }
    seen.failed++;
    if (fault === 'reset' || fault === 'down') {
      req.socket.destroy();
      return;
    }
    if (fault === 'transaction-conflict') {
      req.resume();
      req.once('end', () => {
        const body = JSON.stringify({
          __type: 'com.amazonaws.dynamodb.v20120810#TransactionCanceledException',
          message:
            'Transaction cancelled, please refer cancellation reasons for specific reasons [TransactionConflict]',
          CancellationReasons: [{ Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' }],
        });
        res.writeHead(400, {
          'content-type': 'application/x-amz-json-1.0',
          'content-length': Buffer.byteLength(body),
          'x-amzn-requestid': randomUUID(),
        });
        res.end(body);
      });
      return;
    }
    if (fault === 'hang') {
      req.resume();
      hanging.add(res);
      res.once('close', () => hanging.delete(res));
      return;
    }
    const error = ERRORS[fault] as { type: string; message: string; status?: number };
    req.resume();
    req.once('end', () => {
      const body = JSON.stringify({ __type: error.type, message: error.message });
      res.writeHead(error.status ?? 400, {
        'content-type': 'application/x-amz-json-1.0',
        'content-length': Buffer.byteLength(body),
        'x-amzn-requestid': randomUUID(),
      });
      res.end(body);
    });
  }

  function forward(req: IncomingMessage, res: ServerResponse, loseReply = false) {
    const outgoing = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host },
        agent,
      },
      (reply) => {
        if (loseReply) {
          reply.resume();
          reply.once('end', () => req.socket.destroy());
          return;
        }
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
      },
    );
    outgoing.on('error', () => req.socket.destroy());
    req.pipe(outgoing);
  }

  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  const dropConnections = () => {
    for (const res of hanging) res.socket?.destroy();
    hanging.clear();
    for (const socket of sockets) socket.destroy();
    sockets.clear();
  };

  const stopListening = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
      dropConnections();
    });

  async function set(next: Mode) {
    failures = undefined;
    seen.passed = 0;
    seen.failed = 0;
    if (next === 'down') {
      mode = next;
      await stopListening();
      return;
    }
    if (!server.listening) {
      server.listen(port, '127.0.0.1');
      await once(server, 'listening');
    }
    // Keep-alive connections opened before a switch must meet the new behaviour too.
    if (next === 'reset' || mode === 'hang' || mode === 'reset') dropConnections();
    mode = next;
  }

  return {
    url: `http://127.0.0.1:${port}`,
    get mode() {
      return mode;
    },
    seen,
    set,
    async failNext(count, fault, options = {}) {
      await set('pass');
      failures = { left: count, fault, ...options };
    },
    async close() {
      await stopListening();
      agent.destroy();
    },
  };
}
