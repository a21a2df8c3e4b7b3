import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { actionBody, call, create, expectProblem, list, newUser, q, type TestUser } from '../support/client';

/**
 * Every operator on every filterable field, through HTTP: five actions whose values are chosen
 * so each (field, operator) pair picks a distinct, hand-worked subset. The filter library's own
 * unit tests cover the grammar; this proves the wiring from query string to store and back.
 */

type Label = 'A0' | 'A1' | 'A2' | 'A3' | 'A4';
const LOCATION_FIELDS = ['businessUnit', 'site', 'department', 'workGroup', 'productiveUnit', 'team', 'crew'];

const run = randomUUID().slice(0, 8);
const P = `lst-${run}`;
// Owner ids are ordered on purpose (`owner-a` < `owner-b`) so `<` and `>` have a known answer.
const U: TestUser = newUser('Una Owner', `owner-a-${run}`);
const V: TestUser = newUser('Vic Owner', `owner-b-${run}`);
const W = { id: `assignee-w-${run}`, name: 'Wendy', email: 'wendy@example.com' };
const X = { id: `Crew-Lead-${run}`, name: 'Xavier' };

const location = (suffix: string) => Object.fromEntries(LOCATION_FIELDS.map((f) => [f, `${f}-${suffix}`]));

/** A0..A3 are U's, A4 is V's. */
const bodies: Record<Label, Record<string, unknown>> = {
  A0: actionBody(`${P}-North`, {
    title: 'Alpha pump',
    status: 1,
    priority: '10',
    dueAt: '2026-03-01T10:00:00Z',
    assignee: W,
    actionProducer: { name: `${P}-North`, reference: 'REF-1' },
    location: location('North'),
  }),
  A1: actionBody(`${P}-south`, {
    title: 'beta Valve',
    status: '2',
    priority: 3,
    dueAt: '2026-03-01T23:59:59.999Z',
    assignee: X,
    actionProducer: { name: `${P}-south`, reference: 'ref-2' },
    location: location('south'),
  }),
  A2: {
    ...actionBody(`${P}-North`, {
      title: 'Gamma \\ seal',
      status: '9',
      priority: '0',
      dueAt: '2026-03-02T00:00:00Z',
    }),
    location: undefined,
  },
  A3: actionBody(`${P}-West`, {
    title: '!Urgent',
    status: '10',
    priority: '9',
    dueAt: '2025-12-31T23:00:00-02:00',
    actionProducer: { name: `${P}-West`, reference: 'ref-3' },
    location: location('NORTH-east'),
  }),
  A4: actionBody(`${P}-NORTH-east`, {
    title: 'epsilon, phase 2',
    status: 0,
    priority: '2',
    dueAt: '2027-01-01T00:00:00.123456Z',
    assignee: W,
    location: location('West'),
  }),
};

const ids = {} as Record<Label, string>;
const labelOf = new Map<string, Label>();
const created = {} as Record<Label, string>;
const updated = {} as Record<Label, string>;

const byOwner = `owner=${encodeURIComponent(`~${U.id},${V.id}`)}`;
const byProducer = q('actionProducer.name', `~${P}-North,${P}-south,${P}-West,${P}-NORTH-east`);

/** The labels a filter returns within one scope, and its totalCount. */
async function labels(scope: string, filter: string): Promise<{ found: Label[]; totalCount: number }> {
  const page = await list(U.token, `${scope}&${filter}&limit=100`);
  const found = page.actions.map((a) => {
    const label = labelOf.get(a.id);
    if (!label) throw new Error(`filter ${filter} returned an action of another test: ${a.id}`);
    return label;
  });
  return { found: found.sort(), totalCount: page.totalCount };
}

async function expectFilter(scope: string, filter: string, expected: Label[]) {
  const { found, totalCount } = await labels(scope, filter);
  expect(found, filter).toEqual([...expected].sort());
  expect(totalCount, filter).toBe(expected.length);
}

