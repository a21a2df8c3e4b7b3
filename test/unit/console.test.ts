import { describe, expect, it } from 'vitest';
import { screenOf } from '../../console/routes';
import { createBody, emptyValues, errorsByField, mergePatch } from '../../console/src/action-form';
import { historyInWords } from '../../console/src/history-words';
import { apiQuery, nextPage, PAGE_SIZE, previousPage, withFilters } from '../../console/src/list-query';
import { OPEN_STATUSES, statusName } from '../../console/src/statuses';
import type { Action, HistoryEntry } from '../../console/src/types';

/** Issue 32: the console's pure parts: addresses, list queries, history in words, form bodies. */

const NOW = new Date('2026-11-24T10:00:00.000Z');
const person = (id: string, name: string) => ({ id, name, email: null });
const entry = (over: Partial<HistoryEntry>): HistoryEntry => ({
  version: 2,
  type: 'updated',
  actor: person('u-ann', 'Ann Lee'),
  time: NOW.toISOString(),
  ...over,
});

describe('the console screens', () => {
  it('maps each address to its screen, and nothing else', () => {
    expect(screenOf('/')).toEqual({ name: 'list', view: 'mine' });
    expect(screenOf('/overdue')).toEqual({ name: 'list', view: 'overdue' });
    expect(screenOf('/due-soon')).toEqual({ name: 'list', view: 'dueSoon' });
    expect(screenOf('/all')).toEqual({ name: 'list', view: 'all' });
    expect(screenOf('/new')).toEqual({ name: 'new' });
    expect(screenOf('/actions/a%20b')).toEqual({ name: 'action', id: 'a b' });
    for (const path of ['/api/actions', '/docs', '/actions/a/b', '/actions/', '/actions/%E0%A4%A', '/oauth2/authorize'])
      expect(screenOf(path), path).toBeUndefined();
  });
});

describe('a list address and its API query', () => {
  const query = (view: Parameters<typeof apiQuery>[0], address: string) =>
    apiQuery(view, new URLSearchParams(address), NOW, 'UTC').map(([k, v]) => `${k}=${v}`);

  it('gives each view its own filters and order', () => {
    expect(query('mine', '')).toEqual(['assignee=me', `status=~${OPEN_STATUSES}`, 'sort=dueAt', `limit=${PAGE_SIZE}`]);
    expect(query('overdue', '')).toEqual(['overdue=true', 'sort=dueAt', `limit=${PAGE_SIZE}`]);
    expect(query('dueSoon', '')).toEqual([
      `status=~${OPEN_STATUSES}`,
      'dueAt=>2026-11-24T10:00:00.000Z',
      'dueAt=<2026-12-01T10:00:00.000Z',
      'sort=dueAt',
      `limit=${PAGE_SIZE}`,
    ]);
    expect(query('all', '')).toEqual([`limit=${PAGE_SIZE}`]);
  });

  it("puts the person's filters over the view's, with an inclusive due range and a title search", () => {
    expect(
      query('mine', 'q=belt&status=3&site=North Pit&priority=2&from=2026-12-01&to=2026-12-31&sort=-title'),
    ).toEqual([
      'assignee=me',
      'title=*belt',
      'status=3',
      'priority=2',
      'location.site=North Pit',
      'dueAt=>2026-11-30',
      'dueAt=<2027-01-01',
      'sort=-title',
      `limit=${PAGE_SIZE}`,
    ]);
    expect(query('all', 'from=not-a-day')).toEqual([`limit=${PAGE_SIZE}`]);
  });

  it("reads a due range's days in the person's zone, and passes the Overview's API filters through", () => {
    const perth = apiQuery('all', new URLSearchParams('from=2026-12-01&to=2026-12-31'), NOW, 'Australia/Perth');
    expect(perth).toEqual([
      ['dueAt', '>2026-11-30T15:59:59.999Z'],
      ['dueAt', '<2026-12-31T16:00:00.000Z'],
      ['limit', String(PAGE_SIZE)],
    ]);
    expect(
      query(
        'all',
        'location.businessUnit=Iron Ore&location.department=Fixed plant&overdue=true&closedAt=>2026-11-01&closedAt=<2026-11-24&status=~1,2,5&x=1',
      ),
    ).toEqual([
      'status=~1,2,5',
      'location.businessUnit=Iron Ore',
      'location.department=Fixed plant',
      'overdue=true',
      'closedAt=>2026-11-01',
      'closedAt=<2026-11-24',
      `limit=${PAGE_SIZE}`,
    ]);
  });

  it('pages by cursor forwards and back, and a new filter starts again at the first page', () => {
    const first = new URLSearchParams('site=North');
    const second = nextPage(first, 'c1');
    const third = nextPage(second, 'c2');
    expect(apiQuery('all', third, NOW)).toEqual([
      ['cursor', 'c2'],
      ['limit', String(PAGE_SIZE)],
    ]);
    expect(previousPage(third)?.toString()).toBe(second.toString());
    expect(previousPage(second)?.toString()).toBe('site=North');
    expect(previousPage(first)).toBeUndefined();
    expect(withFilters(third, { status: '1' }).toString()).toBe('site=North&status=1');
  });
});

