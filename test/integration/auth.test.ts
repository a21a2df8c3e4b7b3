import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_CLIENT_ID, LOCAL_REGION } from '../../infra/local/issuer';
import {
  actionBody,
  call,
  create,
  dataDir,
  expectProblem,
  getOne,
  list,
  newUser,
  q,
  type Reply,
  uniqueProducer,
} from '../support/client';
import { Forge, issuerFilesIn, trustedKid } from '../support/forge';

/**
 * The authentication matrix (OWASP API2, contract section 2): every near-miss token is a 401
 * that says only whether a token was missing, expired or not valid for this service (one and the
 * same problem body and `WWW-Authenticate` for each of the three), and none of them reaches the
 * domain: a valid body is not stored, an invalid one is not judged (401, not 400 or 415), an
 * action is neither changed nor deleted. Tokens are forged with the local issuer's key, changing
 * one thing at a time.
 */

const forge = new Forge(issuerFilesIn(dataDir()));
const mallory = { sub: randomUUID(), name: 'Mallory', email: 'mallory@example.com' };
const now = () => Math.floor(Date.now() / 1000);
const OTHER_POOL = `https://cognito-idp.${LOCAL_REGION}.amazonaws.com/${LOCAL_REGION}_OtherPool`;

type Reason = 'missing' | 'expired' | 'invalid';

/** What a client gets for each kind of failed authentication; learned once from the plainest cases. */
const unauthorized = {} as Record<Reason, Reply>;
const owner = newUser('Olive Owner');
let target: { id: string; before: unknown };

beforeAll(async () => {
  unauthorized.missing = await call('GET', '/api/actions');
  unauthorized.invalid = await call('GET', '/api/actions', { headers: { authorization: 'Bearer not-a-token' } });
  unauthorized.expired = await call('GET', '/api/actions', {
    token: forge.signed(mallory, { iat: now() - 7200, exp: now() - 3600 }),
  });
  const id = await create(owner.token, actionBody(uniqueProducer('auth-target')));
  target = { id, before: (await getOne(owner.token, id)).body };
});