beforeAll(async () => {
  // One at a time, so createdAt orders them A0 < A1 < ... < A4.
  for (const label of Object.keys(bodies) as Label[]) {
    const owner = label === 'A4' ? V : U;
    ids[label] = await create(owner.token, bodies[label]);
    labelOf.set(ids[label], label);
    await new Promise((r) => setTimeout(r, 3));
  }
  // Edits move updatedAt for A3 and then A1 only.
  for (const label of ['A3', 'A1'] as const) {
    const reply = await call('PATCH', `/api/actions/${ids[label]}`, {
      token: U.token,
      body: { description: 'edited' },
    });
    expect(reply.status).toBe(200);
  }
  const page = await list(U.token, `${byOwner}&limit=100`);
  expect(page.totalCount).toBe(5);
  for (const action of page.actions) {
    const label = labelOf.get(action.id) as Label;
    created[label] = action.createdAt;
    updated[label] = action.updatedAt;
  }
});

/** Each row: a filter (already encoded) and the labels it must return, exactly. */
type Row = [filter: string, expected: Label[]];

describe('every operator on every filterable field', () => {
  const titleRows: Row[] = [
    [q('title', 'ALPHA PUMP'), ['A0']],
    [q('title', '=!URGENT'), ['A3']],
    [q('title', '!beta valve'), ['A0', 'A2', 'A3', 'A4']],
    [q('title', '*PUMP'), ['A0']],
    [q('title', '*A \\ S'), ['A2']],
    [q('title', '<BETA'), ['A0', 'A3']],
    [q('title', '>Beta Valve'), ['A2', 'A4']],
    [q('title', '~epsilon\\, phase 2,ALPHA pump'), ['A0', 'A4']],
    [q('title', '~gamma \\\\ seal'), ['A2']],
  ];
  it.each(titleRows)('title: %s', (filter, expected) => expectFilter(byOwner, filter, expected));

  const statusRows: Row[] = [
    ['status=9', ['A2']],
    [q('status', '=10'), ['A3']],
    [q('status', '!9'), ['A0', 'A1', 'A3', 'A4']],
    [q('status', '<9'), ['A0', 'A1', 'A4']],
    [q('status', '>9'), ['A3']],
    [q('status', '~10,0'), ['A3', 'A4']],
  ];
  it.each(statusRows)('status: %s', (filter, expected) => expectFilter(byOwner, filter, expected));

  const priorityRows: Row[] = [
    ['priority=10', ['A0']],
    [q('priority', '!0'), ['A0', 'A1', 'A3', 'A4']],
    [q('priority', '<3'), ['A2', 'A4']],
    [q('priority', '>3'), ['A0', 'A3']],
    [q('priority', '~9,2,77'), ['A3', 'A4']],
  ];
  it.each(priorityRows)('priority: %s', (filter, expected) => expectFilter(byOwner, filter, expected));

  const dueRows: Row[] = [
    ['dueAt=2026-03-01', ['A0', 'A1']],
    [q('dueAt', '2026-03-01T12:00:00+02:00'), ['A0']],
    [q('dueAt', '2026-01-01T01:00:00.000Z'), ['A3']],
    [q('dueAt', '!2026-03-01'), ['A2', 'A3', 'A4']],
    [q('dueAt', '!2026-03-01T10:00:00Z'), ['A1', 'A2', 'A3', 'A4']],
    [q('dueAt', '<2026-03-01'), ['A3']],
    [q('dueAt', '>2026-03-01'), ['A2', 'A4']],
    [q('dueAt', '>2026-03-01T10:00:00Z'), ['A1', 'A2', 'A4']],
    [q('dueAt', '<2026-03-01T10:00:00.001Z'), ['A0', 'A3']],
    [q('dueAt', '~2026-03-02,2026-01-01T01:00:00Z'), ['A2', 'A3']],
    [q('dueAt', '~2027-01-01,2026-03-01'), ['A0', 'A1', 'A4']],
    [`${q('dueAt', '>2026-01-01')}&${q('dueAt', '<2027-01-01')}`, ['A0', 'A1', 'A2']],
  ];
  it.each(dueRows)('dueAt: %s', (filter, expected) => expectFilter(byOwner, filter, expected));

  it('createdAt: every operator, on instants and on a whole day', async () => {
    const c = created;
    await expectFilter(byOwner, q('createdAt', c.A2), ['A2']);
    await expectFilter(byOwner, q('createdAt', `!${c.A2}`), ['A0', 'A1', 'A3', 'A4']);
    await expectFilter(byOwner, q('createdAt', `<${c.A2}`), ['A0', 'A1']);
    await expectFilter(byOwner, q('createdAt', `>${c.A2}`), ['A3', 'A4']);
    await expectFilter(byOwner, q('createdAt', `~${c.A0},${c.A4}`), ['A0', 'A4']);
    await expectFilter(byOwner, `${q('createdAt', `>${c.A0}`)}&${q('createdAt', `<${c.A4}`)}`, ['A1', 'A2', 'A3']);
    const day = (c.A0 as string).slice(0, 10);
    const sameDay = (Object.keys(c) as Label[]).filter((l) => c[l].startsWith(day));
    await expectFilter(byOwner, q('createdAt', day), sameDay);
    await expectFilter(byOwner, q('createdAt', `<${day}`), []);
  });

  it('updatedAt: every operator, after edits reordered it', async () => {
    const u = updated;
    expect(u.A1 > u.A3 && u.A3 > u.A4).toBe(true);
    expect(u.A0).toBe(created.A0);
    await expectFilter(byOwner, q('updatedAt', u.A1), ['A1']);
    await expectFilter(byOwner, q('updatedAt', `!${u.A1}`), ['A0', 'A2', 'A3', 'A4']);
    await expectFilter(byOwner, q('updatedAt', `>${u.A4}`), ['A1', 'A3']);
    await expectFilter(byOwner, q('updatedAt', `<${u.A3}`), ['A0', 'A2', 'A4']);
    await expectFilter(byOwner, q('updatedAt', `~${u.A0},${u.A3}`), ['A0', 'A3']);
  });

  it('owner: every operator (scoped by producer)', async () => {
    await expectFilter(byProducer, q('owner', U.id), ['A0', 'A1', 'A2', 'A3']);
    await expectFilter(byProducer, q('owner', `!${U.id}`), ['A4']);
    await expectFilter(byProducer, q('owner', `*${V.id.slice(0, 12).toUpperCase()}`), ['A4']);
    await expectFilter(byProducer, q('owner', `<${V.id}`), ['A0', 'A1', 'A2', 'A3']);
    await expectFilter(byProducer, q('owner', `>${U.id}`), ['A4']);
    await expectFilter(byProducer, q('owner', `~${V.id},nobody`), ['A4']);
  });

  const assigneeRows: Row[] = [
    [q('assignee', W.id), ['A0', 'A4']],
    ['assignee=undefined', ['A2', 'A3']],
    [q('assignee', '!undefined'), ['A0', 'A1', 'A4']],
    [q('assignee', '*crew-LEAD'), ['A1']],
    [q('assignee', X.id.toLowerCase()), []],
    [q('assignee', '<crew'), ['A0', 'A1', 'A4']],
    [q('assignee', '>b'), ['A2', 'A3']],
    [q('assignee', `~${W.id},undefined`), ['A0', 'A2', 'A3', 'A4']],
  ];
  it.each(assigneeRows)('assignee: %s', (filter, expected) => expectFilter(byOwner, filter, expected));

  const producerRows: Row[] = [
    [q('actionProducer.name', `${P}-North`), ['A0', 'A2']],
    [q('actionProducer.name', `${P}-north`), []],
    [q('actionProducer.name', `!${P}-North`), ['A1', 'A3', 'A4']],
    [q('actionProducer.name', `*-north`), ['A0', 'A2', 'A4']],
    [q('actionProducer.name', `<${P}-S`), ['A0', 'A2', 'A4']],
    [q('actionProducer.name', `>${P}-S`), ['A1', 'A3']],
    [q('actionProducer.name', `~${P}-West,${P}-south`), ['A1', 'A3']],
  ];
  it.each(producerRows)('actionProducer.name: %s', (filter, expected) => expectFilter(byOwner, filter, expected));

  const referenceRows: Row[] = [
    [q('actionProducer.reference', 'REF-1'), ['A0']],
    [q('actionProducer.reference', 'ref-1'), []],
    ['actionProducer.reference=', ['A2', 'A4']],
    [q('actionProducer.reference', '!REF-1'), ['A1', 'A2', 'A3', 'A4']],
    [q('actionProducer.reference', '*REF'), ['A0', 'A1', 'A3']],
    [q('actionProducer.reference', '<ref'), ['A0', 'A2', 'A4']],
    [q('actionProducer.reference', '>ref-2'), ['A3']],
    [q('actionProducer.reference', '~ref-2,ref-3'), ['A1', 'A3']],
  ];
  it.each(referenceRows)('actionProducer.reference: %s', (filter, expected) => expectFilter(byOwner, filter, expected));

  // Same values per field (`<field>-North`, `-south`, none, `-NORTH-east`, `-West`), same answers.
  const locationRows: Array<[string, string, Label[]]> = LOCATION_FIELDS.flatMap(
    (f): Array<[string, string, Label[]]> => [
      [f, `${f}-North`, ['A0']],
      [f, `${f}-north`, []],
      [f, `!${f}-North`, ['A1', 'A2', 'A3', 'A4']],
      [f, '*-north', ['A0', 'A3']],
      [f, `<${f}-S`, ['A0', 'A2', 'A3']],
      [f, `>${f}-S`, ['A1', 'A4']],
      [f, `~${f}-West,${f}-south`, ['A1', 'A4']],
      [f, '', ['A2']],
    ],
  );
  it.each(locationRows)('location.%s: %s', (field, value, expected) =>
    expectFilter(byOwner, q(`location.${field}`, value), expected),
  );

  it('filters on different fields combine with AND, and totalCount counts only matches', async () => {
    await expectFilter(byOwner, `${q('status', '<10')}&${q('priority', '>0')}&${q('assignee', '!undefined')}`, [
      'A0',
      'A1',
      'A4',
    ]);
    const page = await list(U.token, `${byOwner}&${q('assignee', '!undefined')}&limit=1`);
    expect(page.actions).toHaveLength(1);
    expect(page.totalCount).toBe(3);
  });
});

