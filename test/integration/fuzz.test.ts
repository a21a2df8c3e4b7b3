import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { actionBody, call, create, getOne, list, newUser, q, type Reply, uniqueProducer } from '../support/client';

/**
 * Fuzzed bodies on create and patch (issue 7): arbitrary JSON, deep nesting, huge strings,
 * wrong types in every field, prototype-pollution keys, bytes that are not JSON. The service
 * answers each with a 4xx problem (never a 5xx), and stores nothing: every request here is made
 * by one fresh user, so a single `owner=` list shows whether anything slipped through.
 */

const fuzzer = newUser('Fuzz Fuzzer');
const stranger = newUser('Sam Stranger');
const RUNS = Number(process.env.FUZZ_RUNS ?? 60);
const settings = { numRuns: RUNS, endOnFailure: true };

const json = { 'content-type': 'application/json' };
const postRaw = (rawBody: string | Uint8Array, headers: Record<string, string> = json) =>
  call('POST', '/api/actions', { token: fuzzer.token, rawBody, headers });
const patchRaw = (id: string, rawBody: string | Uint8Array, token = fuzzer.token, headers = json) =>
  call('PATCH', `/api/actions/${id}`, { token, rawBody, headers });

/** A refusal: 4xx, problem+json, a body that carries no internals. */
function expectRefusal(reply: Reply, sent: unknown) {
  const context = `sent ${String(JSON.stringify(sent)).slice(0, 300)} -> ${reply.status} ${JSON.stringify(reply.body).slice(0, 300)}`;
  expect(reply.status, context).toBeGreaterThanOrEqual(400);
  expect(reply.status, context).toBeLessThan(500);
  expect(reply.headers.get('content-type'), context).toMatch(/^application\/problem\+json/);
  expect(reply.body.status, context).toBe(reply.status);
  expect(JSON.stringify(reply.body), context).not.toMatch(/ at .*\.(ts|js):\d+|node_modules|Exception/);
}

/** Nothing this file sent was stored: the fuzzer owns only the one action made on purpose. */
async function expectNothingStored(allowedIds: string[] = []) {
  const owned = await list(fuzzer.token, `${q('owner', fuzzer.id)}&limit=100`);
  expect(owned.actions.map((a) => a.id).sort()).toEqual([...allowedIds].sort());
}

let target: { id: string; snapshot: unknown };

beforeAll(async () => {
  const id = await create(fuzzer.token, actionBody(uniqueProducer('fuzz-target')));
  target = { id, snapshot: (await getOne(fuzzer.token, id)).body };
});

const objectWithOwn = (entries: Array<[string, unknown]>): Record<string, unknown> =>
  // JSON.parse makes `__proto__` an own key, as a hostile client's body would; a literal would not.
  JSON.parse(`{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`);

const validBody = () => actionBody(uniqueProducer('fuzz'), { tags: ['t'], description: 'd' });

/** JSON values of every type but the ones a field accepts. */
const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const wrongTypes: Record<string, string[]> = {
  title: ['string'],
  description: ['string'],
  actionProducer: ['object'],
  location: ['object'],
  allowAnonymousEdits: ['boolean'],
  dueAt: ['string'],
  priority: ['string', 'number'],
  status: ['string', 'number'],
  attachments: ['array'],
  tags: ['array'],
  assignee: ['object', 'null'],
};
const nested: Record<string, string[]> = {
  'actionProducer.name': ['string'],
  'actionProducer.url': ['string'],
  'actionProducer.reference': ['string'],
  'location.site': ['string'],
  'location.crew': ['string'],
  'assignee.id': ['string'],
  'assignee.name': ['string'],
  'assignee.email': ['string', 'null'],
};

function setPath(body: Record<string, unknown>, path: string, value: unknown) {
  const [head, tail] = path.split('.') as [string, string | undefined];
  if (tail === undefined) body[head] = value;
  else
    body[head] = {
      ...((body[head] as object) ?? {}),
      ...(head === 'assignee' ? { id: 'someone' } : {}),
      [tail]: value,
    };
}

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'];
const pollution = fc.record({
  key: fc.constantFrom(...PROTO_KEYS),
  where: fc.constantFrom('top', 'location', 'actionProducer', 'assignee', 'attachment'),
  payload: fc.oneof(
    fc.constant({ allowAnonymousEdits: true }),
    fc.constant({ owner: { id: 'mallory' }, isAdmin: true }),
    fc.constant({ prototype: { polluted: 'yes' } }),
    fc.jsonValue({ maxDepth: 2 }),
  ),
});

