import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Sha256 } from '@smithy/core/checksum';
import { createScope, getSigningKey, SignatureV4 } from '@smithy/signature-v4';
import S3rver from 's3rver';
import { instantMs } from '../../lib/dates';
import { LOCAL_STORAGE_CREDENTIALS } from '../../lib/evidence/storage';

/**
 * The local evidence storage (contract section 15): `s3rver`, an S3-compatible server from the
 * npm registry, keeping the bucket under `DATA_DIR/s3`, behind a thin front that does what S3
 * does and s3rver does not: it refuses unsigned requests, checks SigV4 signatures (headers and
 * presigned URLs, with the AWS SDK's own `@smithy/signature-v4`) and their expiry, and checks a
 * browser POST's policy (its signature, with the SDK's signing key, its expiry, and every
 * condition: key, content type, metadata, `content-length-range`) before the file is stored.
 * It answers as S3 does: the status and the XML error code.
 */

export const LOCAL_BUCKET = 'evidence';
const REGION = 'us-east-1';
/** The largest request the front reads (S3's own limit for a POST is 5 GB; locally this is plenty). */
const MAX_REQUEST_BYTES = 200 * 1024 * 1024;
/** S3 refuses a signed request whose time is further than this from its own. */
const MAX_SKEW_MS = 15 * 60 * 1000;

export interface LocalStorage {
  /** The front's address: what `S3_ENDPOINT` points at. */
  endpoint: string;
  bucket: string;
  close(): Promise<void>;
}

/** An S3 error: its status, code and message. */
class Refusal {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly message: string,
  ) {}
}

const accessDenied = (message = 'Access Denied') => new Refusal(403, 'AccessDenied', message);
const mismatch = () =>
  new Refusal(
    403,
    'SignatureDoesNotMatch',
    'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
  );
const policyRefusal = (why: string) => accessDenied(`Invalid according to Policy: ${why}`);

const signer = new SignatureV4({
  credentials: LOCAL_STORAGE_CREDENTIALS,
  region: REGION,
  service: 's3',
  sha256: Sha256,
  // S3 signs the path as sent, without encoding it twice.
  uriEscapePath: false,
});