describe('me and version (issue 28)', () => {
  it('`me` in owner and assignee filters (also inside ~) is the caller; in a * search it is text', async () => {
    const as = async (user: TestUser, filter: string) =>
      (await list(user.token, `${byProducer}&${filter}&limit=100`)).actions.map((a) => labelOf.get(a.id)).sort();
    expect(await as(U, 'owner=me')).toEqual(['A0', 'A1', 'A2', 'A3']);
    expect(await as(V, 'owner=me')).toEqual(['A4']);
    expect(await as(U, 'owner=!me')).toEqual(['A4']);
    expect(await as(V, q('owner', '~nobody,me'))).toEqual(['A4']);
    expect(await as(U, q('assignee', '~me,undefined'))).toEqual(['A2', 'A3']);
    expect(await as(U, 'assignee=me')).toEqual([]);
    expect(await as(U, q('owner', '*me'))).toEqual([]);
    // Counted shapes read the caller's counter too.
    expect((await list(U.token, `owner=me&limit=0`)).totalCount).toBeGreaterThanOrEqual(4);
  });

  it('every action in a list carries its version, the number in its ETag', async () => {
    const page = await list(U.token, `${byOwner}&limit=100`);
    expect(page.actions).toHaveLength(5);
    for (const action of page.actions) {
      const label = labelOf.get(action.id) as Label;
      expect(action.version, label).toBe(label === 'A1' || label === 'A3' ? 2 : 1);
      const one = await call('GET', `/api/actions/${action.id}`, { token: U.token });
      expect(one.headers.get('etag')).toBe(`"${action.version}"`);
      expect(one.body.version).toBe(action.version);
    }
  });
});