/** A body carrying `key` as an own property at `where`, otherwise valid. */
function polluted(base: Record<string, unknown>, p: { key: string; where: string; payload: unknown }) {
  const body = structuredClone(base);
  if (p.where === 'top') return { ...body, ...objectWithOwn([[p.key, p.payload]]) };
  if (p.where === 'attachment') {
    body.attachments = [{ url: 'https://f.example.com/a', ...objectWithOwn([[p.key, p.payload]]) }];
  } else {
    const inner = p.where === 'assignee' ? { id: 'someone' } : ((body[p.where] as object) ?? {});
    body[p.where] = { ...inner, ...objectWithOwn([[p.key, p.payload]]) };
  }
  return body;
}

/** Longer than any string field may be (the longest, description, takes 10,000); built from a short seed so a counterexample prints small. */
const hugeSpec = fc.record({
  seed: fc.string({ minLength: 1, maxLength: 8, unit: 'grapheme' }),
  length: fc.integer({ min: 10_001, max: 70_000 }),
});
/** `length` code points (the unit the length limits count), cycling through the seed's. */
const huge = ({ seed, length }: { seed: string; length: number }) => {
  const points = [...seed];
  return Array.from({ length }, (_, i) => points[i % points.length]).join('');
};
const HUGE_FIELDS = [
  'title',
  'description',
  'dueAt',
  'priority',
  ...Object.keys(nested).filter((f) => f !== 'assignee.email'),
  'tags',
];