/** `20261124T132207Z` as a date, or `undefined`. */
function amzDate(text: string | undefined): Date | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text ?? '');
  return m ? new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z`) : undefined;
}

const sameHex = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

/** The credential scope `key/date/region/s3/aws4_request`, checked against the local key pair. */
function checkCredential(credential: string | undefined, date: Date): Refusal | undefined {
  const [accessKeyId, ...scope] = (credential ?? '').split('/');
  if (accessKeyId !== LOCAL_STORAGE_CREDENTIALS.accessKeyId)
    return new Refusal(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');
  const shortDate = date.toISOString().slice(0, 10).replace(/-/g, '');
  if (scope.join('/') !== createScope(shortDate, REGION, 's3')) return mismatch();
  return undefined;
}

interface Incoming {
  method: string;
  url: URL;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

function queryOf(url: URL, drop: readonly string[]): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [key, value] of url.searchParams) {
    if (drop.includes(key)) continue;
    const had = query[key];
    query[key] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value];
  }
  return query;
}

const header = (req: Incoming, name: string): string => {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(',') : (value ?? '');
};

/** A presigned URL (query parameters): its signature, recomputed by the SDK's signer, and its expiry. */
async function checkPresigned(req: Incoming): Promise<Refusal | undefined> {
  const q = req.url.searchParams;
  if (q.get('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256') return accessDenied('Unsupported signing algorithm');
  const signedAt = amzDate(q.get('X-Amz-Date') ?? undefined);
  const expires = Number(q.get('X-Amz-Expires'));
  if (!signedAt || !Number.isInteger(expires) || expires < 1 || expires > 604_800)
    return new Refusal(
      400,
      'AuthorizationQueryParametersError',
      'X-Amz-Date and X-Amz-Expires must be given and valid.',
    );
  const refused = checkCredential(q.get('X-Amz-Credential') ?? undefined, signedAt);
  if (refused) return refused;
  if (Date.now() > signedAt.getTime() + expires * 1000) return accessDenied('Request has expired');
  if (signedAt.getTime() - Date.now() > MAX_SKEW_MS) return accessDenied('Request is not valid yet');
  // The payload hash travels as a query parameter; the signer reads it from the header it hoists back.
  const payload = q.get('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD';
  const signedHeaders = (q.get('X-Amz-SignedHeaders') ?? '').split(';').filter((h) => h !== '');
  const headers: Record<string, string> = { 'X-Amz-Content-Sha256': payload };
  for (const name of signedHeaders) headers[name] = header(req, name);
  const resigned = await signer.presign(
    {
      method: req.method,
      protocol: 'http:',
      hostname: req.url.hostname,
      port: Number(req.url.port),
      path: req.url.pathname,
      query: queryOf(req.url, ['X-Amz-Signature', 'X-Amz-Content-Sha256']),
      headers,
    },
    { signingDate: signedAt, expiresIn: expires },
  );
  return sameHex(String(resigned.query?.['X-Amz-Signature']), q.get('X-Amz-Signature') ?? '') ? undefined : mismatch();
}

const AUTHORIZATION = /^AWS4-HMAC-SHA256 Credential=([^,\s]+),\s*SignedHeaders=([^,\s]+),\s*Signature=([0-9a-f]{64})$/;

/** A request signed in its Authorization header (the service's own calls): signature, time and body hash. */
async function checkSigned(req: Incoming): Promise<Refusal | undefined> {
  const match = AUTHORIZATION.exec(header(req, 'authorization'));
  if (!match) return new Refusal(400, 'AuthorizationHeaderMalformed', 'The authorization header is malformed.');
  const [, credential, signedList, signature] = match as unknown as [string, string, string, string];
  const signedAt = amzDate(header(req, 'x-amz-date'));
  if (!signedAt) return accessDenied('AWS authentication requires a valid Date or x-amz-date header');
  const refused = checkCredential(credential, signedAt);
  if (refused) return refused;
  if (Math.abs(Date.now() - signedAt.getTime()) > MAX_SKEW_MS)
    return new Refusal(
      403,
      'RequestTimeTooSkewed',
      'The difference between the request time and the current time is too large.',
    );
  const payload = header(req, 'x-amz-content-sha256');
  if (/^[0-9a-f]{64}$/.test(payload) && createHash('sha256').update(req.body).digest('hex') !== payload)
    return new Refusal(
      400,
      'XAmzContentSHA256Mismatch',
      "The provided 'x-amz-content-sha256' header does not match what was computed.",
    );
  const headers: Record<string, string> = {};
  for (const name of signedList.split(';')) headers[name] = header(req, name);
  const resigned = await signer.sign(
    {
      method: req.method,
      protocol: 'http:',
      hostname: req.url.hostname,
      port: Number(req.url.port),
      path: req.url.pathname,
      query: queryOf(req.url, []),
      headers,
      body: req.body,
    },
    { signingDate: signedAt },
  );
  const computed = /Signature=([0-9a-f]{64})/.exec(String(resigned.headers.authorization))?.[1] ?? '';
  return sameHex(computed, signature) ? undefined : mismatch();
}

type Condition = ['eq' | 'starts-with', string, string] | ['content-length-range', number, number];

/** A policy's conditions in one form: `{"key": "v"}` is `["eq", "$key", "v"]`. */
function conditionsOf(raw: unknown[]): Condition[] | undefined {
  const conditions: Condition[] = [];
  for (const item of raw) {
    if (Array.isArray(item)) {
      const [op, a, b] = item as [unknown, unknown, unknown];
      const name = typeof op === 'string' ? op.toLowerCase() : '';
      if (name === 'content-length-range' && typeof a === 'number' && typeof b === 'number')
        conditions.push(['content-length-range', a, b]);
      else if (
        (name === 'eq' || name === 'starts-with') &&
        typeof a === 'string' &&
        a.startsWith('$') &&
        typeof b === 'string'
      )
        conditions.push([name, a.slice(1).toLowerCase(), b]);
      else return undefined;
    } else if (item && typeof item === 'object') {
      for (const [k, v] of Object.entries(item)) {
        if (typeof v !== 'string') return undefined;
        conditions.push(['eq', k.toLowerCase(), v]);
      }
    } else return undefined;
  }
  return conditions;
}

/** Form fields S3 never asks a policy to name. */
const UNCONDITIONED = new Set(['policy', 'x-amz-signature', 'file']);

/**
 * A browser POST: the policy's signature (the SDK's signing key, as `@aws-sdk/s3-presigned-post`
 * derives it), its expiry, then each condition against the form, and no field the policy does not name.
 */
async function checkPost(req: Incoming, bucket: string): Promise<Refusal | undefined> {
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(req.body), {
      headers: { 'content-type': header(req, 'content-type') },
    }).formData();
  } catch {
    return new Refusal(
      400,
      'MalformedPOSTRequest',
      'The body of your POST request is not well-formed multipart/form-data.',
    );
  }
  const fields = new Map<string, string>();
  let file: Blob | undefined;
  let files = 0;
  for (const [name, value] of form) {
    const lower = name.toLowerCase();
    if (lower === 'file') {
      files++;
      file ??= typeof value === 'string' ? new Blob([value]) : value;
      continue;
    }
    // A field given twice (`key` and `Key`, say) would let the policy check one value while the
    // store takes the other: S3 refuses such a form, whatever the case of the names.
    if (fields.has(lower))
      return new Refusal(400, 'InvalidArgument', `POST requires exactly one value of each form field: ${lower}`);
    if (typeof value === 'string') fields.set(lower, value);
  }
  if (files > 1) return new Refusal(400, 'InvalidArgument', 'POST requires exactly one file upload per request.');
  const policy = fields.get('policy');
  const signature = fields.get('x-amz-signature');
  // Without a policy a POST is an anonymous write, which a private bucket refuses.
  if (!policy || !signature) return accessDenied();
  if (!file) return new Refusal(400, 'InvalidArgument', 'POST requires exactly one file upload per request.');
  if (fields.get('x-amz-algorithm') !== 'AWS4-HMAC-SHA256') return policyRefusal('Unsupported algorithm');
  const signedAt = amzDate(fields.get('x-amz-date'));
  if (!signedAt) return policyRefusal('x-amz-date is missing or malformed');
  const refused = checkCredential(fields.get('x-amz-credential'), signedAt);
  if (refused) return refused;
  const shortDate = signedAt.toISOString().slice(0, 10).replace(/-/g, '');
  const key = await getSigningKey(Sha256, LOCAL_STORAGE_CREDENTIALS, shortDate, REGION, 's3');
  const expected = createHmac('sha256', Buffer.from(key)).update(policy, 'utf8').digest('hex');
  if (!sameHex(expected, signature)) return mismatch();

  let document: { expiration?: unknown; conditions?: unknown };
  try {
    document = JSON.parse(Buffer.from(policy, 'base64').toString('utf8'));
  } catch {
    return new Refusal(400, 'InvalidPolicyDocument', 'Invalid Policy: Invalid JSON.');
  }
  const expiration = typeof document.expiration === 'string' ? instantMs(document.expiration) : Number.NaN;
  if (!Number.isFinite(expiration))
    return new Refusal(400, 'InvalidPolicyDocument', 'Invalid Policy: Invalid expiration.');
  if (Date.now() > expiration) return policyRefusal('Policy expired.');
  const conditions = Array.isArray(document.conditions) ? conditionsOf(document.conditions) : undefined;
  if (!conditions) return new Refusal(400, 'InvalidPolicyDocument', 'Invalid Policy: Invalid conditions.');

  const values = new Map(fields);
  values.set('bucket', values.get('bucket') ?? bucket);
  if (values.get('bucket') !== bucket) return policyRefusal(`Policy Condition failed: ["eq", "$bucket", "${bucket}"]`);
  const named = new Set<string>();
  for (const condition of conditions) {
    if (condition[0] === 'content-length-range') {
      const [, min, max] = condition;
      if (file.size > max)
        return new Refusal(400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size');
      if (file.size < min)
        return new Refusal(400, 'EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed size');
      continue;
    }
    const [op, name, want] = condition;
    named.add(name);
    const got = values.get(name) ?? '';
    if (op === 'eq' ? got !== want : !got.startsWith(want))
      return policyRefusal(`Policy Condition failed: ["${op}", "$${name}", ${JSON.stringify(want)}]`);
  }
  const extra = [...fields.keys()].filter((f) => !named.has(f) && !UNCONDITIONED.has(f) && !f.startsWith('x-ignore-'));
  if (extra.length > 0) return policyRefusal(`Extra input fields: ${extra.join(', ')}`);
  return undefined;
}

async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_REQUEST_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

const xmlEscape = (s: string) => s.replace(/[<>&]/g, (c) => `&#${c.charCodeAt(0)};`);

