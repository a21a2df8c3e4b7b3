import { randomUUID } from 'node:crypto';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { handler as ingestHandler } from '../../functions/ingestActions';
import { localEnvironment } from '../../infra/local/stack';
import {
  actionBody,
  call,
  dataDir,
  expectProblem,
  newUser,
  tokenFor,
  uniqueProducer,
  waitForEvents,
} from '../support/client';

/**
 * Issue 15, contract section 8: the history of an action from its producer event to its delete,
 * entry by entry, and each entry published as its event.
 */

const ingest = ingestHandler as unknown as (event: SQSEvent, context: never) => Promise<SQSBatchResponse>;

beforeAll(() => {
  Object.assign(process.env, localEnvironment(dataDir(), inject('storeEndpoint')), { LOG_LEVEL: 'silent' });
});

describe('history', () => {
  it('records every change of an action, oldest first, gap-free, readable after its delete, each one published', async () => {
    const producer = uniqueProducer('history');
    const owner = { id: `u-${randomUUID().slice(0, 8)}`, name: 'Pat Producer', email: 'pat@example.com' };
    const ownerToken = tokenFor({ sub: owner.id, name: owner.name, email: owner.email });
    const helper = newUser('Hal Helper');
    const body = JSON.stringify({
      'detail-type': 'ActionRequested',
      source: 'inspections',
      detail: { ...actionBody(producer), actionProducer: { name: producer, reference: 'H-1' }, owner },
    });
    const ingested = await ingest({ Records: [{ messageId: randomUUID(), body } as SQSRecord] }, undefined as never);
    expect(ingested.batchItemFailures).toEqual([]);
    const listed = await call('GET', `/api/actions?actionProducer.name=${producer}`, { token: ownerToken });
    const id = listed.body.actions[0].id as string;
    const base = `/api/actions/${id}`;

    expect(
      (await call('PATCH', base, { token: ownerToken, body: { title: 'Replace the belt', priority: 1 } })).status,
    ).toBe(200);
    const posted = await call('POST', `${base}/comments`, { token: helper.token, body: { text: 'On it' } });
    const commentId = posted.body.id as string;
    expect(
      (await call('PATCH', `${base}/comments/${commentId}`, { token: helper.token, body: { text: 'Done' } })).status,
    ).toBe(200);
    expect((await call('DELETE', `${base}/comments/${commentId}`, { token: ownerToken })).status).toBe(204);
    expect((await call('PUT', `${base}/endorsements/me`, { token: helper.token })).status).toBe(200);
    expect((await call('DELETE', `${base}/endorsements/me`, { token: helper.token })).status).toBe(204);
    expect((await call('DELETE', base, { token: ownerToken })).status).toBe(204);

    // Readable by anyone signed in, after the delete.
    const history = await call('GET', `${base}/history`, { token: newUser().token });
    expect(history.status).toBe(200);
    expect(history.body.nextCursor).toBeUndefined();
    const helperPerson = { id: helper.id, name: 'Hal Helper', email: helper.email };
    const entries = history.body.entries as Array<Record<string, any>>;
    expect(entries.map((e) => [e.version, e.type, e.actor.id])).toEqual([
      [1, 'created', owner.id],
      [2, 'updated', owner.id],
      [3, 'commented', helper.id],
      [4, 'comment-edited', helper.id],
      [5, 'comment-deleted', owner.id],
      [6, 'endorsed', helper.id],
      [7, 'endorsement-withdrawn', helper.id],
      [8, 'deleted', owner.id],
    ]);
    expect(entries[0]?.actor).toEqual(owner);
    expect(entries[1]?.changes).toEqual({
      title: { before: 'Replace worn conveyor belt', after: 'Replace the belt' },
      priority: { before: '2', after: '1' },
    });
    // Comment entries name the comment and its author; its text lives only in the comment, which
    // is deleted (and so is the action), so none is shown (issue 23).
    expect(entries[2]).toMatchObject({ actor: helperPerson, comment: { id: commentId, author: helperPerson } });
    expect(entries[3]?.comment).toEqual({ id: commentId, author: helperPerson });
    expect(entries[4]?.comment).toEqual({ id: commentId, author: helperPerson });
    for (const entry of entries) expect(Object.keys(entry).sort()).not.toContain('action');
    const times = entries.map((e) => e.time);
    expect(times).toEqual([...times].sort());

    // Each entry is published as its event, with the action id, actor, time and version.
    const events = await waitForEvents((e) => e.detail.id === id, 8);
    expect(events.map((e) => [e['detail-type'], e.detail.version])).toEqual([
      ['ActionCreated', 1],
      ['ActionUpdated', 2],
      ['ActionCommented', 3],
      ['ActionCommentEdited', 4],
      ['ActionCommentDeleted', 5],
      ['ActionEndorsed', 6],
      ['ActionEndorsementWithdrawn', 7],
      ['ActionDeleted', 8],
    ]);
    events.forEach((event, i) => {
      expect(event.detail.actor).toEqual(entries[i]?.actor);
      expect(event.detail.time).toBe(entries[i]?.time);
      expect(event.detail.eventId).toBe(event.id);
    });
    expect(new Set(events.map((e) => e.id)).size).toBe(8);
    expect(events[0].detail.action.id).toBe(id);
    expect(events[1].detail.changes).toEqual(entries[1]?.changes);
  });

  it('pages with a cursor, and is a 404 only for an id that never existed', async () => {
    const owner = newUser('Paula Pager');
    const created = await call('POST', '/api/actions', {
      token: owner.token,
      body: actionBody(uniqueProducer('pages')),
    });
    const base = `/api/actions/${created.body.id}`;
    for (let i = 0; i < 4; i++) await call('PATCH', base, { token: owner.token, body: { priority: i } });
    const first = await call('GET', `${base}/history?limit=2`, { token: owner.token });
    const second = await call('GET', `${base}/history?limit=2&cursor=${first.body.nextCursor}`, { token: owner.token });
    const third = await call('GET', `${base}/history?limit=2&cursor=${second.body.nextCursor}`, { token: owner.token });
    const versions = [first, second, third].flatMap((p) => p.body.entries.map((e: { version: number }) => e.version));
    expect(versions).toEqual([1, 2, 3, 4, 5]);
    expect(third.body.nextCursor).toBeUndefined();
    expectProblem(
      await call('GET', '/api/actions/00000000-0000-4000-8000-000000000000/history', { token: owner.token }),
      404,
    );
    expectProblem(await call('GET', `${base}/history?cursor=bm90LWEtY3Vyc29y`, { token: owner.token }), 400, {
      parameter: 'cursor',
    });
  });
});