describe('filters that no scoping index serves', () => {
  // Alone, these read the title or due-date index by key range, or scan with a filter: the
  // other plans. Their values are unique to this run, so the answer is still exact.
  const T = `zq-${run}`;
  const owner = newUser('Range Owner');
  const titles = { a: `${T}-a`, b: `${T}-B`, c: `${T}-c` };
  const dueYear = 5000 + (Number.parseInt(run.slice(0, 4), 16) % 4000);
  const idOf: Record<string, string> = {};

  beforeAll(async () => {
    for (const [key, title] of Object.entries(titles)) {
      idOf[key] = await create(
        owner.token,
        actionBody(`${P}-range`, { title, dueAt: `${dueYear}-06-0${key === 'a' ? 1 : key === 'b' ? 2 : 3}T12:00:00Z` }),
      );
    }
  });

  const expectIds = async (query: string, keys: string[]) => {
    const page = await list(owner.token, `${query}&limit=100`);
    expect(page.actions.map((a) => a.id).sort(), query).toEqual(keys.map((k) => idOf[k]).sort());
    expect(page.totalCount, query).toBe(keys.length);
  };

  it('title equality and ranges (title index), case-insensitive', async () => {
    await expectIds(q('title', `${T}-b`.toUpperCase()), ['b']);
    await expectIds(`${q('title', `>${T}`)}&${q('title', `<${T}-C`)}`, ['a', 'b']);
    await expectIds(`${q('title', `>${T}-a`)}&${q('title', `<${T}-d`)}&sort=-title`, ['b', 'c']);
  });

  it('a title bound longer than a sort key can be still answers exactly', async () => {
    // 1,000 three-byte characters: 3,000 bytes, past DynamoDB's 1,024-byte sort key limit.
    await expectIds(`${q('title', `>${T}`)}&${q('title', `<${T}${'€'.repeat(1000 - T.length)}`)}`, ['a', 'b', 'c']);
    await expectIds(`${q('title', `>${T}${'€'.repeat(1000 - T.length)}`)}&${q('title', `<${T}￿`)}`, []);
  });

  it('title like, alone (a filtered scan)', async () => {
    await expectIds(q('title', `*${run.toUpperCase()}-`), ['a', 'b', 'c']);
  });

  it('dueAt days and ranges (due-date index)', async () => {
    await expectIds(q('dueAt', `${dueYear}-06-02`), ['b']);
    await expectIds(`${q('dueAt', `>${dueYear}-06-01`)}&${q('dueAt', `<${dueYear}-06-04T00:00:00Z`)}`, ['b', 'c']);
    await expectIds(q('dueAt', `~${dueYear}-06-01,${dueYear}-06-03T12:00:00Z`), ['a', 'c']);
    await expectIds(`${q('dueAt', `>${dueYear}-06-02`)}&${q('dueAt', `<${dueYear}-06-02`)}`, []);
  });

  it('createdAt range alone returns only actions inside it, counted exactly', async () => {
    const mine = await list(owner.token, `${q('owner', owner.id)}&sort=createdAt`);
    const [first, , last] = mine.actions as Array<{ createdAt: string; id: string }>;
    const page = await list(
      owner.token,
      `${q('createdAt', `>${first?.createdAt}`)}&${q('createdAt', `<${last?.createdAt}`)}&limit=100`,
    );
    for (const action of page.actions) {
      expect(action.createdAt > (first?.createdAt as string) && action.createdAt < (last?.createdAt as string)).toBe(
        true,
      );
    }
    if (page.totalCount <= 100) expect(page.actions).toHaveLength(page.totalCount);
  });
});

