import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Action, locationFields } from '../../../lib/model/action';
import type { RecordedEntry } from '../../../lib/model/history';
import { attributeDefinitions } from '../../../lib/store/indexes';
import {
  commentFrom,
  commentItem,
  fromItem,
  historyEntryFrom,
  historyItem,
  isActionItem,
  isTombstone,
  recordedEntryFrom,
  toItem,
  tombstone,
  valueAt,
} from '../../../lib/store/item';
import { attr } from '../../../lib/store/table';
import { anAction } from '../action-fixture';

/**
 * The mapping between an action and its stored item: what is stored reads back as it was, and
 * every index key the item carries is one DynamoDB accepts (the right type, never an empty string).
 */

const text = fc.string({ unit: fc.constantFrom('a', 'B', 'é', 'Ä', 'ß', 'İ', ' ', '😀', '#', '\u0001'), maxLength: 8 });
const nonEmpty = text.filter((s) => s !== '');
const moment = fc
  .integer({ min: Date.parse('2000-01-01'), max: Date.parse('2099-12-31') })
  .map((ms) => new Date(ms).toISOString());
const person = fc.record({
  id: nonEmpty,
  name: nonEmpty,
  email: fc.option(fc.constant('p@example.com'), { nil: null }),
});

/** Actions as the service can make them: any text, any open or closed status, assigned or not. */
const action: fc.Arbitrary<Action> = fc
  .record({
    id: fc.uuid(),
    title: nonEmpty,
    description: text,
    producer: fc.record({
      name: nonEmpty,
      url: fc.option(fc.constantFrom('https://p.example/1', 'http://p.example/A?b=c'), { nil: undefined }),
      reference: fc.option(nonEmpty, { nil: undefined }),
    }),
    location: fc.tuple(...locationFields.map(() => text)),
    allowAnonymousEdits: fc.boolean(),
    dueAt: moment,
    priority: fc.nat(999_999_999),
    status: fc.nat(9),
    owner: person,
    initiator: person,
    assignee: fc.option(
      person.filter((p) => p.id !== 'undefined'),
      { nil: null },
    ),
    tags: fc.array(nonEmpty, { maxLength: 3 }),
    createdAt: moment,
    updatedAt: moment,
    closedAt: fc.option(moment, { nil: null }),
    version: fc.integer({ min: 1, max: 1000 }),
    commentCount: fc.nat(100),
    overdue: fc.boolean(),
    reminded: fc.integer({ min: 0, max: 3 }),
  })
  .map(({ producer, location, ...rest }) => ({
    ...rest,
    actionProducer: {
      name: producer.name,
      ...(producer.url !== undefined ? { url: producer.url } : {}),
      ...(producer.reference !== undefined ? { reference: producer.reference } : {}),
    },
    location: Object.fromEntries(locationFields.map((f, i) => [f, location[i]])) as Action['location'],
    endorsedBy: [],
    attachments: [],
    comments: [],
  }));

describe('toItem and fromItem', () => {
  it('read back every action as it was stored', () => {
    fc.assert(
      fc.property(action, (a) => {
        expect(fromItem(toItem(a))).toEqual(a);
      }),
      { numRuns: 100 },
    );
  });

  it('store every index key with its declared type and never as an empty string', () => {
    const keyTypes = new Map(attributeDefinitions().map((d) => [d.AttributeName, d.AttributeType]));
    fc.assert(
      fc.property(action, (a) => {
        const item = toItem(a);
        for (const [name, type] of keyTypes) {
          const value = item[name];
          if (value === undefined) continue;
          expect(typeof value, name).toBe(type === 'S' ? 'string' : 'number');
          expect(value, name).not.toBe('');
        }
      }),
      { numRuns: 100 },
    );
  });

  it('put only open actions in the reminder queue, and only overdue ones in the overdue index', () => {
    const open = toItem(anAction({ status: 1, overdue: true }));
    expect(open[attr.reminderKey]).toEqual(expect.any(String));
    expect(open[attr.overdueKey]).toEqual(expect.any(String));
    const closed = toItem(anAction({ status: 3 }));
    expect(closed[attr.reminderKey]).toBeUndefined();
    expect(closed[attr.overdueKey]).toBeUndefined();
  });

  it('read an item stored before later fields existed with their defaults', () => {
    const item = toItem(anAction());
    for (const name of [
      attr.endorsedBy,
      attr.attachments,
      attr.tags,
      attr.comments,
      attr.commentCount,
      attr.reminded,
    ]) {
      delete item[name];
    }
    expect(fromItem(item)).toMatchObject({
      endorsedBy: [],
      attachments: [],
      tags: [],
      comments: [],
      commentCount: 0,
      reminded: 0,
      overdue: false,
    });
  });
});