/** `Authorization` header values (undefined: no header) that must all be refused, and why. */
const missing: Array<[string, () => string | undefined]> = [
  ['no Authorization header', () => undefined],
  ['an empty header', () => ''],
  ['Bearer with no token', () => 'Bearer '],
  ['Basic credentials', () => `Basic ${Buffer.from('mallory:secret').toString('base64')}`],
  ['a valid token under the Basic scheme', () => `Basic ${forge.signed(mallory)}`],
  ['a valid token with no scheme', () => forge.signed(mallory)],
  ['a valid token under another scheme', () => `Token ${forge.signed(mallory)}`],
  ['a valid token glued to the scheme', () => `Bearer${forge.signed(mallory)}`],
];
const expired: Array<[string, () => string | undefined]> = [
  ['expired 7 s ago (beyond the 5 s leeway)', () => `Bearer ${forge.signed(mallory, { exp: now() - 7 })}`],
  ['expired an hour ago', () => `Bearer ${forge.signed(mallory, { iat: now() - 7200, exp: now() - 3600 })}`],
  ['expired, under a lower-case scheme', () => `bearer ${forge.signed(mallory, { exp: now() - 60 })}`],
];
const invalid: Array<[string, () => string | undefined]> = [
  ['garbage', () => 'Bearer not-a-token'],
  ['three parts of garbage', () => 'Bearer abc.def.ghi'],
  ['characters outside base64url', () => 'Bearer e30=.e30=.e30='],
  ['a two-part token', () => `Bearer ${forge.signed(mallory).split('.').slice(0, 2).join('.')}`],
  ['a two-part token with a trailing dot', () => `Bearer ${forge.signed(mallory).split('.').slice(0, 2).join('.')}.`],
  ['a four-part token', () => `Bearer ${forge.signed(mallory)}.e30`],
  ['a five-part (JWE-shaped) token', () => `Bearer ${forge.signed(mallory)}.e30.e30`],
  ['two tokens', () => `Bearer ${forge.signed(mallory)} ${forge.signed(mallory)}`],
  ['a very long garbage token', () => `Bearer ${'a'.repeat(4000)}.${'b'.repeat(4000)}.${'c'.repeat(100)}`],
  ['alg none, empty signature', () => `Bearer ${forge.unsigned(mallory)}`],
  ['alg none, original signature kept', () => `Bearer ${forge.unsigned(mallory, true)}`],
  ...Object.entries(forge.hmacWithPublicKey(mallory)).map(([form, token]): [string, () => string] => [
    `HS256 with the public key (${form}) as secret`,
    () => `Bearer ${token}`,
  ]),
  ['RS512 in the header over an RS256 signature', () => `Bearer ${forge.signed(mallory, {}, { alg: 'RS512' })}`],
  ['signed by another RSA key, same kid', () => `Bearer ${forge.otherKey(mallory, trustedKid(forge.files))}`],
  ['signed by another RSA key, another kid', () => `Bearer ${forge.otherKey(mallory)}`],
  ['claims changed after signing', () => `Bearer ${forge.tampered(mallory, { sub: owner.id })}`],
  ['wrong issuer (another user pool)', () => `Bearer ${forge.signed(mallory, { iss: OTHER_POOL })}`],
  [
    'wrong issuer (http, not https)',
    () => `Bearer ${forge.signed(mallory, { iss: OTHER_POOL.replace('https', 'http') })}`,
  ],
  ['no issuer', () => `Bearer ${forge.signed(mallory, { iss: undefined })}`],
  ['wrong audience (another app client)', () => `Bearer ${forge.signed(mallory, { aud: 'other-client' })}`],
  ['audience as a list without our client', () => `Bearer ${forge.signed(mallory, { aud: ['other-client'] })}`],
  ['no audience', () => `Bearer ${forge.signed(mallory, { aud: undefined })}`],
  [
    "an access token (token_use 'access'): the service takes ID tokens only",
    () => `Bearer ${forge.signed(mallory, { token_use: 'access', aud: undefined, client_id: LOCAL_CLIENT_ID })}`,
  ],
  ['no token_use', () => `Bearer ${forge.signed(mallory, { token_use: undefined })}`],
  // Expired and wrong in another way: "expired" would say the rest was fine.
  [
    'expired, and for another app client',
    () => `Bearer ${forge.signed(mallory, { exp: now() - 3600, aud: 'other-client' })}`,
  ],
  [
    'expired, and from another user pool',
    () => `Bearer ${forge.signed(mallory, { exp: now() - 60, iss: OTHER_POOL })}`,
  ],
  [
    'expired, and signed by another key',
    () => `Bearer ${forge.otherKey(mallory, trustedKid(forge.files), { exp: now() - 60 })}`,
  ],
  ['expired, and claims changed after signing', () => `Bearer ${forge.tampered(mallory, { exp: now() - 60 })}`],
  [
    'expired, and issued in the future',
    () => `Bearer ${forge.signed(mallory, { exp: now() - 60, iat: now() + 3600 })}`,
  ],
  ['an exp that is not a number', () => `Bearer ${forge.signed(mallory, { exp: 'never' })}`],
  ['not valid before 60 s from now (nbf)', () => `Bearer ${forge.signed(mallory, { nbf: now() + 60 })}`],
  [
    'issued an hour in the future (iat)',
    () => `Bearer ${forge.signed(mallory, { iat: now() + 3600, auth_time: now() + 3600, exp: now() + 7200 })}`,
  ],
  ['no expiry at all', () => `Bearer ${forge.signed(mallory, { exp: undefined })}`],
  ['no sub', () => `Bearer ${forge.signed(mallory, { sub: undefined })}`],
  ['an empty sub', () => `Bearer ${forge.signed(mallory, { sub: '' })}`],
  ['a sub that is not a string', () => `Bearer ${forge.signed(mallory, { sub: 42 })}`],
];