describe('400 for every bad list query (contract section 4), never a 500', () => {
  const user = newUser('Bad Query');
  const cases: Array<[query: string, parameter: string]> = [
    ['colour=red', 'colour'],
    ['description=x', 'description'],
    ['priority=*1', 'priority'],
    ['status=*1', 'status'],
    ['dueAt=*2026', 'dueAt'],
    ['createdAt=*2026', 'createdAt'],
    ['updatedAt=*2026', 'updatedAt'],
    ['status=abc', 'status'],
    ['status=-1', 'status'],
    ['priority=1.5', 'priority'],
    ['priority=~1,x', 'priority'],
    ['priority=', 'priority'],
    ['dueAt=2026-13-01', 'dueAt'],
    ['dueAt=2026-02-30', 'dueAt'],
    ['dueAt=2026-12-01T10:00:00', 'dueAt'],
    ['dueAt=yesterday', 'dueAt'],
    ['createdAt=~2026-01-01,nope', 'createdAt'],
    ['title=*', 'title'],
    [`title=~${Array.from({ length: 101 }, (_, i) => `t${i}`).join(',')}`, 'title'],
    ['sort=description', 'sort'],
    ['sort=-nope', 'sort'],
    ['sort=', 'sort'],
    ['sort=-', 'sort'],
    ['sort=title&sort=-title', 'sort'],
    ['limit=101', 'limit'],
    ['limit=-1', 'limit'],
    ['limit=ten', 'limit'],
    ['limit=', 'limit'],
    ['limit=1&limit=2', 'limit'],
    ['skip=-1', 'skip'],
    ['skip=1.5', 'skip'],
    ['skip=', 'skip'],
    ['skip=0&skip=0', 'skip'],
    ['skip=9995&limit=10', 'skip'],
    ['skip=99999999999999999999', 'skip'],
    ['title=%E0%A4%A', 'title'],
  ];
  it.each(cases)('%s -> 400 naming %s', async (query, parameter) => {
    const reply = await call('GET', `/api/actions?${query}`, { token: user.token });
    expectProblem(reply, 400, { parameter });
  });

  it('reports every bad parameter at once', async () => {
    const reply = await call('GET', '/api/actions?colour=red&limit=500&priority=*2', { token: user.token });
    expectProblem(reply, 400);
    const named = reply.body.errors.map((e: { parameter: string }) => e.parameter).sort();
    expect(named).toEqual(['colour', 'limit', 'priority']);
  });

  it.each(['owner=', 'assignee=', 'actionProducer.name=', `owner=${encodeURIComponent('~,')}`])(
    '%s (a value no key can hold) matches nothing, with a 200',
    async (query) => {
      expect(await list(user.token, query)).toEqual({ actions: [], totalCount: 0, totalCountRelation: 'eq' });
    },
  );

  it('an equality value past the partition key size limit matches nothing, with a 200', async () => {
    expect(await list(user.token, q('owner', '€'.repeat(1000)))).toEqual({
      actions: [],
      totalCount: 0,
      totalCountRelation: 'eq',
    });
    expect(await list(user.token, q('actionProducer.name', `~a,${'€'.repeat(999)}`))).toEqual({
      actions: [],
      totalCount: 0,
      totalCountRelation: 'eq',
    });
  });

  it('skip + limit up to 10,000 is fine', async () => {
    const page = await list(user.token, `${q('owner', user.id)}&skip=9900&limit=100`);
    expect(page).toEqual({ actions: [], totalCount: 0, totalCountRelation: 'eq' });
  });
});