describe('tombstones', () => {
  it('keep the id, version and time of deletion, and nothing an index keys on', () => {
    const item = tombstone('a1', 4, '2026-11-01T00:00:00.000Z');
    expect(isTombstone(item)).toBe(true);
    expect(isTombstone(toItem(anAction()))).toBe(false);
    const indexKeys = attributeDefinitions()
      .map((d) => d.AttributeName)
      .filter((n) => n !== attr.id && n !== attr.sortKey);
    for (const name of indexKeys) expect(item[name]).toBeUndefined();
    expect(item[attr.version]).toBe(4);
  });
});

describe('isActionItem', () => {
  it("is an action's item or tombstone, never a registered value named like its sort key", () => {
    expect(isActionItem(toItem(anAction()))).toBe(true);
    expect(isActionItem(tombstone('a1', 4, '2026-11-01T00:00:00.000Z'))).toBe(true);
    // The value registry keeps a crew named "A" under the sort key `A` (issue 50's registry of crews).
    expect(isActionItem({ [attr.id]: 'v#f.lc', [attr.sortKey]: 'A' })).toBe(false);
    expect(isActionItem({ [attr.id]: 'n#all#', [attr.sortKey]: '07' })).toBe(false);
  });
});

describe('valueAt', () => {
  it('follows a dotted path, and is undefined past a missing step', () => {
    expect(valueAt({ f: { st: 2 } }, 'f.st')).toBe(2);
    expect(valueAt({ f: { st: 2 } }, 'f.pr')).toBeUndefined();
    expect(valueAt({}, 'f.st.x')).toBeUndefined();
  });
});

describe('history entries', () => {
  const entry: RecordedEntry = {
    actionId: '0b8e3a3e-7b54-4d8e-9a0c-4a8f4c1b2d01',
    version: 3,
    type: 'commented',
    actor: { id: 'u', name: 'U', email: null },
    time: '2026-11-01T00:00:00.000Z',
    comment: { id: 'c1', author: { id: 'u', name: 'U', email: null }, text: 'old entries held the text' },
  };

  it('are stored in their action partition and read back as recorded', () => {
    const item = historyItem(entry);
    expect(item[attr.id]).toBe(entry.actionId);
    expect(recordedEntryFrom(item)).toEqual(entry);
  });

  it('are shown without the action id, the feed keys or any comment text', () => {
    expect(historyEntryFrom(historyItem(entry))).toEqual({
      version: 3,
      type: 'commented',
      actor: entry.actor,
      time: entry.time,
      comment: { id: 'c1', author: entry.actor },
    });
    const reminder = historyItem({ ...entry, type: 'overdue', comment: undefined, dueAt: '2026-10-01T00:00:00.000Z' });
    expect(historyEntryFrom(reminder)).toEqual({
      version: 3,
      type: 'overdue',
      actor: entry.actor,
      time: entry.time,
      dueAt: '2026-10-01T00:00:00.000Z',
    });
  });

  it('sort in the feed by time, then action, then version', () => {
    const key = (e: Partial<RecordedEntry>) => historyItem({ ...entry, ...e })[attr.feedKey] as string;
    expect(key({ time: '2026-11-01T00:00:00.001Z' }) > key({})).toBe(true);
    expect(key({ version: 10 }) > key({ version: 9 })).toBe(true);
  });
});

describe('comments', () => {
  it('read back as stored', () => {
    const comment = {
      id: '01932b8e-0000-7000-8000-000000000000',
      author: { id: 'u', name: 'U', email: 'u@example.com' },
      text: 'Looks done',
      createdAt: '2026-11-01T00:00:00.000Z',
      updatedAt: '2026-11-02T00:00:00.000Z',
    };
    const placement = { location: { businessUnit: 'Iron Ore' }, ownerId: 'u', assigneeId: null };
    const item = commentItem('a1', comment, placement as never);
    expect(item[attr.id]).toBe('a1');
    // Where the action was when the text was written stays in the store, never in the comment shown.
    expect(item[attr.textPlacement]).toEqual(placement);
    expect(commentFrom(item)).toEqual(comment);
  });
});