const refused: Array<[string, () => string | undefined, Reason]> = [
  ...missing.map(([what, header]): [string, () => string | undefined, Reason] => [what, header, 'missing']),
  ...expired.map(([what, header]): [string, () => string | undefined, Reason] => [what, header, 'expired']),
  ...invalid.map(([what, header]): [string, () => string | undefined, Reason] => [what, header, 'invalid']),
];

const withAuth = (authorization: string | undefined): Record<string, string> =>
  authorization === undefined ? {} : { authorization };

/** Same status, same headers that matter, same body as the plain case of its reason. */
function expectSameRefusal(reply: Reply, what: string, reason: Reason) {
  expectProblem(reply, 401);
  expect(reply.body, what).toEqual(unauthorized[reason].body);
  expect(reply.headers.get('www-authenticate'), what).toBe(unauthorized[reason].headers.get('www-authenticate'));
}

const HOW_TO_GET_A_TOKEN = /npm run --silent token.*same DATA_DIR/;
/** A 401's detail after its first sentence. */
const hint = (reply: Reply) => (reply.body.detail as string).replace(/^[^.]*\.\s*/, '');

describe('authentication: every near miss is a 401 that says missing, expired or not valid, and no more', () => {
  it('no token: RFC 6750 challenge without an error code, and where tokens come from', () => {
    expectProblem(unauthorized.missing, 401);
    expect(unauthorized.missing.headers.get('www-authenticate')).toBe('Bearer realm="action-tracking"');
    expect(unauthorized.missing.body.detail).toMatch(/^No bearer token was sent\./);
    expect(unauthorized.missing.body.detail).toMatch(HOW_TO_GET_A_TOKEN);
  });

  it('a token that is not valid: error="invalid_token" and a description that names no check', () => {
    expectProblem(unauthorized.invalid, 401);
    expect(unauthorized.invalid.headers.get('www-authenticate')).toBe(
      'Bearer realm="action-tracking", error="invalid_token", error_description="The bearer token is not valid for this service"',
    );
    expect(unauthorized.invalid.body.detail).toMatch(/^The bearer token is not valid for this service\./);
    expect(unauthorized.invalid.body.detail).toMatch(HOW_TO_GET_A_TOKEN);
    // Past the first sentence, only where tokens come from: the same words whatever failed.
    expect(hint(unauthorized.invalid)).toBe(hint(unauthorized.missing));
  });

  it('an expired token: error="invalid_token" with "has expired"', () => {
    expectProblem(unauthorized.expired, 401);
    expect(unauthorized.expired.headers.get('www-authenticate')).toBe(
      'Bearer realm="action-tracking", error="invalid_token", error_description="The bearer token has expired"',
    );
    expect(unauthorized.expired.body.detail).toMatch(/^The bearer token has expired\./);
    expect(unauthorized.expired.body.detail).toMatch(HOW_TO_GET_A_TOKEN);
    expect(hint(unauthorized.expired)).toBe(hint(unauthorized.missing));
  });

  it.each(refused.map(([what, header, reason]) => [what, reason, header] as const))(
    '%s -> %s',
    async (_, reason, header) => {
      const authorization = header();
      const headers = withAuth(authorization);
      const producer = uniqueProducer('auth-refused');
      const json = { 'content-type': 'application/json' };
      const replies: Array<[string, Reply]> = [
        ['list', await call('GET', '/api/actions', { headers })],
        ['get', await call('GET', `/api/actions/${target.id}`, { headers })],
        ['create (valid body)', await call('POST', '/api/actions', { headers, body: actionBody(producer) })],
        ['create (invalid body)', await call('POST', '/api/actions', { headers, body: { title: 5, owner: 'me' } })],
        [
          'create (malformed JSON)',
          await call('POST', '/api/actions', { headers: { ...headers, ...json }, rawBody: '{' }),
        ],
        ['create (not JSON)', await call('POST', '/api/actions', { headers, rawBody: 'title=x' })],
        ['patch', await call('PATCH', `/api/actions/${target.id}`, { headers, body: { title: 'Pwned' } })],
        ['patch (invalid body)', await call('PATCH', `/api/actions/${target.id}`, { headers, body: { id: 1 } })],
        ['delete', await call('DELETE', `/api/actions/${target.id}`, { headers })],
        ['patch an unknown id', await call('PATCH', `/api/actions/${randomUUID()}`, { headers, body: { title: 'x' } })],
      ];
      for (const [what, reply] of replies) expectSameRefusal(reply, what, reason);

      // Nothing reached the domain: nothing stored, nothing changed, nothing deleted.
      expect((await list(owner.token, q('actionProducer.name', producer))).totalCount).toBe(0);
      expect((await getOne(owner.token, target.id)).body).toEqual(target.before);
    },
  );
});