describe('POST /api/actions with fuzzed bodies: 4xx only, nothing stored', () => {
  it('arbitrary JSON values', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 6 }), async (value) => {
        expectRefusal(await postRaw(JSON.stringify(value) ?? 'null'), value);
      }),
      settings,
    );
    await expectNothingStored([target.id]);
  });

  it('arbitrary objects with the real field names and arbitrary values', async () => {
    const names = [...Object.keys(wrongTypes), 'id', 'owner', 'createdAt', 'comments', 'endorsedBy'];
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.constantFrom(...names), fc.jsonValue({ maxDepth: 3 }), { minKeys: 1 }),
        async (body) => {
          expectRefusal(await postRaw(JSON.stringify(body)), body);
        },
      ),
      settings,
    );
    await expectNothingStored([target.id]);
  });

  it('a wrong type in any one field of an otherwise valid body -> 400 naming that field', async () => {
    const fields = { ...wrongTypes, ...nested };
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...Object.keys(fields)), fc.jsonValue({ maxDepth: 2 }), async (field, value) => {
        fc.pre(!(fields[field] as string[]).includes(typeOf(value)));
        const body = validBody();
        setPath(body, field, value);
        const reply = await postRaw(JSON.stringify(body));
        expectRefusal(reply, body);
        expect(reply.status).toBe(400);
        const named: string[] = (reply.body.errors ?? []).map((e: { field?: string }) => e.field ?? '');
        expect(
          named.some((n) => n === field || n.startsWith(`${field}.`)),
          JSON.stringify(reply.body),
        ).toBe(true);
      }),
      settings,
    );
    await expectNothingStored([target.id]);
  });

  it('deep nesting, in the body and inside fields, up to the 64 KB limit', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 100, max: 32_000 }),
        fc.constantFrom('[', '{"a":'),
        fc.constantFrom('body', 'title', 'location', 'tags', 'assignee', 'unknown'),
        async (depth, opener, where) => {
          const closer = opener === '[' ? ']' : '}';
          const nest = opener.repeat(depth) + (opener === '[' ? '' : '1') + closer.repeat(depth);
          if (Buffer.byteLength(nest) > 60_000) return;
          const key = where === 'unknown' ? 'deep' : where;
          const base: Record<string, unknown> = validBody();
          delete base[key];
          const raw = where === 'body' ? nest : JSON.stringify(base).replace(/^\{/, `{"${key}":${nest},`);
          expectRefusal(await postRaw(raw), raw.slice(0, 80));
        },
      ),
      { ...settings, numRuns: Math.ceil(RUNS / 2) },
    );
    await expectNothingStored([target.id]);
  });

  it('huge strings in any field -> 400 or 413', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...HUGE_FIELDS), hugeSpec, async (field, spec) => {
        const text = huge(spec);
        const body = validBody();
        setPath(body, field, field === 'tags' ? [text] : text);
        const reply = await postRaw(JSON.stringify(body));
        expectRefusal(reply, { field, length: text.length });
        expect([400, 413]).toContain(reply.status);
      }),
      { ...settings, numRuns: Math.ceil(RUNS / 2) },
    );
    await expectNothingStored([target.id]);
  });

  it('prototype-pollution keys at the top level and nested -> 400, and no later request is affected', async () => {
    await fc.assert(
      fc.asyncProperty(pollution, async (p) => {
        const body = polluted(validBody(), p);
        const raw = JSON.stringify(body);
        expect(raw).toContain(`"${p.key}"`);
        const reply = await postRaw(raw);
        expectRefusal(reply, raw);
        expect(reply.status).toBe(400);
        expect(JSON.stringify(reply.body.errors)).toContain(p.key);
      }),
      settings,
    );
    await expectNothingStored([target.id]);
    // Had any of those reached Object.prototype, a fresh action would be open to anyone, or owned by another.
    const id = await create(fuzzer.token, validBody());
    const { body } = await getOne(fuzzer.token, id);
    expect(body.allowAnonymousEdits).toBe(false);
    expect(body.owner.id).toBe(fuzzer.id);
    expect(Object.keys(body)).not.toContain('isAdmin');
    expect(Object.keys(body)).not.toContain('polluted');
    const refused = await call('PATCH', `/api/actions/${id}`, { token: stranger.token, body: { title: 'x' } });
    expect(refused.status).toBe(403);
    expect((await call('DELETE', `/api/actions/${id}`, { token: fuzzer.token })).status).toBe(204);
  });

  it('bytes that are not JSON, and JSON cut short', async () => {
    const valid = JSON.stringify(validBody());
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.uint8Array({ minLength: 1, maxLength: 2000 }),
          fc.string({ minLength: 1, maxLength: 500, unit: 'binary' }),
          fc.integer({ min: 1, max: valid.length - 1 }).map((n) => valid.slice(0, n)),
          fc.constantFrom('{', '}', '{"title":}', "{'title':'x'}", '{"a":1,}', 'NaN', '[1,]', '\u0000', '\ufeff{}'),
        ),
        async (raw) => {
          expectRefusal(await postRaw(raw), typeof raw === 'string' ? raw : `<${raw.length} bytes>`);
        },
      ),
      settings,
    );
    await expectNothingStored([target.id]);
  });

  it('a valid body under a Content-Type that is not JSON -> 415', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.constantFrom(
            'text/plain',
            'application/x-www-form-urlencoded',
            'multipart/form-data',
            'application/xml',
            'json',
          ),
          fc.stringMatching(/^[a-z]{1,10}\/[a-z.+-]{1,15}$/).filter((t) => !/^application\/([\w.-]+\+)?json$/.test(t)),
        ),
        async (type) => {
          const reply = await postRaw(JSON.stringify(validBody()), { 'content-type': type });
          expectRefusal(reply, type);
          expect(reply.status).toBe(415);
        },
      ),
      settings,
    );
    await expectNothingStored([target.id]);
  });
});

