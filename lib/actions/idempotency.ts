import { createHash, randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { HttpError, ValidationError } from '../errors';
import { AGAIN, retry } from '../flow/retry';
import type { ApiEvent } from '../http/edge';
import type { Person } from '../model/action';
import { claimKey, completeKey, readKey, releaseKey, takeKey } from '../store/actions/idempotency';
import type { GuardedWrite } from '../store/actions/writes';

/**
 * The `Idempotency-Key` header (draft-ietf-httpapi-idempotency-key-header-07) on the creating
 * POSTs. Keys belong to the caller (the token's `sub`) and last 24 hours. The first request
 * claims its key with a lease; the create writes the key's completed record, with the response,
 * in the create's own transaction, so no crash leaves one without the other. A repeat with the
 * same body gets that response again; with another body, a 422; while the first still runs, a 409.
 */

/** How long a claim holds without its request finishing (well past the API's 10 s timeout). */
const LEASE_MS = 30_000;

/** What a creating route answers, as a repeat gets it again. */
export interface Reply {
  status: number;
  body: unknown;
  location?: string;
}

/** Stored with a completed key: the reply, less the top-level fields that repeat the request body's own. */
interface StoredReply {
  status: number;
  body: Record<string, unknown>;
  location?: string;
  /** Fields left out because the request body has them, and a repeat (same body) restores them. */
  fromRequest?: string[];
  /** The body's fields in their first order, when some were left out. */
  order?: string[];
}

const problem = (status: 409 | 422, detail: string) =>
  new HttpError(status, status === 409 ? 'Conflict' : 'Unprocessable Content', detail, 'idempotency-key', [
    { parameter: 'Idempotency-Key', message: detail },
  ]);

const inFlight = () =>
  problem(409, 'A request with this Idempotency-Key is still being processed; retry it once that one has answered.');
const reused = () =>
  problem(
    422,
    'This Idempotency-Key was used with another request (method, path or body); use a new key for a new request.',
  );

/**
 * The key a header sends: 1-255 printable ASCII characters. The draft makes the header a
 * structured-field string (`"abc"`); a key sent that way is the text between the quotes.
 */
export function idempotencyKeyFrom(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const quoted = /^"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"$/.exec(header);
  const key = quoted ? (quoted[1] as string).replace(/\\(["\\])/g, '$1') : header;
  if (!/^[\x20-\x7e]{1,255}$/.test(key)) {
    throw new ValidationError([
      { parameter: 'Idempotency-Key', message: 'must be 1 to 255 printable ASCII characters' },
    ]);
  }
  return key;
}

/** JSON with object keys in one order, so equal bodies digest alike however their fields were ordered. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const digest = (...parts: string[]) => createHash('sha256').update(parts.join('\n')).digest('base64url');

export interface IdempotentRequest {
  caller: Person;
  header: string | undefined;
  method: string;
  path: string;
  body: unknown;
}

/** What of a request its idempotency key is bound to. */
export const requestOf = (event: ApiEvent): IdempotentRequest => ({
  caller: event.caller,
  header: event.headers?.['idempotency-key'],
  method: event.requestContext?.http?.method ?? 'POST',
  path: event.rawPath,
  body: event.body,
});

/**
 * Runs a create at most once per caller and key. `create` gets `remember` when a key was sent,
 * and must pass what it makes to the store so the completed key joins the create's transaction.
 * `replayable` is asked before a repeat gets the first response again, and throws what the
 * caller must get instead (a comment's action they no longer see is a 404, as any unseen one).
 */
export async function once<T>(
  request: IdempotentRequest,
  reply: (made: T) => Reply,
  create: (remember?: (made: T) => GuardedWrite) => Promise<T>,
  replayable?: () => Promise<void>,
): Promise<Reply> {
  const key = idempotencyKeyFrom(request.header);
  if (key === undefined) return reply(await create());
  const keyDigest = digest(request.caller.id, key);
  const fingerprint = digest(request.method, request.path, canonical(request.body));
  const token = randomUUID();
  return retry(
    async () => {
      if (await claimKey(keyDigest, fingerprint, token, LEASE_MS)) {
        const remember = (made: T) =>
          completeKey(keyDigest, fingerprint, token, shrink(reply(made), request.body), inFlight);
        try {
          return reply(await create(remember));
        } catch (error) {
          await releaseKey(keyDigest, token).catch(() => undefined);
          throw error;
        }
      }
      const record = await readKey(keyDigest);
      // Gone between the claim and the read (expired, or released by a failed first request): claim again.
      if (!record) return AGAIN;
      if (record.fingerprint !== fingerprint) throw reused();
      if (record.state === 'pending') throw inFlight();
      await replayable?.();
      return expand(record.response as StoredReply, request.body);
    },
    {
      attempts: 3,
      exhausted: () => {
        throw inFlight();
      },
    },
  );
}

/** The key was taken before this create's transaction: what it holds decides the answer. */
class KeyTaken extends Error {}

/**
 * `once` for a create the service makes itself with no client waiting on the key (an import's
 * rows): no claim before it. The completed record joins the create's transaction on the
 * condition a claim would have (the key free, expired, or a lapsed claim), so a row costs one
 * write instead of two and no lease. It is the record `once` writes (same caller, key and
 * fingerprint), so either way a repeat gets the first response and creates nothing; the key
 * held by a request still running is the same `409`.
 */
export async function onceInOneWrite<T>(
  request: IdempotentRequest & { header: string },
  reply: (made: T) => Reply,
  create: (remember: (made: T) => GuardedWrite) => Promise<T>,
): Promise<Reply> {
  const key = idempotencyKeyFrom(request.header) as string;
  const keyDigest = digest(request.caller.id, key);
  const fingerprint = digest(request.method, request.path, canonical(request.body));
  const taken = () => new KeyTaken();
  return retry(
    async () => {
      try {
        return reply(await create((made) => takeKey(keyDigest, fingerprint, shrink(reply(made), request.body), taken)));
      } catch (error) {
        if (!(error instanceof KeyTaken)) throw error;
      }
      const record = await readKey(keyDigest);
      // Expired or released between the write and the read: write again.
      if (!record) return AGAIN;
      if (record.fingerprint !== fingerprint) throw reused();
      if (record.state === 'pending') throw inFlight();
      return expand(record.response as StoredReply, request.body);
    },
    {
      attempts: 3,
      exhausted: () => {
        throw inFlight();
      },
    },
  );
}

function shrink(reply: Reply, requestBody: unknown): StoredReply {
  const body = { ...(reply.body as Record<string, unknown>) };
  const sent = (requestBody ?? {}) as Record<string, unknown>;
  const fromRequest = Object.keys(body).filter((k) => k in sent && isDeepStrictEqual(body[k], sent[k]));
  for (const k of fromRequest) delete body[k];
  return {
    status: reply.status,
    body,
    ...(reply.location !== undefined ? { location: reply.location } : {}),
    ...(fromRequest.length > 0 ? { fromRequest, order: Object.keys(reply.body as object) } : {}),
  };
}

function expand(stored: StoredReply, requestBody: unknown): Reply {
  const sent = (requestBody ?? {}) as Record<string, unknown>;
  const whole: Record<string, unknown> = { ...stored.body };
  for (const k of stored.fromRequest ?? []) whole[k] = sent[k];
  const body = stored.order ? Object.fromEntries(stored.order.map((k) => [k, whole[k]])) : whole;
  return {
    status: stored.status,
    body,
    ...(stored.location !== undefined ? { location: stored.location } : {}),
  };
}
