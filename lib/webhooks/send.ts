import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isPublicAddress } from './address';

/**
 * One HTTP attempt of a webhook delivery, built so that a hostile or broken receiver costs the
 * service nothing but its own attempt: the whole attempt (connect, send, answer) has one
 * deadline, a redirect is an answer like any other (never followed), only the status line and at
 * most 4 KB of headers are read before the socket is destroyed, and no connection is kept.
 *
 * Unless private addresses are allowed, the connection goes only to a public address: a literal
 * host is checked before connecting, and a name is resolved by our own `lookup`, which refuses
 * when ANY address it resolves to is not public. The socket connects only to what that lookup
 * returned, so a name that rebinds between the check and the connect cannot slip through.
 */

/** The most header bytes read from a receiver; its body is never read. */
const MAX_RESPONSE_HEADER_BYTES = 4096;

export interface AttemptRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  allowPrivate: boolean;
  /** Resolves names; tests pass one that answers what they need. Default: the system resolver. */
  lookup?: typeof dnsLookup;
}

export interface AttemptResult {
  durationMs: number;
  responseStatus?: number;
  /** Why the attempt failed: one of `AttemptError`, or `HTTP <status>` for an answer outside 2xx. */
  error?: string;
}

/**
 * The few words an attempt's error may say (contract section 9). Deliberately coarse: a refused
 * port, a name that does not resolve and a reset all read `connection failed`, every TLS fault
 * `TLS failed`, so the sender tells a subscriber nothing a port prober of public hosts could use.
 */
export type AttemptError = 'connection failed' | 'timed out' | 'TLS failed' | 'address not allowed';

export const ADDRESS_NOT_ALLOWED: AttemptError = 'address not allowed';

class AddressNotAllowed extends Error {
  code = 'EADDRNOTALLOWED';
  constructor() {
    super(ADDRESS_NOT_ALLOWED);
  }
}

/** A `lookup` for http(s).request that refuses names with any non-public address. */
export function publicOnlyLookup(resolve: typeof dnsLookup = dnsLookup): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const all = addresses as unknown as LookupAddress[];
      if (all.length === 0 || all.some((a) => !isPublicAddress(a.address))) {
        return callback(new AddressNotAllowed(), '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, all);
      const first = all[0] as LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}

/** Sends one POST and reports how it went; never throws. */
export function attempt(request: AttemptRequest): Promise<AttemptResult> {
  const started = Date.now();
  const finish = (result: Omit<AttemptResult, 'durationMs'>): AttemptResult => ({
    durationMs: Date.now() - started,
    ...result,
  });
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return Promise.resolve(finish({ error: 'connection failed' satisfies AttemptError }));
  }
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (!request.allowPrivate) {
    // Node connects to a literal address without calling `lookup`: check it here.
    if (isIP(host) !== 0 && !isPublicAddress(host)) return Promise.resolve(finish({ error: ADDRESS_NOT_ALLOWED }));
    // Subscriptions take only https URLs here; one stored under WEBHOOKS_ALLOW_PRIVATE is refused.
    if (url.protocol !== 'https:') return Promise.resolve(finish({ error: ADDRESS_NOT_ALLOWED }));
  }
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const done = (result: Omit<AttemptResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outgoing.destroy();
      resolve(finish(result));
    };
    const outgoing = send(url, {
      method: 'POST',
      headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)), connection: 'close' },
      // A fresh connection per attempt: nothing pooled outlives the attempt.
      agent: false,
      maxHeaderSize: MAX_RESPONSE_HEADER_BYTES,
      ...(request.allowPrivate
        ? request.lookup
          ? { lookup: request.lookup as never }
          : {}
        : { lookup: publicOnlyLookup(request.lookup) }),
    });
    const timer = setTimeout(() => done({ error: 'timed out' }), request.timeoutMs);
    outgoing.on('error', (error: NodeJS.ErrnoException) => done({ error: categoryOf(error) }));
    // The status is all a delivery needs: the socket goes as soon as it is known, so a receiver
    // that answers a gigabyte, or never finishes its answer, costs nothing more.
    outgoing.on('response', (response: IncomingMessage) => {
      const status = response.statusCode ?? 0;
      done({ responseStatus: status, ...(status >= 200 && status < 300 ? {} : { error: `HTTP ${status}` }) });
    });
    outgoing.end(request.body);
  });
}

/** The category of a network error; its code and message stay out of the answer. */
function categoryOf(error: NodeJS.ErrnoException): AttemptError {
  if (error instanceof AddressNotAllowed) return ADDRESS_NOT_ALLOWED;
  const code = error.code ?? '';
  if (code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL') || /CERT|SELF_SIGNED|ALTNAME|SSL/.test(code))
    return 'TLS failed';
  return 'connection failed';
}
