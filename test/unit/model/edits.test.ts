import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { locationFields } from '../../../lib/model/action';
import {
  applyPatch,
  changesBetween,
  legacyProducerActionId,
  newAction,
  personFrom,
  producerActionId,
} from '../../../lib/model/edits';
import { anAction } from '../action-fixture';

const NOW = '2026-11-02T09:30:00.000Z';

/** UUID v5 by hand (RFC 9562 section 5.5), so the ids are checked against the RFC, not against `uuid`. */
function uuidV5(name: string, namespace: string): string {
  const hash = createHash('sha1')
    .update(Buffer.from(namespace.replaceAll('-', ''), 'hex'))
    .update(name, 'utf8')
    .digest()
    .subarray(0, 16);
  hash[6] = ((hash[6] as number) & 0x0f) | 0x50;
  hash[8] = ((hash[8] as number) & 0x3f) | 0x80;
  const hex = hash.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

describe('personFrom', () => {
  it('shows the id for a missing name and null for a missing email', () => {
    expect(personFrom({ id: 'u1' })).toEqual({ id: 'u1', name: 'u1', email: null });
    expect(personFrom({ id: 'u1', name: 'Una', email: null })).toEqual({ id: 'u1', name: 'Una', email: null });
    expect(personFrom({ id: 'u1', name: 'Una', email: 'u@example.com' })).toEqual({
      id: 'u1',
      name: 'Una',
      email: 'u@example.com',
    });
  });
});

describe('producer ids', () => {
  // Stored actions keep these ids: a change to how they are derived would let a replayed event
  // make a second action. The literals pin them; `uuidV5` shows they are RFC 9562 UUID v5.
  const NAMESPACE = '4f1c1b36-5e0e-4d47-9a57-6f1f6f0c2a11';

  it('are UUID v5 of the JSON array [source, name, reference], and never change', () => {
    const id = producerActionId('acme.inspections', 'inspections', 'INS-1');
    expect(id).toBe('adce1d2b-8c39-50f4-a88a-da9ddb93c076');
    expect(id).toBe(uuidV5('["acme.inspections","inspections","INS-1"]', NAMESPACE));
  });

  it('before sources, were UUID v5 of "name\\nreference"', () => {
    expect(legacyProducerActionId('inspections', 'INS-1')).toBe('b2ffd651-f24a-5e83-9516-4f3ba43dd1c9');
    expect(legacyProducerActionId('inspections', 'INS-1')).toBe(uuidV5('inspections\nINS-1', NAMESPACE));
  });

  it('differ for any two different (source, name, reference), however their text overlaps', () => {
    // "a\nb" + "c" and "a" + "b\nc" made one legacy id; the JSON array keeps them apart.
    expect(producerActionId('s', 'a\nb', 'c')).not.toBe(producerActionId('s', 'a', 'b\nc'));
    expect(producerActionId('s","a', 'b', 'c')).not.toBe(producerActionId('s', 'a","b', 'c'));
    const part = fc.string({ unit: fc.constantFrom('a', '"', '\\', ',', '\n', '['), maxLength: 4 });
    fc.assert(
      fc.property(fc.tuple(part, part, part), fc.tuple(part, part, part), (x, y) => {
        fc.pre(JSON.stringify(x) !== JSON.stringify(y));
        expect(producerActionId(...x)).not.toBe(producerActionId(...y));
      }),
    );
  });
});

describe('newAction', () => {
  const owner = personFrom({ id: 'o' });
  const initiator = personFrom({ id: 'i', name: 'Ida' });

  it('fills every default a create body may leave out', () => {
    const action = newAction(
      'id-1',
      { title: 'T', actionProducer: { name: 'p' }, dueAt: '2026-12-01T10:00:00.000Z', priority: 1, status: 0 },
      owner,
      initiator,
      NOW,
    );
    expect(action).toEqual({
      id: 'id-1',
      title: 'T',
      description: '',
      actionProducer: { name: 'p' },
      location: Object.fromEntries(locationFields.map((f) => [f, ''])),
      allowAnonymousEdits: false,
      dueAt: '2026-12-01T10:00:00.000Z',
      priority: 1,
      status: 0,
      owner,
      initiator,
      assignee: null,
      endorsedBy: [],
      attachments: [],
      tags: [],
      comments: [],
      commentCount: 0,
      createdAt: NOW,
      updatedAt: NOW,
      closedAt: null,
      version: 1,
      overdue: false,
      reminded: 0,
    });
    // No `url: undefined` or `reference: undefined` keys to be stored or shown.
    expect(Object.keys(action.actionProducer)).toEqual(['name']);
  });

  it('keeps what the body sent, and makes the assignee a person', () => {
    const action = newAction(
      'id-2',
      {
        title: 'T',
        description: 'D',
        actionProducer: { name: 'p', url: 'https://p.example/1', reference: 'R' },
        location: { site: 'S', crew: undefined },
        allowAnonymousEdits: true,
        dueAt: '2026-12-01T10:00:00.000Z',
        priority: 3,
        status: 2,
        tags: ['x'],
        attachments: [{ url: 'https://files.example/a.pdf' }],
        assignee: { id: 'a1' },
      },
      owner,
      initiator,
      NOW,
    );
    expect(action.actionProducer).toEqual({ name: 'p', url: 'https://p.example/1', reference: 'R' });
    expect(action.location.site).toBe('S');
    expect(action.location.crew).toBe('');
    expect(action.assignee).toEqual({ id: 'a1', name: 'a1', email: null });
    expect(action).toMatchObject({ description: 'D', allowAnonymousEdits: true, tags: ['x'], priority: 3 });
  });
});

describe('applyPatch', () => {
  const action = anAction({
    description: 'old',
    actionProducer: { name: 'inspections', url: 'https://p.example/1', reference: 'INS-1' },
    assignee: personFrom({ id: 'a1' }),
  });

  it('bumps the version and stamps updatedAt, even for an empty patch, and leaves the input alone', () => {
    const copy = structuredClone(action);
    const next = applyPatch(action, {}, NOW);
    expect(next).toEqual({ ...action, version: action.version + 1, updatedAt: NOW });
    expect(action).toEqual(copy);
  });

  it('resets what a null removes: description, tags, attachments, assignee, location, producer url', () => {
    const next = applyPatch(
      action,
      {
        description: null,
        tags: null,
        attachments: null,
        assignee: null,
        location: null,
        actionProducer: { url: null },
      },
      NOW,
    );
    expect(next).toMatchObject({ description: '', tags: [], attachments: [], assignee: null });
    expect(Object.values(next.location).every((v) => v === '')).toBe(true);
    expect(next.actionProducer).toEqual({ name: 'inspections', reference: 'INS-1' });
    expect('url' in next.actionProducer).toBe(false);
  });

  it('merges a location patch field by field, a null field becoming empty', () => {
    const next = applyPatch(action, { location: { site: null, crew: 'C9' } }, NOW);
    expect(next.location).toEqual({ ...action.location, site: '', crew: 'C9' });
    expect(next.location.team).toBe('Blue');
  });

  it('sets each sent field, and only those', () => {
    const next = applyPatch(
      action,
      {
        title: 'New',
        dueAt: '2027-01-01T00:00:00.000Z',
        priority: 9,
        status: 3,
        allowAnonymousEdits: true,
        assignee: { id: 'b2', name: 'Bea' },
        actionProducer: { url: 'https://p.example/2' },
      },
      NOW,
    );
    expect(next).toMatchObject({
      title: 'New',
      description: 'old',
      dueAt: '2027-01-01T00:00:00.000Z',
      priority: 9,
      status: 3,
      allowAnonymousEdits: true,
      assignee: { id: 'b2', name: 'Bea', email: null },
      actionProducer: { name: 'inspections', url: 'https://p.example/2', reference: 'INS-1' },
      tags: action.tags,
    });
  });
});

describe('changesBetween', () => {
  const before = anAction();

  it('names each changed field with its API values, and never updatedAt or version', () => {
    const after = applyPatch(before, { title: 'New', priority: 5, assignee: { id: 'a1' } }, NOW);
    expect(changesBetween(before, after)).toEqual({
      title: { before: 'Fix the guard rail', after: 'New' },
      // The view's values: numbers as strings, nobody assigned as the seed's placeholder.
      priority: { before: '2', after: '5' },
      assignee: {
        before: { id: 'undefined', name: 'Unknown user', email: '' },
        after: { id: 'a1', name: 'a1', email: null },
      },
    });
  });

  it('is empty for a patch that changes nothing, and leaves out what is never shown', () => {
    expect(changesBetween(before, applyPatch(before, { title: before.title, tags: [...before.tags] }, NOW))).toEqual(
      {},
    );
    expect(changesBetween(before, { ...before, reminded: 2 })).toEqual({});
  });

  it('reports a location change as the whole location', () => {
    const after = applyPatch(before, { location: { crew: 'C1' } }, NOW);
    expect(changesBetween(before, after)).toEqual({
      location: { before: before.location, after: { ...before.location, crew: 'C1' } },
    });
  });
});
