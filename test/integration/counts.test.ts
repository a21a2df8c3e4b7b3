import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate, type ListedAction } from '../../contract/oracle';
import { issueToken } from '../../infra/local/issuer';
import { startSeededStack } from '../../infra/local/seeded';
import type { LocalStack } from '../../infra/local/stack';
import { groupedFields } from '../../lib/filter/fields';
import type { ActionView } from '../../lib/model/action';
import { seedActions } from '../../scripts/seed-data';
import { type CallOptions, call, expectProblem } from '../support/client';

/**
 * Contract section 17, counts by group (issue 50): `GET /api/actions/counts` against a stack of
 * its own in `ACCESS=scoped`, seeded with a few hundred actions across business units, sites,
 * people, statuses, priorities and due dates past and future (some overdue). For every `by`
 * field and some pairs, each group's `count` and `overdue` equal the list's `totalCount` with the
 * group's value added as an `=` filter (the rule a client can check) and an oracle over the
 * stored actions (every action, read through the list); `otherCount` adds up; the `overdueAge`
 * buckets agree with `dueAt`; a person with one site sees only that site's numbers; every bad
 * parameter is a 400 naming it.
 */

const SEEDED = 300;
let stack: LocalStack;
let admin: string;
/** Every stored action, as the list shows it: the oracle. */
let stored: ActionView[];

const send = (method: string, path: string, options: CallOptions = {}) =>
  call(method, path, { ...options, baseUrl: stack.url });

beforeAll(async () => {
  Object.assign(process.env, { ACCESS: 'scoped', LOG_LEVEL: 'error' });
  const actions = [...seedActions(SEEDED, 50)].map((a) => ({ ...a, initiator: a.owner }));
  stack = await startSeededStack('counts', actions);
  admin = issueToken(stack.issuer, { sub: 'u-counts-admin', name: 'Admin', groups: ['action-admins'] });
  stored = await everyAction(admin);
  expect(stored).toHaveLength(SEEDED);
}, 900_000);

afterAll(async () => {
  await stack?.close();
});

