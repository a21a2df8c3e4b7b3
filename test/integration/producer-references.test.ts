import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { producerActionId } from '../../lib/model/edits';
import { actionBody, call, create, expectProblem, list, newUser, q } from '../support/client';
import { runIngest } from '../support/ingest-cli';

/**
 * Issue 11, finding 1: a signed-in user must not squat or suppress a producer's work (contract
 * sections 3 and 7). Only the producer's `ActionRequested` event claims its name + reference; an
 * API create with the same pair is a note that blocks nothing, and the pair never changes after
 * creation. Each attack runs end to end: HTTP for the user, `npm run ingest` for the producer.
 */

const mallory = newUser('Mallory Squatter');
const pat = { id: `pat-${randomUUID()}`, name: 'Pat Producer', email: 'pat@example.com' };
const producer = `SAP ${randomUUID().slice(0, 8)}`;

const requested = (reference: string, source = 'sap.example') => ({
  version: '0',
  id: randomUUID(),
  'detail-type': 'ActionRequested',
  source,
  time: new Date().toISOString(),
  detail: {
    ...actionBody(producer, { title: `SAP work order ${reference}` }),
    actionProducer: { name: producer, reference },
    owner: pat,
  },
});

const squat = (reference: string) =>
  create(
    mallory.token,
    actionBody(producer, { title: 'Not the real one', actionProducer: { name: producer, reference } }),
  );

const byReference = async (reference: string) =>
  (await list(mallory.token, `${q('actionProducer.name', producer)}&${q('actionProducer.reference', reference)}`))
    .actions;

/** Delivers the producer's events for `references` through `npm run ingest`; all must be accepted. */
async function producerSends(references: string[]) {
  const result = await runIngest(references.map((reference) => requested(reference)));
  const summary = /(\d+) created, (\d+) already existed, 0 rejected/.exec(result.stdout);
  expect(summary, result.stdout + result.stderr).not.toBeNull();
  expect(Number(summary?.[1]) + Number(summary?.[2])).toBe(references.length);
  expect(result.code, result.stderr).toBe(0);
}

/** The producer's own action for `reference`: the derived id, its owner, its title. */
async function expectProducersAction(reference: string) {
  const mine = (await byReference(reference)).filter((a) => a.owner.id === pat.id);
  expect(mine, `${reference}: exactly one producer-raised action`).toHaveLength(1);
  const [real] = mine;
  expect(real.id).toBe(producerActionId('sap.example', producer, reference));
  expect(real.title).toBe(`SAP work order ${reference}`);
  expect(real.initiator).toEqual(pat);
  expect(real.actionProducer).toEqual({ name: producer, reference });
}

describe('producer references: only the producer claims one', () => {
  it('squat: an API create with the producer name and reference does not stop the event', async () => {
    const squatted = await squat('INC-1001');
    expect(squatted).not.toBe(producerActionId('sap.example', producer, 'INC-1001'));
    await producerSends(['INC-1001']);
    await expectProducersAction('INC-1001');
    // The note stands beside the real action, still the squatter's.
    expect((await byReference('INC-1001')).map((a) => a.id).sort()).toEqual(
      [squatted, producerActionId('sap.example', producer, 'INC-1001')].sort(),
    );
    // A replay changes nothing.
    await producerSends(['INC-1001']);
    await expectProducersAction('INC-1001');
  });

  it('squat, then delete: the deleted note leaves nothing that blocks the reference', async () => {
    const deleted = await squat('INC-1002');
    expect((await call('DELETE', `/api/actions/${deleted}`, { token: mallory.token })).status).toBe(204);
    await producerSends(['INC-1002']);
    await expectProducersAction('INC-1002');
    expect((await byReference('INC-1002')).map((a) => a.id)).toEqual([
      producerActionId('sap.example', producer, 'INC-1002'),
    ]);
  });

  it('squat, then unset the reference: 400, and the event still creates its action', async () => {
    const unset = await squat('INC-1003');
    for (const reference of [null, 'INC-1009']) {
      const reply = await call('PATCH', `/api/actions/${unset}`, {
        token: mallory.token,
        body: { actionProducer: { reference } },
      });
      expectProblem(reply, 400, { field: 'actionProducer.reference' });
      expect(reply.body.errors[0].message).toBe('cannot be changed after creation');
    }
    await producerSends(['INC-1003']);
    await expectProducersAction('INC-1003');
    expect((await byReference('INC-1003')).map((a) => a.id).sort()).toEqual(
      [unset, producerActionId('sap.example', producer, 'INC-1003')].sort(),
    );
  });

  it('a PATCH cannot give an action the producer reference (so no two actions share one by edit)', async () => {
    const plain = await create(mallory.token, actionBody(producer, { title: 'No reference' }));
    expectProblem(
      await call('PATCH', `/api/actions/${plain}`, {
        token: mallory.token,
        body: { actionProducer: { reference: 'INC-1004' } },
      }),
      400,
      { field: 'actionProducer.reference' },
    );
    await producerSends(['INC-1004']);
    await expectProducersAction('INC-1004');
    expect(await byReference('INC-1004')).toHaveLength(1);
  });
});

describe("producer references: only the producer's own source claims one (issue 23)", () => {
  it('an impostor source naming the producer and its reference neither takes nor blocks it', async () => {
    const event = requested('INC-2001', 'evil.producer');
    const eve = { id: `eve-${randomUUID()}`, name: 'Eve Impostor', email: 'eve@example.com' };
    const impostor = await runIngest([{ ...event, detail: { ...event.detail, title: 'Taken', owner: eve } }]);
    expect(impostor.code, impostor.stderr).toBe(0);
    const taken = await byReference('INC-2001');
    expect(taken.map((a) => a.id)).toEqual([producerActionId('evil.producer', producer, 'INC-2001')]);
    // The real producer's event is not a duplicate of the impostor's: it creates the producer's action.
    await producerSends(['INC-2001']);
    await expectProducersAction('INC-2001');
    expect(await byReference('INC-2001')).toHaveLength(2);
  });

  it('with PRODUCER_SOURCES set, ingest rejects an event from any other source as invalid', async () => {
    const env = { PRODUCER_SOURCES: 'sap.example, other.example' };
    const impostor = await runIngest([requested('INC-2002', 'evil.producer')], env);
    expect(impostor.code).toBe(1);
    expect(impostor.stderr).toMatch(/line 1: rejected: .*"field":"source".*not a producer source/);
    expect(await byReference('INC-2002')).toEqual([]);
    const real = await runIngest([requested('INC-2002')], env);
    expect(real.stdout, real.stderr).toMatch(/1 created, 0 already existed, 0 rejected/);
    await expectProducersAction('INC-2002');
  });
});
