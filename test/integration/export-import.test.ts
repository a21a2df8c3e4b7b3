import { expect, it } from 'vitest';
import { actionBody, call, newUser, uniqueProducer, useOwnStack } from '../support/client';
import { postForm } from '../support/evidence';

/**
 * Issue 51, contract section 18: "So an export imports back as new actions". A list exported as
 * CSV and as XLSX by the real worker, downloaded from the local storage, uploaded as an import
 * and run: every row is valid, and the real run makes one new action per row with the same
 * fields a person sets (title, description, status, priority, dueAt, assignee, producer,
 * location, tags), the importer as owner. Its own stack, so the workers run in this process.
 */

useOwnStack({ ACCESS: 'open', LOG_LEVEL: 'silent' });

const CSV_TYPE = 'text/csv';
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const COUNT = 6;

async function waitFor(path: string, token: string): Promise<any> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    const reply = await call('GET', path, { token });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    if (reply.body.status === 'done' || reply.body.status === 'failed') return reply.body;
    if (Date.now() > deadline) throw new Error(`${path} still ${reply.body.status}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** What a person set on an action, in the order a comparison wants. */
const settable = (a: any) => ({
  title: a.title,
  description: a.description,
  status: a.status,
  priority: a.priority,
  dueAt: a.dueAt,
  assignee: a.assignee?.id,
  producer: a.actionProducer.name,
  location: a.location,
  tags: a.tags,
});

it.each([
  ['csv', CSV_TYPE, 'actions.csv'],
  ['xlsx', XLSX_TYPE, 'actions.xlsx'],
] as const)(
  'a %s export imports back as new actions, every row valid and each made once',
  async (format, type, name) => {
    const ann = newUser('Ann Importer');
    const producer = uniqueProducer(`round-trip-${format}`);
    for (let i = 0; i < COUNT; i++) {
      const created = await call('POST', '/api/actions', {
        token: ann.token,
        body: actionBody(producer, {
          title: `Round trip ${i}, "quoted"`,
          description: `Line one\nline two ${i}`,
          priority: String(1 + (i % 3)),
          status: String(1 + (i % 2)),
          dueAt: `2036-12-0${1 + i}T10:00:00.000Z`,
          tags: i % 2 ? ['guarding', 'belt'] : [],
          ...(i % 3 === 0 ? { assignee: { id: 'u-bob', name: 'Bob Builder' } } : {}),
        }),
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    }
    const query = `actionProducer.name=${producer}&sort=title`;
    const originals = (await call('GET', `/api/actions?${query}&limit=100`, { token: ann.token })).body.actions;
    expect(originals).toHaveLength(COUNT);

    const asked = await call('POST', '/api/exports', { token: ann.token, body: { format, query } });
    expect(asked.status, JSON.stringify(asked.body)).toBe(202);
    const exported = await waitFor(`/api/exports/${asked.body.id}`, ann.token);
    expect(exported).toMatchObject({ status: 'done', rows: COUNT });
    const file = await fetch(exported.url);
    expect(file.status).toBe(200);
    const bytes = new Uint8Array(await file.arrayBuffer());

    const started = await call('POST', '/api/imports/uploads', {
      token: ann.token,
      body: { name, contentType: type, size: bytes.length },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const posted = await postForm(started.body, bytes);
    expect(posted.status, posted.text).toBe(204);

    for (const dryRun of [true, false]) {
      const run = await call('POST', '/api/imports', {
        token: ann.token,
        body: { uploadId: started.body.uploadId, dryRun },
      });
      expect(run.status, JSON.stringify(run.body)).toBe(202);
      const report = await waitFor(`/api/imports/${run.body.id}`, ann.token);
      expect(report, JSON.stringify(report)).toMatchObject({
        status: 'done',
        rows: COUNT,
        valid: COUNT,
        invalid: 0,
        created: dryRun ? 0 : COUNT,
      });
      expect(report.errors ?? []).toEqual([]);
    }

    const after = (await call('GET', `/api/actions?${query}&limit=100`, { token: ann.token })).body.actions;
    expect(after).toHaveLength(2 * COUNT);
    const made = after.filter((a: any) => !originals.some((o: any) => o.id === a.id));
    expect(made).toHaveLength(COUNT);
    const byTitle = (list: any[]) => [...list].sort((a, b) => a.title.localeCompare(b.title)).map(settable);
    expect(byTitle(made)).toEqual(byTitle(originals));
    for (const action of made) expect(action.owner.id).toBe(ann.id);
  },
);