describe('authentication: the positive controls', () => {
  it('a token from the issuer is accepted (200, 201) and its subject becomes the owner', async () => {
    const token = forge.signed(mallory);
    const producer = uniqueProducer('auth-ok');
    expect((await call('GET', '/api/actions?limit=0', { token })).status).toBe(200);
    const id = await create(token, actionBody(producer));
    const { body } = await getOne(token, id);
    expect(body.owner).toEqual({ id: mallory.sub, name: mallory.name, email: mallory.email });
  });

  it('the leeway is real but small: 2 s past exp or before nbf is still accepted', async () => {
    const late = forge.signed(mallory, { exp: now() - 2 });
    const early = forge.signed(mallory, { nbf: now() + 2 });
    expect((await call('GET', '/api/actions?limit=0', { token: late })).status).toBe(200);
    expect((await call('GET', '/api/actions?limit=0', { token: early })).status).toBe(200);
  });

  it('the caller name falls back to cognito:username, then sub; email to null', async () => {
    const sub = randomUUID();
    const token = forge.signed({ sub }, { 'cognito:username': 'carol' });
    const id = await create(token, actionBody(uniqueProducer('auth-name')));
    expect((await getOne(token, id)).body.owner).toEqual({ id: sub, name: 'carol', email: null });
    const bare = forge.signed({ sub }, { 'cognito:username': undefined });
    const other = await create(bare, actionBody(uniqueProducer('auth-name')));
    expect((await getOne(bare, other)).body.owner).toEqual({ id: sub, name: sub, email: null });
  });

  it.each([
    ['bearer', (t: string) => `bearer ${t}`],
    ['BEARER', (t: string) => `BEARER ${t}`],
    ['bEaReR', (t: string) => `bEaReR ${t}`],
    ['two spaces', (t: string) => `Bearer  ${t}`],
  ])('the scheme name is case-insensitive (RFC 9110): %s is accepted', async (_, header) => {
    const reply = await call('GET', '/api/actions?limit=0', {
      headers: { authorization: header(forge.signed(mallory)) },
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  });

  it('email is recorded only when email_verified is true (boolean or the string "true")', async () => {
    const cases: Array<[unknown, string | null]> = [
      [true, mallory.email],
      ['true', mallory.email],
      [false, null],
      ['false', null],
      [undefined, null],
      ['yes', null],
      [1, null],
    ];
    for (const [verified, email] of cases) {
      const token = forge.signed(mallory, { email_verified: verified });
      const id = await create(token, actionBody(uniqueProducer('auth-email')));
      const { body } = await getOne(token, id);
      expect(body.owner, `email_verified ${JSON.stringify(verified)}`).toEqual({
        id: mallory.sub,
        name: mallory.name,
        email,
      });
      expect(body.initiator.email).toBe(email);
    }
  });

  it('public routes need no token', async () => {
    expect((await call('GET', '/api/openapi.json')).status).toBe(200);
    expect((await call('GET', '/docs')).status).toBe(200);
  });
});