/** Every action `token` sees, walked with the list's cursor. */
async function everyAction(token: string, filters = ''): Promise<ActionView[]> {
  const found: ActionView[] = [];
  let cursor: string | undefined;
  do {
    const reply = await send(
      'GET',
      `/api/actions?limit=100${filters}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      { token },
    );
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    found.push(...reply.body.actions);
    cursor = reply.body.nextCursor;
  } while (cursor);
  return found;
}

const DAY_MS = 86_400_000;

/** The overdue-age bucket of an action: whole UTC days from its due day to today. */
function ageOf(action: ActionView, now = Date.now()): string {
  if (!action.overdue) return 'none';
  const today = Math.floor(now / DAY_MS);
  const due = Math.floor(Date.parse(action.dueAt) / DAY_MS);
  const age = today - due;
  return age <= 7 ? '1-7' : age <= 30 ? '8-30' : age <= 90 ? '31-90' : '91+';
}

/** The value of a `by` field in an action, as the list filter takes it. */
function valueIn(field: string, action: ActionView): string {
  if (field === 'overdueAge') return ageOf(action);
  if (field === 'assignee') return action.assignee.id;
  if (field === 'owner') return action.owner.id;
  if (field === 'actionProducer.name') return action.actionProducer.name;
  if (field.startsWith('location.'))
    return action.location[field.slice('location.'.length) as keyof ActionView['location']];
  return String(action[field as 'status' | 'priority']);
}

/** The list filters that pick a group (for `overdueAge`, the overdue flag and the dueAt days). */
function groupFilter(field: string, value: string): string {
  if (field !== 'overdueAge') return `&${encodeURIComponent(field)}==${encodeURIComponent(value)}`;
  if (value === 'none') return '&overdue=false';
  const day = (n: number) => new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS - n * DAY_MS).toISOString().slice(0, 10);
  const ranges: Record<string, string> = {
    '1-7': `&dueAt=>${day(8)}`,
    '8-30': `&dueAt=>${day(31)}&dueAt=<${day(7)}`,
    '31-90': `&dueAt=>${day(91)}&dueAt=<${day(30)}`,
    '91+': `&dueAt=<${day(90)}`,
  };
  return `&overdue=true${ranges[value]}`;
}

interface Group {
  key: Record<string, string>;
  label: Record<string, string>;
  count: number;
  overdue: number;
}

/** Checks one counts answer against the list and the oracle (`actions`: what the caller sees, filtered). */
async function checkCounts(token: string, by: string[], filters: string, actions: ActionView[]) {
  const reply = await send('GET', `/api/actions/counts?${by.map((b) => `by=${b}`).join('&')}&limit=1000${filters}`, {
    token,
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  const { groups, totalCount, totalCountRelation, otherCount } = reply.body as {
    groups: Group[];
    totalCount: number;
    totalCountRelation: string;
    otherCount: number;
  };
  expect(reply.body.by).toEqual(by);
  expect(totalCountRelation).toBe('eq');
  expect(totalCount).toBe(actions.length);
  // On a loaded machine a count may run out of time: the groups it counted are exact, the rest is otherCount.
  const complete = reply.body.complete !== false;
  expect(otherCount).toBe(complete ? 0 : totalCount - groups.reduce((s, g) => s + g.count, 0));
  if (complete) expect(groups.reduce((s, g) => s + g.count, 0)).toBe(totalCount);
  // The oracle: every group of the actions, with its count and overdue.
  const oracle = new Map<string, { count: number; overdue: number }>();
  for (const action of actions) {
    const key = JSON.stringify(by.map((b) => valueIn(b, action)));
    const entry = oracle.get(key) ?? { count: 0, overdue: 0 };
    entry.count++;
    if (action.overdue) entry.overdue++;
    oracle.set(key, entry);
  }
  // Ordered by count descending.
  for (let i = 1; i < groups.length; i++)
    expect((groups[i - 1] as Group).count).toBeGreaterThanOrEqual((groups[i] as Group).count);
  // The rule a client can check, on every group (the largest 12 when there are many).
  for (const group of groups.slice(0, 12)) {
    const picked = by.map((b) => groupFilter(b, group.key[b] as string)).join('');
    const list = await send('GET', `/api/actions?limit=0${filters}${picked}`, { token });
    expect(list.body, picked).toMatchObject({ totalCount: group.count, totalCountRelation: 'eq' });
    const overdue = await send('GET', `/api/actions?limit=0${filters}${picked}&overdue=true`, { token });
    expect(overdue.body.totalCount, `${picked} overdue`).toBe(group.overdue);
  }
  if (complete) expect(groups).toHaveLength(oracle.size);
  for (const group of groups) {
    const key = JSON.stringify(by.map((b) => group.key[b]));
    expect(oracle.get(key), key).toEqual({ count: group.count, overdue: group.overdue });
    expect(group.count).toBeGreaterThan(0);
  }
  return Object.assign(groups, { complete });
}

// Each test makes dozens of lists and counts; a loaded machine takes its time.
describe('GET /api/actions/counts', { timeout: 180_000 }, () => {
  it.each([...groupedFields, 'overdueAge'])('by=%s: every group equals the list and the oracle', async (field) => {
    const groups = await checkCounts(admin, [field], '', stored);
    if (groups.complete) expect(groups.length).toBeGreaterThan(1);
    for (const group of groups) {
      if (field === 'assignee' || field === 'owner') {
        const person = stored.find((a) => valueIn(field, a) === group.key[field]) as ActionView;
        const name = field === 'owner' ? person.owner.name : person.assignee.name;
        // Past the time to count, a person is labelled by their id (docs/dashboards.md).
        expect([name, group.key[field]]).toContain(group.label[field]);
        expect(Object.keys(group.label)).toEqual([field]);
      } else expect(group.label).toEqual({});
    }
  });

  it('pairs of fields, and with filters', async () => {
    await checkCounts(admin, ['location.site', 'status'], '', stored);
    await checkCounts(admin, ['assignee', 'priority'], '', stored);
    await checkCounts(admin, ['overdueAge', 'location.businessUnit'], '', stored);
    const unit = stored[0]?.location.businessUnit as string;
    const filtered = stored.filter((a) => a.location.businessUnit === unit && Number(a.priority) > 2);
    await checkCounts(
      admin,
      ['location.site', 'overdueAge'],
      `&location.businessUnit=${encodeURIComponent(unit)}&priority=>2`,
      filtered,
    );
    // One business unit and its sites by status: the location prefix counters two fields deep.
    await checkCounts(
      admin,
      ['location.site', 'status'],
      `&location.businessUnit=${encodeURIComponent(unit)}`,
      stored.filter((a) => a.location.businessUnit === unit),
    );
    await checkCounts(
      admin,
      ['status'],
      '&overdue=true',
      stored.filter((a) => a.overdue),
    );
  });

  it('overdueAge buckets agree with dueAt, and some actions are overdue', async () => {
    const groups = await checkCounts(admin, ['overdueAge'], '', stored);
    const overdue = groups.filter((g) => g.key.overdueAge !== 'none');
    expect(overdue.reduce((s, g) => s + g.count, 0)).toBe(stored.filter((a) => a.overdue).length);
    expect(overdue.length).toBeGreaterThan(1);
    for (const g of groups) expect(g.overdue).toBe(g.key.overdueAge === 'none' ? 0 : g.count);
  });

  it('limit keeps the largest groups; otherCount is the rest', async () => {
    const all = await send('GET', '/api/actions/counts?by=assignee&limit=1000', { token: admin });
    const top = await send('GET', '/api/actions/counts?by=assignee&limit=3', { token: admin });
    expect(top.status).toBe(200);
    // Labels aside: past the time to count, either answer may label a person by their id (docs/dashboards.md).
    const unlabelled = (groups: Group[]) => groups.map(({ label: _, ...g }) => g);
    if (all.body.complete !== false && top.body.complete !== false)
      expect(unlabelled(top.body.groups)).toEqual(unlabelled(all.body.groups.slice(0, 3)));
    const shown = top.body.groups.reduce((s: number, g: Group) => s + g.count, 0);
    expect(top.body.otherCount).toBe(SEEDED - shown);
    expect(top.body.otherCount).toBeGreaterThan(0);
  });

  it('a person with one site sees only that site', async () => {
    const site = stored.find((a) => a.location.site !== '' && a.location.businessUnit !== '')
      ?.location as ActionView['location'];
    const viewer = 'u-counts-site-viewer';
    const granted = await send('POST', '/api/grants', {
      token: admin,
      body: {
        principal: { type: 'person', id: viewer },
        role: 'viewer',
        scope: { businessUnit: site.businessUnit, site: site.site },
      },
    });
    expect(granted.status, JSON.stringify(granted.body)).toBe(201);
    const token = issueToken(stack.issuer, { sub: viewer, name: 'Site viewer' });
    const theirs = stored.filter((a) => a.location.businessUnit === site.businessUnit && a.location.site === site.site);
    expect(theirs.length).toBeGreaterThan(0);
    expect(theirs.length).toBeLessThan(SEEDED);
    await checkCounts(token, ['status'], '', theirs);
    const bySite = await checkCounts(token, ['location.site'], '', theirs);
    expect(bySite.map((g) => g.key['location.site'])).toEqual([site.site]);
    await checkCounts(token, ['assignee', 'overdueAge'], '', theirs);
    // The oldest bucket from the scope's overdue counter less its recent overdue (`overdueDueBefore`), by status too.
    const ages = await checkCounts(token, ['overdueAge'], '', theirs);
    expect(ages.some((g) => g.key.overdueAge !== 'none' && g.count > 0)).toBe(true);
    await checkCounts(
      token,
      ['overdueAge', 'status'],
      '&status=!3',
      theirs.filter((a) => Number(a.status) !== 3),
    );
    // Counted from the prefix counters three fields deep (the site scope made deeper by each department).
    await checkCounts(token, ['location.department'], '', theirs);
    await checkCounts(
      token,
      ['location.department', 'status'],
      '&overdue=false',
      theirs.filter((a) => !a.overdue),
    );
    // Nobody else's numbers: a stranger counts nothing.
    const stranger = await send('GET', '/api/actions/counts?by=status', {
      token: issueToken(stack.issuer, { sub: 'u-counts-stranger', name: 'Stranger' }),
    });
    expect(stranger.body).toEqual({
      by: ['status'],
      groups: [],
      totalCount: 0,
      totalCountRelation: 'eq',
      otherCount: 0,
    });
  });

  it.each([
    ['business unit', ['businessUnit']],
    ['site', ['businessUnit', 'site']],
    ['department', ['businessUnit', 'site', 'department']],
  ] as const)(
    "a %s viewer's overdue actions due before, after and between days and instants count as the oracle does",
    async (depth, fields) => {
      // The scope with the most overdue actions, and days that split them: some due before, some since.
      const scopeOf = (a: ActionView) => Object.fromEntries(fields.map((f) => [f, a.location[f]]));
      const late = stored.filter((a) => a.overdue && fields.every((f) => a.location[f] !== ''));
      const perScope = new Map<string, ActionView[]>();
      for (const a of late) {
        const key = JSON.stringify(scopeOf(a));
        perScope.set(key, [...(perScope.get(key) ?? []), a]);
      }
      const scope = JSON.parse(
        [...perScope.entries()].sort((x, y) => y[1].length - x[1].length)[0]?.[0] as string,
      ) as Record<string, string>;
      const viewer = `u-counts-overdue-${depth.replace(' ', '-')}-viewer`;
      const granted = await send('POST', '/api/grants', {
        token: admin,
        body: { principal: { type: 'person', id: viewer }, role: 'viewer', scope },
      });
      expect(granted.status, JSON.stringify(granted.body)).toBe(201);
      const token = issueToken(stack.issuer, { sub: viewer, name: 'Overdue viewer' });
      const theirs = stored.filter((a) => fields.every((f) => a.location[f] === scope[f]));
      const dues = theirs
        .filter((a) => a.overdue)
        .map((a) => a.dueAt)
        .sort();
      expect(dues.length).toBeGreaterThan(1);
      const middle = dues[Math.floor(dues.length / 2)] as string;
      const first = dues[0] as string;
      let split = 0;
      // Days are summed from a business unit's or a site's overdue due days (`overdueOnDays`); an
      // instant before, from the scope's overdue counter less its overdue actions due since
      // (`overdueDueBefore`, a site's), or by the planner (a business unit's).
      const ranges = [
        ...[middle, middle.slice(0, 10), first, first.slice(0, 10), '2000-01-01', '2999-01-01'].map(
          (at) => `dueAt=<${at}`,
        ),
        `dueAt=>${first.slice(0, 10)}`,
        `dueAt=>${first.slice(0, 10)}&dueAt=<${middle.slice(0, 10)}`,
        `dueAt=${middle.slice(0, 10)}`,
        `dueAt=!${middle.slice(0, 10)}`,
      ];
      for (const range of ranges) {
        for (const status of ['', '&status=~1,2', '&status=!1']) {
          const query = `overdue=true&${range.replaceAll(':', '%3A')}${status}`;
          const reply = await send('GET', `/api/actions?limit=0&${query}`, { token });
          const expected = evaluate(theirs as unknown as ListedAction[], `${query}&limit=0`);
          if ('refused' in expected) throw new Error(`the oracle refuses ${query}`);
          expect(reply.body, query).toMatchObject({ totalCount: expected.totalCount, totalCountRelation: 'eq' });
          if (expected.totalCount > 0 && expected.totalCount < dues.length) split++;
        }
      }
      // Some day left overdue actions on both sides.
      expect(split).toBeGreaterThan(0);
      await checkCounts(token, ['overdueAge'], '', theirs);
    },
  );

  it('every bad parameter is a 400 naming it', async () => {
    const bad: Array<[string, string]> = [
      ['', 'by'],
      ['by=title', 'by'],
      ['by=status&by=status', 'by'],
      ['by=status&by=priority&by=owner', 'by'],
      ['by=', 'by'],
      ['by=status&limit=0', 'limit'],
      ['by=status&limit=1001', 'limit'],
      ['by=status&limit=x', 'limit'],
      ['by=status&limit=1&limit=2', 'limit'],
      ['by=status&priority=*1', 'priority'],
      ['by=status&dueAt=<yesterday', 'dueAt'],
      ['by=status&colour=red', 'colour'],
      ['by=status&sort=dueAt', 'sort'],
      ['by=status&skip=1', 'skip'],
      ['by=status&cursor=abc', 'cursor'],
      ['by=status&overdue=maybe', 'overdue'],
    ];
    for (const [query, parameter] of bad)
      expectProblem(await send('GET', `/api/actions/counts?${query}`, { token: admin }), 400, { parameter });
    expectProblem(await send('GET', '/api/actions/counts?by=status'), 401);
  });
});