function refuse(res: ServerResponse, refusal: Refusal) {
  res.writeHead(refusal.status, { 'content-type': 'application/xml', 'access-control-allow-origin': '*' });
  res.end(
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${refusal.code}</Code><Message>${xmlEscape(refusal.message)}</Message></Error>`,
  );
}

/** What S3's CORS rules would allow a browser: the console uploads from its own origin. */
const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, HEAD, POST',
  'access-control-allow-headers': '*',
  'access-control-expose-headers': 'ETag',
  'access-control-max-age': '3000',
};

async function decide(req: Incoming, bucket: string): Promise<Refusal | undefined> {
  const isFormPost =
    req.method === 'POST' &&
    req.url.pathname === `/${bucket}` &&
    header(req, 'content-type').toLowerCase().startsWith('multipart/form-data');
  if (isFormPost) return checkPost(req, bucket);
  if (req.url.searchParams.has('X-Amz-Algorithm')) return checkPresigned(req);
  if (req.headers.authorization !== undefined) return checkSigned(req);
  return accessDenied();
}

/** What the handlers read (`lib/config.ts`) to reach the local storage. */
export const storageEnvironment = (storage: LocalStorage): Record<string, string> => ({
  S3_ENDPOINT: storage.endpoint,
  EVIDENCE_BUCKET: storage.bucket,
});

/** Starts s3rver on `directory` (or a temporary one) and the front before it, both on loopback. */
export async function startStorage(options: { directory?: string } = {}): Promise<LocalStorage> {
  const directory = options.directory ?? mkdtempSync(join(tmpdir(), 'evidence-s3-'));
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  const backend = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory,
    silent: true,
    // The front has checked every signature already; s3rver checks none of the SigV4 ones anyway.
    allowMismatchedSignatures: true,
    configureBuckets: [{ name: LOCAL_BUCKET, configs: [] }],
  });
  const { port: backendPort } = await backend.run();

  const front = createServer((incoming, res) => {
    void (async () => {
      if (incoming.method === 'OPTIONS') {
        res.writeHead(200, CORS_HEADERS).end();
        return;
      }
      const body = await readBody(incoming);
      if (!body)
        return refuse(res, new Refusal(400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size'));
      const req: Incoming = {
        method: incoming.method ?? 'GET',
        url: new URL(incoming.url ?? '/', `http://${incoming.headers.host ?? '127.0.0.1'}`),
        headers: incoming.headers,
        body,
      };
      const refusal = await decide(req, LOCAL_BUCKET);
      if (refusal) return refuse(res, refusal);
      const forwarded = httpRequest(
        { host: '127.0.0.1', port: backendPort, method: req.method, path: incoming.url, headers: incoming.headers },
        (answer) => {
          // S3 serves the stored content type; the front also tells browsers not to guess another.
          const reading = req.method === 'GET' || req.method === 'HEAD';
          res.writeHead(answer.statusCode ?? 502, {
            ...answer.headers,
            ...CORS_HEADERS,
            ...(reading ? { 'x-content-type-options': 'nosniff' } : {}),
          });
          answer.pipe(res);
        },
      );
      forwarded.on('error', () =>
        refuse(res, new Refusal(503, 'ServiceUnavailable', 'Please reduce your request rate.')),
      );
      forwarded.end(body);
    })().catch((error: unknown) => {
      console.error('local storage:', error instanceof Error ? error.message : error);
      if (!res.headersSent)
        refuse(res, new Refusal(500, 'InternalError', 'We encountered an internal error. Please try again.'));
    });
  });
  front.listen(0, '127.0.0.1');
  await once(front, 'listening');
  const { port } = front.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket: LOCAL_BUCKET,
    close: async () => {
      front.closeAllConnections();
      await new Promise<void>((r) => front.close(() => r()));
      await backend.close();
      if (!options.directory) rmSync(directory, { recursive: true, force: true });
    },
  };
}