describe('statuses and history in words', () => {
  it('names the catalogue, and any other number as Status n', () => {
    expect(['1', '2', '3', '4', '5', '17'].map(statusName)).toEqual([
      'Open',
      'In progress',
      'Done',
      'Cancelled',
      'On hold',
      'Status 17',
    ]);
  });

  it('tells each change as a sentence', () => {
    expect(historyInWords(entry({ changes: { status: { before: '1', after: '2' } } }))).toBe(
      'Ann Lee changed status from Open to In progress',
    );
    expect(
      historyInWords(
        entry({
          changes: {
            location: { before: { site: 'North', team: 'A' }, after: { site: 'South', team: 'A' } },
            assignee: { before: person('undefined', 'Unknown user'), after: person('u-bob', 'Bob Stone') },
          },
        }),
      ),
    ).toBe('Ann Lee changed site from North to South; assignee from nobody to Bob Stone');
    const system = person('system', 'Action tracking service');
    expect(historyInWords(entry({ type: 'overdue', actor: system }))).toBe('Overdue');
    expect(historyInWords(entry({ type: 'escalated', actor: system }))).toBe('Escalated');
    expect(historyInWords(entry({ type: 'created' }))).toBe('Ann Lee created the action');
    expect(historyInWords(entry({ type: 'commented', comment: { id: 'c', text: '<b>hi</b>' } }))).toBe(
      'Ann Lee commented: “<b>hi</b>”',
    );
  });
});

describe('the action forms', () => {
  const action = {
    title: 'Belt',
    description: '',
    actionProducer: { name: 'Inspections' },
    dueAt: '2026-12-01T10:00:00.000Z',
    priority: '2',
    status: '1',
    assignee: { id: 'undefined', name: 'Unknown user', email: '' },
    location: {
      businessUnit: '',
      site: 'North',
      department: '',
      workGroup: '',
      productiveUnit: '',
      team: '',
      crew: '',
    },
    tags: [],
    allowAnonymousEdits: false,
  } as unknown as Action;

  it('sends only what changed, as a merge patch', async () => {
    const { valuesOf } = await import('../../console/src/action-form');
    const before = valuesOf(action);
    expect(mergePatch(before, before)).toEqual({});
    const after = {
      ...before,
      status: '2',
      'location.site': 'South',
      'assignee.id': 'u-bob',
      dueAt: '2026-12-02T09:30',
    };
    expect(mergePatch(before, after)).toEqual({
      status: 2,
      location: { site: 'South' },
      assignee: { id: 'u-bob' },
      dueAt: '2026-12-02T09:30:00Z',
    });
    expect(mergePatch(after, { ...after, 'assignee.id': '' })).toEqual({ assignee: null });
  });

  it('builds a create body from the form, and places the API errors beside their fields', () => {
    const values = {
      ...emptyValues(),
      title: 'T',
      'actionProducer.name': 'P',
      dueAt: '2026-12-01T10:00',
      tags: 'a, b,',
    };
    expect(createBody(values)).toMatchObject({
      title: 'T',
      actionProducer: { name: 'P' },
      dueAt: '2026-12-01T10:00:00Z',
      priority: 2,
      status: 1,
      tags: ['a', 'b'],
    });
    expect(
      errorsByField({
        type: 'about:blank',
        title: 'Bad Request',
        status: 400,
        detail: '2 problems',
        errors: [
          { field: 'actionProducer.name', message: 'is required' },
          { field: 'assignee', message: 'must be an object' },
          { field: 'owner', message: 'is set by the service' },
        ],
      }),
    ).toEqual({
      'actionProducer.name': ['is required'],
      'assignee.id': ['must be an object'],
      '': ['is set by the service'],
    });
  });
});
