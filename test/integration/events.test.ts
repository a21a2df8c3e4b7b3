import { randomUUID } from 'node:crypto';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { handler as ingestHandler } from '../../functions/ingestActions';
import { localEnvironment } from '../../infra/local/stack';
import { ingestFunction } from '../../lib/http/routes';
import { logSink } from '../../lib/logger';
import { actionBody, call, dataDir, newUser, publishedEvents, uniqueProducer, waitForEvents } from '../support/client';

/**
 * Issue 6: ingest through the real SQS handler against the running local stack's store, and the
 * events the stack publishes to $DATA_DIR/events.ndjson for every create, edit and delete.
 */

type Handler = (event: SQSEvent, context: never) => Promise<SQSBatchResponse>;
const ingest = ingestHandler as unknown as Handler;

/** What the ingest logged as an error, by message id: invalid events are warnings, not errors. */
const errorsLogged = new Map<string, LoggedError>();
interface LoggedError {
  name: string;
  message: string;
  cause?: LoggedError;
}
const brief = (e?: LoggedError): string =>
  e ? `${e.name}: ${e.message}${e.cause ? ` (cause: ${brief(e.cause)})` : ''}` : 'nothing logged';

beforeAll(async () => {
  Object.assign(process.env, localEnvironment(dataDir(), inject('storeEndpoint')), { LOG_LEVEL: 'error' });
  logSink.write = (line) => {
    const entry = JSON.parse(line) as { correlationId: string; error: LoggedError };
    errorsLogged.set(entry.correlationId, entry.error);
  };
});

const record = (body: unknown): SQSRecord =>
  ({
    messageId: randomUUID(),
    receiptHandle: 'test',
    body: typeof body === 'string' ? body : JSON.stringify(body),
    attributes: {},
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:local:000000000000:requests',
    awsRegion: 'us-east-1',
  }) as unknown as SQSRecord;

const requested = (producer: string, reference: string, overrides: Record<string, unknown> = {}) => ({
  version: '0',
  id: randomUUID(),
  'detail-type': 'ActionRequested',
  source: 'inspections.example',
  time: new Date().toISOString(),
  detail: {
    ...actionBody(producer),
    actionProducer: { name: producer, reference },
    owner: { id: 'producer-owner', name: 'Pat Producer', email: 'pat@example.com' },
    ...overrides,
  },
});

async function listByProducer(producer: string) {
  const { token } = newUser();
  const reply = await call('GET', `/api/actions?actionProducer.name=${encodeURIComponent(producer)}&limit=100`, {
    token,
  });
  expect(reply.status).toBe(200);
  return reply.body as { actions: Array<Record<string, any>>; totalCount: number };
}

