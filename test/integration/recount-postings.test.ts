import { randomUUID } from 'node:crypto';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { postingsTableName, send, tableName } from '../../lib/store/client';
import { recount } from '../../lib/store/counters/recount';
import { readRegistry, registryPartition } from '../../lib/store/registry';
import { actionBody, call, create, list, newUser, q, uniqueProducer, useOwnStack } from '../support/client';
import { untilAllIndexed, untilIndexed } from '../support/indexed';

/**
 * Issue 42 (Low-medium): an action left without postings (a bulk load cut short between the
 * action and its postings) was never found, and nothing checked or repaired postings. `npm run
 * recount` now proves them against the actions and `--fix` repairs them: missing ones written,
 * ones no action makes deleted.
 */

const user = newUser('Rex Recount');
const word = () =>
  `zp${randomUUID()
    .replace(/-/g, '')
    .slice(0, 10)
    .replace(/[0-9]/g, (d) => String.fromCharCode(103 + Number(d)))}q`;

// A recount reads the whole table: on the shared stack that is every other file's actions and
// postings too (344 s in a full run), so this file has a stack of its own (its env is that stack's).
useOwnStack();

describe('npm run recount proves and repairs the search postings', () => {
  it('finds an action without postings and a posting without an action, and --fix repairs both', async () => {
    const needle = word();
    const id = await create(user.token, actionBody(uniqueProducer('rp'), { title: `Lost ${needle} pump` }));
    await untilIndexed([id]);
    const got = await call('GET', `/api/actions/${id}`, { token: user.token });
    const createdKey = `${got.body.createdAt}#${id}`;
    // The postings of its needle are gone, as a load cut short would leave them; one of a
    // deleted action stays behind.
    const grams = [...needle].slice(0, -2).map((_, i) => needle.slice(i, i + 3));
    for (const gram of grams)
      await send(new DeleteCommand({ TableName: postingsTableName(), Key: { id: `g#t#${gram}`, sk: createdKey } }));
    const orphan = `2020-01-01T00:00:00.000Z#${randomUUID()}`;
    await send(
      new PutCommand({
        TableName: postingsTableName(),
        Item: { id: `g#t#${needle.slice(0, 3)}`, sk: orphan, x: needle },
      }),
    );
    expect((await list(user.token, q('title', `*${needle}`))).totalCount).toBe(0);

    const report = await recount();
    expect(report.postings.actions).toContain(createdKey);
    expect(report.postings.orphans).toContain(orphan);
    const fixed = await recount({ fix: true });
    expect(fixed.fixed).toBe(true);

    const found = await list(user.token, q('title', `*${needle}`));
    expect(found.actions.map((a: { id: string }) => a.id)).toEqual([id]);
    expect(found.totalCount).toBe(1);
    const again = await recount();
    expect(again.postings.actions).not.toContain(createdKey);
    expect(again.postings.orphans).not.toContain(orphan);
  }, 600_000);

  it('finds a value some action has that the value registry lacks, and --fix registers it', async () => {
    const producer = uniqueProducer('rv');
    const id = await create(user.token, actionBody(producer));
    await untilIndexed([id]);
    const key = { id: registryPartition('actionProducer.name'), sk: producer };
    for (let n = 0; n < 50 && !(await readRegistry('actionProducer.name')).includes(producer); n++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    await send(new DeleteCommand({ TableName: postingsTableName(), Key: key }));

    expect((await recount()).unregistered).toBeGreaterThanOrEqual(1);
    expect((await recount({ fix: true })).fixed).toBe(true);
    expect(await readRegistry('actionProducer.name')).toContain(producer);
    expect((await recount()).unregistered).toBe(0);
  }, 600_000);

  it('a repair while the service writes leaves no drift of its own: a scan is no snapshot', async () => {
    // Three writers create, move (status, site), re-title and delete while repairs scan, until
    // 40 actions have gone through it: a scan can read a counter before a write and its action
    // after it, and a repair of what one scan saw would add that passing difference for good.
    // A scan reads 1 MB a page: 12 MB of padding makes each one a dozen pages, with writes between.
    for (let i = 0; i < 40; i++)
      await send(
        new PutCommand({ TableName: tableName(), Item: { id: `z#padding#${i}`, sk: 'z', pad: 'x'.repeat(300_000) } }),
      );
    const producer = uniqueProducer('rw');
    let made = 0;
    let writing = true;
    const writer = async () => {
      while (writing) {
        const n = made++;
        const id = await create(user.token, actionBody(producer, { title: `Moving ${word()} ${n}` }));
        for (const body of [{ status: 1 }, { location: { site: `site-${n % 3}` } }, { title: `Renamed ${word()}` }]) {
          const reply = await call('PATCH', `/api/actions/${id}`, { token: user.token, body });
          expect(reply.status, JSON.stringify(reply.body)).toBe(200);
        }
        if (n % 2 === 0) expect((await call('DELETE', `/api/actions/${id}`, { token: user.token })).status).toBe(204);
      }
    };
    const writers = Promise.all([writer(), writer(), writer()]);
    let repairs = 0;
    while (made < 40) {
      await recount({ fix: true });
      repairs++;
    }
    writing = false;
    await writers;
    await untilAllIndexed();
    const after = await recount();
    expect(after.drift).toEqual([]);
    expect(after.postings).toEqual({ actions: [], orphans: [] });
    expect(repairs).toBeGreaterThan(1);
  }, 600_000);
});