describe('PATCH /api/actions/{id} with fuzzed bodies: 4xx only, the action unchanged', () => {
  /** A patch that succeeds is allowed (e.g. `{}`), and becomes the new baseline. */
  async function expectRefusedOrApplied(reply: Reply, sent: unknown) {
    if (reply.status === 200) {
      target.snapshot = (await getOne(fuzzer.token, target.id)).body;
      return;
    }
    expectRefusal(reply, sent);
    expect((await getOne(fuzzer.token, target.id)).body, JSON.stringify(sent)).toEqual(target.snapshot);
  }

  it('arbitrary JSON values', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 5 }), async (value) => {
        await expectRefusedOrApplied(await patchRaw(target.id, JSON.stringify(value) ?? 'null'), value);
      }),
      settings,
    );
  });

  it('a wrong type in any one field -> 400 naming it, by the owner and by a stranger', async () => {
    const patchable = {
      ...wrongTypes,
      description: ['string', 'null'],
      location: ['object', 'null'],
      attachments: ['array', 'null'],
      tags: ['array', 'null'],
    };
    delete (patchable as Record<string, unknown>).actionProducer;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...Object.keys(patchable)),
        fc.jsonValue({ maxDepth: 2 }),
        fc.boolean(),
        async (field, value, asStranger) => {
          fc.pre(!(patchable[field as keyof typeof patchable] as string[]).includes(typeOf(value)));
          const reply = await patchRaw(
            target.id,
            JSON.stringify({ [field]: value }),
            asStranger ? stranger.token : fuzzer.token,
          );
          await expectRefusedOrApplied(reply, { [field]: value });
          // A bad body is judged before the edit rule (400 before 403).
          expect(reply.status).toBe(400);
        },
      ),
      settings,
    );
  });

  it('prototype-pollution keys -> 400 and nothing changes, for the owner and a stranger', async () => {
    await fc.assert(
      fc.asyncProperty(pollution, fc.boolean(), async (p, asStranger) => {
        const body = polluted({ title: 'Polluted?' }, p);
        const reply = await patchRaw(target.id, JSON.stringify(body), asStranger ? stranger.token : fuzzer.token);
        await expectRefusedOrApplied(reply, body);
        expect(reply.status).toBe(400);
      }),
      settings,
    );
    // A stranger still may not edit: nothing opened the action to anonymous edits.
    expect((await call('PATCH', `/api/actions/${target.id}`, { token: stranger.token, body: {} })).status).toBe(403);
  });

  it('huge strings, deep nesting and bytes that are not JSON', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.tuple(fc.constantFrom('title', 'description', 'dueAt', 'tags'), hugeSpec).map(([field, spec]) => ({
            field,
            spec,
            toJSON: () => ({ [field]: field === 'tags' ? [huge(spec)] : huge(spec) }),
          })),
          fc.integer({ min: 100, max: 30_000 }).map((d) => `{"location":${'['.repeat(d)}${']'.repeat(d)}}`),
          fc.uint8Array({ minLength: 1, maxLength: 1000 }),
          fc.string({ minLength: 1, maxLength: 300, unit: 'binary' }).filter((s) => {
            try {
              JSON.parse(s);
              return false;
            } catch {
              return true;
            }
          }),
        ),
        async (input) => {
          const raw = typeof input === 'string' || input instanceof Uint8Array ? input : JSON.stringify(input);
          const reply = await patchRaw(target.id, raw);
          await expectRefusedOrApplied(reply, typeof raw === 'string' ? raw.slice(0, 100) : '<bytes>');
          expect(reply.status).not.toBe(200);
        },
      ),
      { ...settings, numRuns: Math.ceil(RUNS / 2) },
    );
    await expectNothingStored([target.id]);
  });
});

describe('valid bodies with arbitrary text', () => {
  it('any Unicode in the free-text fields is stored and read back exactly, or refused with a 400; never a 5xx', async () => {
    const text = fc.string({ minLength: 1, maxLength: 60, unit: 'binary' });
    await fc.assert(
      fc.asyncProperty(fc.record({ title: text, description: text, site: text, tag: text }), async (t) => {
        const producer = uniqueProducer('fuzz-text');
        const body = actionBody(producer, {
          title: t.title,
          description: t.description,
          location: { site: t.site },
          tags: [t.tag],
        });
        const reply = await postRaw(JSON.stringify(body));
        if (reply.status === 201) {
          const stored = (await getOne(fuzzer.token, reply.body.id)).body;
          expect(stored.title).toBe(t.title);
          expect(stored.description).toBe(t.description);
          expect(stored.location.site).toBe(t.site);
          expect(stored.tags).toEqual([t.tag]);
          await call('DELETE', `/api/actions/${reply.body.id}`, { token: fuzzer.token });
          return;
        }
        expectRefusal(reply, body);
        expect(reply.status).toBe(400);
        expect((await list(fuzzer.token, q('actionProducer.name', producer))).totalCount).toBe(0);
      }),
      settings,
    );
  });
});
