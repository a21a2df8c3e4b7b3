import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { actionBody, call, create, expectProblem, getOne, list, newUser, q, uniqueProducer } from '../support/client';

/**
 * Issue 11, finding 4, contract section 3: text must be well-formed Unicode everywhere in a body;
 * one-line fields refuse control and bidirectional formatting characters; a description allows
 * tab and line breaks; comparisons treat canonically equivalent text alike (NFC), while stored
 * values stay exactly as sent. Through HTTP, with examples and fast-check properties.
 */

const writer = newUser('Tex Writer');
const post = (body: unknown) => call('POST', '/api/actions', { token: writer.token, body });
const patch = (id: string, body: unknown) => call('PATCH', `/api/actions/${id}`, { token: writer.token, body });

const LONE = ['\ud800', '\udbff', '\udc00', '\udfff'];
const BIDI = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'];
const C0 = ['\u0000', '\u0001', '\u0007', '\t', '\n', '\r', '\u001b', '\u001f'];
const C1 = ['\u007f', '\u0080', '\u0085', '\u009b', '\u009f'];

/** A create body with `value` put at `path` (e.g. `location.site`, `tags.1`). */
function bodyWith(path: string, value: unknown, producer = uniqueProducer('text')) {
  const body: Record<string, any> = actionBody(producer, {
    tags: ['a', 'b'],
    assignee: { id: 'u-text', name: 'Tess' },
    attachments: [{ url: 'https://files.example.com/a.png', name: 'a.png', contentType: 'image/png' }],
  });
  const keys = path.split('.');
  let at = body;
  for (const key of keys.slice(0, -1)) at = at[key];
  at[keys.at(-1) as string] = value;
  return body;
}

const ONE_LINE_FIELDS = [
  'title',
  'actionProducer.name',
  'actionProducer.reference',
  'location.businessUnit',
  'location.site',
  'location.crew',
  'assignee.id',
  'assignee.name',
  'tags.1',
  'attachments.0.name',
  'attachments.0.contentType',
];