describe('ingesting ActionRequested events', () => {
  it('creates each valid action once and reports exactly the invalid records', async () => {
    const producer = uniqueProducer('ingest');
    const valid = [record(requested(producer, 'R-1')), record(requested(producer, 'R-2'))];
    const duplicate = record(requested(producer, 'R-1', { title: 'A retried copy' }));
    const invalid = [
      record(requested(producer, 'R-3', { title: '   ' })),
      record({ ...requested(producer, 'R-4'), detail: { ...requested(producer, 'R-4').detail, owner: undefined } }),
      record({
        ...requested(producer, 'R-5'),
        detail: { ...requested(producer, 'R-5').detail, actionProducer: { name: producer } },
      }),
      record({ ...requested(producer, 'R-6'), 'detail-type': 'SomethingElse' }),
      record('not json'),
    ];
    const result = await ingest(
      { Records: [valid[0], invalid[0], duplicate, valid[1], ...invalid.slice(1)] as SQSRecord[] },
      undefined as never,
    );

    expect(result.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(
      invalid.map((r) => r.messageId).sort(),
    );
    const listed = await listByProducer(producer);
    expect(listed.totalCount).toBe(2);
    expect(listed.actions.map((a) => a.actionProducer.reference).sort()).toEqual(['R-1', 'R-2']);
    const first = listed.actions.find((a) => a.actionProducer.reference === 'R-1');
    // The first delivery won; the duplicate changed nothing.
    expect(first?.title).toBe(actionBody(producer).title);
    expect(first?.owner).toEqual({ id: 'producer-owner', name: 'Pat Producer', email: 'pat@example.com' });

    // Replaying the whole batch creates nothing new.
    const replay = await ingest({ Records: [...valid, duplicate] }, undefined as never);
    expect(replay.batchItemFailures).toEqual([]);
    expect((await listByProducer(producer)).totalCount).toBe(2);
  });

  it('makes one action from 100 concurrent deliveries of one event', async () => {
    const producer = uniqueProducer('concurrent');
    const event = requested(producer, 'ONLY-ONE');
    // 100 copies at once, each to its own function instance, and each copy the function reports
    // as failed received again, as SQS does, until it has been received `maxReceives` times.
    let pending = Array.from({ length: 100 }, () => record(event));
    const busy: string[] = [];
    for (let receive = 1; receive <= ingestFunction.maxReceives && pending.length > 0; receive++) {
      // The queue's visibility timeout (three minutes on AWS), shortened: a failed copy comes back later.
      if (receive > 1) await new Promise((r) => setTimeout(r, 1_000));
      const results = await Promise.all(pending.map((r) => ingest({ Records: [r] }, undefined as never)));
      const failed = new Set(results.flatMap((r) => r.batchItemFailures.map((f) => f.itemIdentifier)));
      pending = pending.filter((r) => failed.has(r.messageId));
      busy.push(...pending.map((r) => r.messageId));
    }
    // None reaches the dead-letter queue, and a copy fails only when the local engine, serving
    // 100 transactions on one JVM, answers "busy" (a 503 the queue retries), never for a race.
    const why = (ids: string[]) => [...new Set(ids.map((id) => brief(errorsLogged.get(id))))];
    expect(pending, why(pending.map((r) => r.messageId)).join('; ')).toEqual([]);
    for (const id of busy) expect(errorsLogged.get(id)?.name).toBe('ServiceUnavailableError');
    if (busy.length > 0) console.info(`${busy.length} copies were received again after:`, why(busy));
    const listed = await listByProducer(producer);
    expect(listed.totalCount).toBe(1);
    const created = (e: any) => e['detail-type'] === 'ActionCreated' && e.detail.id === listed.actions[0]?.id;
    await waitForEvents(created, 1);
    // Give a second event, if there were one, time to follow: there is none.
    await new Promise((r) => setTimeout(r, 500));
    expect(publishedEvents().filter(created)).toHaveLength(1);
  });

  it('never brings back a deleted action', async () => {
    const producer = uniqueProducer('deleted');
    const event = requested(producer, 'GONE');
    await ingest({ Records: [record(event)] }, undefined as never);
    const [action] = (await listByProducer(producer)).actions;
    // The producer's owner is a person like any other: the owner deletes it.
    const owner = newUser();
    const { tokenFor } = await import('../support/client');
    const ownerToken = tokenFor({ sub: 'producer-owner', name: 'Pat Producer' });
    expect((await call('DELETE', `/api/actions/${action?.id}`, { token: owner.token })).status).toBe(403);
    expect((await call('DELETE', `/api/actions/${action?.id}`, { token: ownerToken })).status).toBe(204);
    const replay = await ingest({ Records: [record(event)] }, undefined as never);
    expect(replay.batchItemFailures).toEqual([]);
    expect((await listByProducer(producer)).totalCount).toBe(0);
  });
});

describe('published change events', () => {
  it('publishes ActionCreated, ActionUpdated with exactly the changed fields, and ActionDeleted', async () => {
    const ann = newUser('Ann');
    const producer = uniqueProducer('published');
    const created = await call('POST', '/api/actions', { token: ann.token, body: actionBody(producer) });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const patched = await call('PATCH', `/api/actions/${id}`, {
      token: ann.token,
      body: { title: 'Replace belt and idlers', priority: 5 },
    });
    expect(patched.status).toBe(200);
    expect((await call('DELETE', `/api/actions/${id}`, { token: ann.token })).status).toBe(204);

    const mine = await waitForEvents((e) => e.detail.id === id, 3);
    expect(mine.map((e) => e['detail-type'])).toEqual(['ActionCreated', 'ActionUpdated', 'ActionDeleted']);
    const actor = { id: ann.id, name: 'Ann', email: ann.email };
    for (const event of mine) {
      expect(event.source).toBe('action-tracking');
      expect(event.detail.actor).toEqual(actor);
      expect(Number.isNaN(Date.parse(event.detail.time))).toBe(false);
      expect(event.time).toBe(event.detail.time);
    }
    const [createdEvent, updatedEvent, deletedEvent] = mine;
    expect(createdEvent.detail.action.title).toBe('Replace worn conveyor belt');
    expect(updatedEvent.detail.changes).toEqual({
      title: { before: 'Replace worn conveyor belt', after: 'Replace belt and idlers' },
      priority: { before: '2', after: '5' },
    });
    expect(updatedEvent.detail.time).toBe(patched.body.updatedAt);
    expect(deletedEvent.detail.id).toBe(id);
  });
});