describe('well-formed Unicode everywhere in a body', () => {
  const fields = [...ONE_LINE_FIELDS, 'description', 'attachments.0.url'];
  it.each(fields.flatMap((field) => LONE.map((lone) => [field, lone] as const)))(
    'a lone surrogate in %s (%j) -> 400 naming it',
    async (field, lone) => {
      const producer = uniqueProducer('lone');
      const reply = await post(bodyWith(field, `ok ${lone} ok`, producer));
      expectProblem(reply, 400, { field });
      expect((await list(writer.token, q('actionProducer.name', producer))).totalCount).toBe(0);
    },
  );

  it('a lone surrogate in a field name, or in a patch, -> 400', async () => {
    const reply = await call('POST', '/api/actions', {
      token: writer.token,
      rawBody: JSON.stringify(actionBody(uniqueProducer('lone'))).replace('{', '{"x\\ud800":1,'),
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(reply, 400);
    const id = await create(writer.token, actionBody(uniqueProducer('lone')));
    const before = (await getOne(writer.token, id)).body;
    expectProblem(await patch(id, { title: 'a\udc00' }), 400, { field: 'title' });
    expectProblem(await patch(id, { description: '\ud800' }), 400, { field: 'description' });
    expectProblem(await patch(id, { location: { team: '\ud800' } }), 400, { field: 'location.team' });
    expect((await getOne(writer.token, id)).body).toEqual(before);
  });

  it('a surrogate pair (an emoji, a rare CJK character) is well-formed and stored as sent', async () => {
    const title = 'Guard 🦺 missing at 𠀋 crusher';
    const id = await create(writer.token, bodyWith('title', title));
    expect((await getOne(writer.token, id)).body.title).toBe(title);
  });
});

describe('one-line fields refuse control and bidirectional formatting characters', () => {
  it.each(ONE_LINE_FIELDS.flatMap((field) => [...BIDI, ...C0, ...C1].map((c) => [field, c] as const)))(
    '%s with %j -> 400 naming it',
    async (field, character) => {
      const reply = await post(bodyWith(field, `in${character}voice.txt`));
      expectProblem(reply, 400, { field });
    },
  );

  it('the right-to-left override trick is refused: "\\u202eexe.txt"', async () => {
    const reply = await post(bodyWith('attachments.0.name', '\u202eexe.txt'));
    expectProblem(reply, 400, { field: 'attachments.0.name' });
    expect(reply.body.errors[0].message).toMatch(/bidirectional/);
  });

  it('a patch of a one-line field is held to the same rule, and changes nothing', async () => {
    const id = await create(writer.token, actionBody(uniqueProducer('line')));
    const before = (await getOne(writer.token, id)).body;
    expectProblem(await patch(id, { title: 'Fix\u202e' }), 400, { field: 'title' });
    expectProblem(await patch(id, { tags: ['ok', 'bad\u0085'] }), 400, { field: 'tags.1' });
    expectProblem(await patch(id, { assignee: { id: 'u-1', name: 'Eve\u2067' } }), 400, { field: 'assignee.name' });
    expect((await getOne(writer.token, id)).body).toEqual(before);
  });
});

describe('description: tab and line breaks allowed, other control characters refused', () => {
  it('tab, LF, CR and bidirectional formatting are stored as sent', async () => {
    const description = 'Line one\r\n\tLine two\nעברית \u2067RLI\u2069 end';
    const id = await create(writer.token, bodyWith('description', description));
    expect((await getOne(writer.token, id)).body.description).toBe(description);
  });

  it.each(['\u0000', '\u0007', '\u0008', '\u000b', '\u000c', '\u001b[31m', '\u007f', '\u0085', '\u009b'])(
    'a description with %j -> 400',
    async (character) => {
      expectProblem(await post(bodyWith('description', `before ${character} after`)), 400, { field: 'description' });
    },
  );
});

describe('canonically equivalent text compares alike; stored values stay as sent', () => {
  it('title=*café finds "Cafe\\u0301", and the title is stored as sent', async () => {
    const producer = uniqueProducer('nfc');
    const decomposed = 'Cafe\u0301 kitchen extractor';
    const id = await create(writer.token, bodyWith('title', decomposed, producer));
    expect((await getOne(writer.token, id)).body.title).toBe(decomposed);
    const scope = q('actionProducer.name', producer);
    for (const filter of ['*café', '*CAFÉ', '*cafe\u0301', '*Cafe\u0301 k', 'café kitchen extractor', '<cafí']) {
      const found = await list(writer.token, `${scope}&${q('title', filter)}`);
      expect(
        found.actions.map((a) => a.id),
        filter,
      ).toEqual([id]);
    }
    expect((await list(writer.token, `${scope}&${q('title', '*cafe ')}`)).totalCount).toBe(0);
  });

  it('a composed title is found by a decomposed search, and like on any string field folds the same way', async () => {
    const producer = uniqueProducer('nfc');
    const id = await create(
      writer.token,
      bodyWith('location', { site: 'A\u030angstr\u00f6m Pit', crew: '\u212b' }, producer),
    );
    await patch(id, { title: 'Ångström' });
    const scope = q('actionProducer.name', producer);
    for (const [name, filter] of [
      ['title', '*ångstro\u0308m'],
      ['title', 'A\u030Angstro\u0308m'],
      ['location.site', '*ångström'],
      ['location.site', '*\u00c5NGSTR\u00d6M'],
      // U+212B ANGSTROM SIGN is canonically equivalent to U+00C5.
      ['location.crew', '*\u00e5'],
    ]) {
      const found = await list(writer.token, `${scope}&${q(name as string, filter as string)}`);
      expect(
        found.actions.map((a) => a.id),
        `${name}=${filter}`,
      ).toEqual([id]);
    }
    const { body } = await getOne(writer.token, id);
    expect(body.location.site).toBe('A\u030angstr\u00f6m Pit');
    expect(body.location.crew).toBe('\u212b');
  });
});

/** Any text, weighted towards what breaks text handling. */
const nasty = fc
  .array(
    fc.oneof(
      fc.string({ unit: 'binary', maxLength: 4 }),
      fc.constantFrom(
        ...LONE,
        ...BIDI,
        ...C0,
        ...C1,
        'e\u0301',
        '\u00e9',
        'A\u030a',
        '\u212b',
        '\u1e9b\u0323',
        'İ',
        'ß',
        'ǅ',
        '\ufb01',
        ' ',
        '%',
        '&',
        '+',
        '*',
        '~',
        '=',
        '!',
        '\\',
        ',',
        '<',
        '>',
        '🦺',
      ),
      fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''));

const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
const settings = { numRuns: RUNS, endOnFailure: true };

/** A 4xx problem, never a 5xx. */
function expectClientError(reply: { status: number; body: any }, sent: string) {
  const context = `${JSON.stringify(sent)} -> ${reply.status} ${JSON.stringify(reply.body).slice(0, 300)}`;
  expect(reply.status, context).toBeGreaterThanOrEqual(400);
  expect(reply.status, context).toBeLessThan(500);
}

/** The ids a filter finds among `producer`'s actions. */
const found = async (producer: string, name: string, value: string) =>
  (await list(writer.token, `${q('actionProducer.name', producer)}&${q(name, value)}`)).actions.map((a) => a.id);

describe('properties: any string in a one-line field is a 4xx, or stored as sent and found by its NFC form', () => {
  it('title (create): 4xx, or stored as sent and found by = and * with its NFC (and NFD) form', async () => {
    await fc.assert(
      fc.asyncProperty(nasty, async (title) => {
        const producer = uniqueProducer('prop-title');
        const reply = await post(bodyWith('title', title, producer));
        if (reply.status !== 201) return expectClientError(reply, title);
        const id = reply.body.id as string;
        expect((await getOne(writer.token, id)).body.title).toBe(title);
        expect(await found(producer, 'title', `=${title.normalize('NFC')}`)).toEqual([id]);
        expect(await found(producer, 'title', `*${title.normalize('NFC')}`)).toEqual([id]);
        expect(await found(producer, 'title', `*${title.normalize('NFD')}`)).toEqual([id]);
      }),
      settings,
    );
  });

  it('location.site: 4xx, or stored as sent, found exactly as sent and by * with its NFC form', async () => {
    await fc.assert(
      fc.asyncProperty(nasty, async (site) => {
        const producer = uniqueProducer('prop-site');
        const reply = await post(bodyWith('location.site', site, producer));
        if (reply.status !== 201) return expectClientError(reply, site);
        const id = reply.body.id as string;
        expect((await getOne(writer.token, id)).body.location.site).toBe(site);
        if (site === '') return;
        expect(await found(producer, 'location.site', `=${site}`)).toEqual([id]);
        expect(await found(producer, 'location.site', `*${site.normalize('NFC')}`)).toEqual([id]);
      }),
      settings,
    );
  });

  it('producer name, reference, person name, tag, attachment name: 4xx, or stored as sent', async () => {
    const field = fc.constantFrom(
      'actionProducer.name',
      'actionProducer.reference',
      'assignee.name',
      'tags.0',
      'attachments.0.name',
      'attachments.0.contentType',
    );
    await fc.assert(
      fc.asyncProperty(field, nasty, async (path, value) => {
        const producer = uniqueProducer('prop-field');
        const reply = await post(bodyWith(path, value, producer));
        if (reply.status !== 201) return expectClientError(reply, value);
        const { body } = await getOne(writer.token, reply.body.id);
        let shown: any = body;
        for (const key of path.split('.')) shown = shown[key];
        expect(shown, path).toBe(value);
        if (path === 'actionProducer.reference') {
          expect(await found(producer, path, `*${value.normalize('NFC')}`)).toEqual([reply.body.id]);
        }
      }),
      settings,
    );
  });

  it('title (patch): 4xx and nothing changes, or stored as sent', async () => {
    const id = await create(writer.token, actionBody(uniqueProducer('prop-patch')));
    await fc.assert(
      fc.asyncProperty(nasty, async (title) => {
        const before = (await getOne(writer.token, id)).body;
        const reply = await patch(id, { title });
        if (reply.status !== 200) {
          expectClientError(reply, title);
          expect((await getOne(writer.token, id)).body).toEqual(before);
          return;
        }
        expect((await getOne(writer.token, id)).body.title).toBe(title);
      }),
      settings,
    );
  });
});
