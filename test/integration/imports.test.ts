import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { handler as importWorker } from '../../functions/importActions';
import { issueToken, type LocalUser } from '../../infra/local/issuer';
import { importFunction } from '../../lib/http/import-routes';
import { readImport, updateImport } from '../../lib/store/imports';
import { runImport } from '../../lib/transfer/import/worker';
import { actionBody, call, dataDir, expectProblem, issuerFiles, useOwnStack } from '../support/client';
import { postForm } from '../support/evidence';

/**
 * Issue 51, contract section 18, the import half: a file uploaded straight to the local storage,
 * checked row by row in the API's own words (a dry run), created once (a real run, again, and a
 * resumed one), the encodings, delimiters, limits and missing columns section 18 names, an XLSX
 * with formulas and dates, one email per assignee per import, and section 14 per row. Its own
 * stack in ACCESS=scoped (an admin of `{}` imports anywhere), in this process, so the worker's
 * resume can be driven directly.
 */

useOwnStack({ ACCESS: 'scoped', LOG_LEVEL: 'silent' });

/** The export's columns (section 18), written out here as the oracle, not read from the code under test. */
const EXPORT_COLUMNS = [
  'id',
  'title',
  'description',
  'status',
  'priority',
  'dueAt',
  'overdue',
  'closedAt',
  'assignee.id',
  'assignee.name',
  'assignee.email',
  'owner.id',
  'owner.name',
  'owner.email',
  'initiator.id',
  'initiator.name',
  'actionProducer.name',
  'actionProducer.url',
  'actionProducer.reference',
  'location.businessUnit',
  'location.site',
  'location.department',
  'location.workGroup',
  'location.productiveUnit',
  'location.team',
  'location.crew',
  'tags',
  'attachments',
  'comments',
  'endorsements',
  'createdAt',
  'updatedAt',
  'url',
];

let people = 0;
/** A person with a verified email, remembered by the service once they have called it. */
async function person(
  name: string,
  groups: string[] = [],
  sub = `imp-${name.toLowerCase()}-${++people}-${randomUUID().slice(0, 6)}`,
) {
  const user: LocalUser = { sub, name, email: `${sub}@example.com`, groups };
  const token = issueToken(issuerFiles(), user);
  const reply = await call('GET', '/api/me', { token });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return { id: sub, name, email: user.email as string, token };
}
type Person = Awaited<ReturnType<typeof person>>;

const CSV_TYPE = 'text/csv';
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Uploads a file as a client does: ask for the presigned POST, then POST the form to storage. */
async function upload(who: Person, bytes: Uint8Array, contentType = CSV_TYPE, name = 'actions.csv') {
  const started = await call('POST', '/api/imports/uploads', {
    token: who.token,
    body: { name, contentType, size: bytes.length },
  });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const posted = await postForm(started.body, bytes);
  expect(posted.status, posted.text).toBe(204);
  return started.body.uploadId as string;
}

/** Starts an import and waits for it to finish; the report as GET shows it. */
async function importFile(who: Person, uploadId: string, dryRun: boolean, timeoutMs = 120_000) {
  const started = await call('POST', '/api/imports', { token: who.token, body: { uploadId, dryRun } });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  expect(started.headers.get('location')).toBe(`/api/imports/${started.body.id}`);
  expect(Object.keys(started.body).sort()).toEqual(
    ['created', 'dryRun', 'id', 'invalid', 'rows', 'status', 'valid'].sort(),
  );
  return waitDone(who, started.body.id, timeoutMs);
}

async function waitDone(who: Person, id: string, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const reply = await call('GET', `/api/imports/${id}`, { token: who.token });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    if (reply.body.status === 'done' || reply.body.status === 'failed') return reply.body;
    if (Date.now() > deadline) throw new Error(`import ${id} still ${reply.body.status}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** RFC 4180 text of one cell. */
const quote = (cell: string) => (/[",;\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);
const csvOf = (rows: string[][], delimiter = ',') =>
  `${rows.map((row) => row.map(quote).join(delimiter)).join('\r\n')}\r\n`;
const utf8 = (text: string, bom = false) => new TextEncoder().encode(bom ? `\ufeff${text}` : text);

/** One row in the export's layout, from a map of column -> cell; service-set columns filled as an export fills them. */
function exportRow(cells: Record<string, string>): string[] {
  const full: Record<string, string> = {
    id: randomUUID(),
    overdue: 'false',
    closedAt: '',
    'owner.id': 'someone-else',
    'owner.name': 'Someone Else',
    'owner.email': '',
    'initiator.id': 'someone-else',
    'initiator.name': 'Someone Else',
    attachments: '0',
    comments: '3',
    endorsements: '1',
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-02T00:00:00.000Z',
    url: 'https://console.example.com/actions/x',
    ...cells,
  };
  return EXPORT_COLUMNS.map((c) => full[c] ?? '');
}

/** A valid row of `producer` as export cells. */
function goodCells(producer: string, title: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    title,
    description: 'Belt shows fraying at splice',
    status: '1',
    priority: '2',
    dueAt: '2036-12-01T10:00:00.000Z',
    'assignee.id': 'undefined',
    'assignee.name': 'Unknown user',
    'assignee.email': '',
    'actionProducer.name': producer,
    'actionProducer.url': 'https://inspections.example.com/i/1',
    'actionProducer.reference': '',
    'location.businessUnit': 'Iron Ore',
    'location.site': 'North Pit',
    'location.department': 'Maintenance',
    'location.workGroup': 'Mechanical',
    'location.productiveUnit': 'Crusher 2',
    'location.team': 'Day',
    'location.crew': 'A',
    tags: 'belt; conveyor',
    ...extra,
  };
}

async function producerActions(who: Person, producer: string) {
  const reply = await call('GET', `/api/actions?actionProducer.name=${encodeURIComponent(producer)}&limit=100`, {
    token: who.token,
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body as { actions: any[]; totalCount: number };
}

interface Sent {
  destination: { to: string[] };
  subject: string;
  body: { text?: string };
}
async function mail(): Promise<Sent[]> {
  const { mail: url } = JSON.parse(readFileSync(join(dataDir(), 'stack.json'), 'utf8')) as { mail: string };
  return ((await (await fetch(`${url}/store`)).json()) as { emails: Sent[] }).emails;
}

/**
 * Twenty kinds of bad row: the cells the file holds, the body a client would send the API for
 * the same thing, and the column the report names.
 */
const long = (n: number) => 'x'.repeat(n);
const badKinds: Array<{ kind: string; cells: Record<string, string>; body: Record<string, unknown>; column: string }> =
  [
    { kind: 'empty title', cells: { title: '' }, body: { title: '' }, column: 'title' },
    { kind: 'blank title', cells: { title: '   ' }, body: { title: '   ' }, column: 'title' },
    { kind: 'title too long', cells: { title: long(201) }, body: { title: long(201) }, column: 'title' },
    { kind: 'control in title', cells: { title: 'Bell\u0007' }, body: { title: 'Bell\u0007' }, column: 'title' },
    {
      kind: 'empty producer',
      cells: { 'actionProducer.name': '' },
      body: { actionProducer: { name: '' } },
      column: 'actionProducer.name',
    },
    {
      kind: 'dueAt without offset',
      cells: { dueAt: '2026-12-01T10:00:00' },
      body: { dueAt: '2026-12-01T10:00:00' },
      column: 'dueAt',
    },
    { kind: 'dueAt not a date', cells: { dueAt: 'tomorrow' }, body: { dueAt: 'tomorrow' }, column: 'dueAt' },
    {
      kind: 'dueAt impossible day',
      cells: { dueAt: '2026-02-30T10:00:00Z' },
      body: { dueAt: '2026-02-30T10:00:00Z' },
      column: 'dueAt',
    },
    { kind: 'priority a word', cells: { priority: 'high' }, body: { priority: 'high' }, column: 'priority' },
    { kind: 'priority negative', cells: { priority: '-1' }, body: { priority: '-1' }, column: 'priority' },
    { kind: 'status a fraction', cells: { status: '1.5' }, body: { status: '1.5' }, column: 'status' },
    { kind: 'status too large', cells: { status: '1000000000' }, body: { status: '1000000000' }, column: 'status' },
    {
      kind: 'description too long',
      cells: { description: long(10_001) },
      body: { description: long(10_001) },
      column: 'description',
    },
    {
      kind: 'description with a control character',
      cells: { description: 'a\u0001b' },
      body: { description: 'a\u0001b' },
      column: 'description',
    },
    {
      kind: 'producer URL not http',
      cells: { 'actionProducer.url': 'ftp://files.example.com/x' },
      body: { actionProducer: { url: 'ftp://files.example.com/x' } },
      column: 'actionProducer.url',
    },
    {
      kind: 'producer reference blank',
      cells: { 'actionProducer.reference': '  ' },
      body: { actionProducer: { reference: '  ' } },
      column: 'actionProducer.reference',
    },
    {
      kind: 'assignee email not an email',
      cells: { 'assignee.id': 'bob-1', 'assignee.name': 'Bob', 'assignee.email': 'not-an-email' },
      body: { assignee: { id: 'bob-1', name: 'Bob', email: 'not-an-email' } },
      column: 'assignee.email',
    },
    {
      kind: 'assignee name without id',
      cells: { 'assignee.id': '', 'assignee.name': 'Bob', 'assignee.email': '' },
      body: { assignee: { name: 'Bob' } },
      column: 'assignee.id',
    },
    {
      kind: 'bidirectional override in a location',
      cells: { 'location.site': 'North\u202EPit' },
      body: { location: { site: 'North\u202EPit' } },
      column: 'location.site',
    },
    {
      kind: 'a tag too long',
      cells: { tags: `ok; ${long(101)}` },
      body: { tags: ['ok', long(101)] },
      column: 'tags',
    },
    {
      kind: 'too many tags',
      cells: { tags: Array.from({ length: 51 }, (_, i) => `t${i}`).join('; ') },
      body: { tags: Array.from({ length: 51 }, (_, i) => `t${i}`) },
      column: 'tags',
    },
  ];

/** The body `POST /api/actions` gets for the same row: the good row's body with the kind's fields changed. */
function apiBody(producer: string, change: Record<string, unknown>) {
  const base = actionBody(producer) as Record<string, any>;
  const merged: Record<string, any> = { ...base, ...change };
  for (const key of ['actionProducer', 'location'] as const)
    if (change[key]) merged[key] = { ...base[key], ...(change[key] as object) };
  return merged;
}

describe('imports', () => {
  it('a dry run reports every bad row of 20+ kinds in the API words, with row and column; a real run creates exactly the valid rows, once', async () => {
    const admin = await person('Ada', ['action-admins']);
    const producer = `import-${randomUUID().slice(0, 8)}`;
    const rows: string[][] = [EXPORT_COLUMNS];
    const expected: Array<{ row: number; column: string; problem: string }> = [];
    const validTitles: string[] = [];
    for (const [i, bad] of badKinds.entries()) {
      // A valid row before each bad one, so the report's row numbers are checked between them.
      validTitles.push(`Valid ${i}`);
      rows.push(exportRow(goodCells(producer, `Valid ${i}`)));
      rows.push(exportRow(goodCells(producer, `Bad ${i}`, bad.cells)));
      const row = rows.length;
      const answer = await call('POST', '/api/actions', { token: admin.token, body: apiBody(producer, bad.body) });
      expect(answer.status, bad.kind).toBe(400);
      for (const e of answer.body.errors as Array<{ field: string; message: string }>)
        expected.push({ row, column: e.field.replace(/^tags\.\d+$/, 'tags'), problem: e.message });
      expect(
        (answer.body.errors as Array<{ field: string }>).some((e) => e.field.startsWith(bad.column)),
        bad.kind,
      ).toBe(true);
    }
    // A blank line keeps its number and is no row; an unknown column is ignored and listed.
    rows.push([]);
    rows.push(exportRow(goodCells(producer, 'Last valid')));
    validTitles.push('Last valid');
    const file = utf8(csvOf(rows.map((r, i) => (i === 0 ? [...r, 'Inspector notes'] : r.length ? [...r, 'n'] : r))));
    const uploadId = await upload(admin, file);

    const dry = await importFile(admin, uploadId, true);
    expect(dry).toMatchObject({
      status: 'done',
      dryRun: true,
      rows: validTitles.length + badKinds.length,
      valid: validTitles.length,
      invalid: badKinds.length,
      created: 0,
    });
    expect(dry.errors).toEqual(expected);
    expect(dry.errorsUrl).toBeUndefined();
    expect(dry.ignoredColumns).toEqual([
      'id',
      'overdue',
      'closedAt',
      'owner.id',
      'owner.name',
      'owner.email',
      'initiator.id',
      'initiator.name',
      'attachments',
      'comments',
      'endorsements',
      'createdAt',
      'updatedAt',
      'url',
      'Inspector notes',
    ]);
    expect((await producerActions(admin, producer)).totalCount).toBe(0);

    const real = await importFile(admin, uploadId, false);
    expect(real).toMatchObject({
      status: 'done',
      dryRun: false,
      valid: validTitles.length,
      created: validTitles.length,
    });
    expect(real.errors).toEqual(expected);
    const made = await producerActions(admin, producer);
    expect(made.actions.map((a) => a.title).sort()).toEqual([...validTitles].sort());
    const first = made.actions.find((a) => a.title === 'Valid 0');
    expect(first).toMatchObject({
      owner: { id: admin.id, name: admin.name, email: admin.email },
      initiator: { id: admin.id },
      assignee: { id: 'undefined', name: 'Unknown user', email: '' },
      tags: ['belt', 'conveyor'],
      status: '1',
      priority: '2',
      dueAt: '2036-12-01T10:00:00.000Z',
      location: { businessUnit: 'Iron Ore', site: 'North Pit', crew: 'A' },
    });
    const history = await call('GET', `/api/actions/${first.id}/history`, { token: admin.token });
    expect(history.body.entries.map((e: { type: string }) => e.type)).toEqual(['created']);

    // Running it again (the same upload, a real run) is the same import: nothing more is created.
    const again = await importFile(admin, uploadId, false);
    expect(again.id).toBe(real.id);
    expect((await producerActions(admin, producer)).totalCount).toBe(validTitles.length);

    // A resumed worker (its position lost, run in slices) creates nothing twice: every row's key is spent.
    await updateImport(real.id, { status: 'running', phase: 'create', nextRow: 2, created: 0 });
    let slices = 0;
    let calls = 0;
    for (;;) {
      slices++;
      calls = 0;
      // Each slice has time for a row or two (the worker asks the clock before each stretch and each row), then runs out.
      const outcome = await runImport(real.id, () => (++calls <= 2 ? 60_000 : 0));
      if (outcome === 'finished') break;
      const saved = await readImport(real.id);
      expect(saved?.nextRow).toBeGreaterThan(2);
    }
    expect(slices).toBeGreaterThan(2);
    expect((await readImport(real.id))?.created).toBe(validTitles.length);
    expect((await producerActions(admin, producer)).totalCount).toBe(validTitles.length);
    // A POST per bad kind, two imports and a resume: on a machine shared by several test runs, past a minute.
  }, 180_000);

  it('a semicolon file with a BOM is read; a latin-1 file, a missing required column and 100,001 rows fail whole, naming why', async () => {
    const admin = await person('Abe', ['action-admins']);
    const producer = `semi-${randomUUID().slice(0, 8)}`;
    const header = ['Title', 'actionproducer.NAME', 'dueAt', 'priority', 'status', 'description'];
    const semicolon = csvOf(
      [header, ['Check guard; north', producer, '2036-01-01T00:00:00Z', '1', '1', 'Décor, 3 m']],
      ';',
    );
    const semi = await importFile(admin, await upload(admin, utf8(semicolon, true)), false);
    expect(semi).toMatchObject({ status: 'done', rows: 1, valid: 1, invalid: 0, created: 1, errors: [] });
    const [made] = (await producerActions(admin, producer)).actions;
    expect(made).toMatchObject({ title: 'Check guard; north', description: 'Décor, 3 m' });

    const latin1 = Buffer.from(
      csvOf([header.slice(0, 5), ['Café', producer, '2036-01-01T00:00:00Z', '1', '1']]),
      'latin1',
    );
    const badEncoding = await importFile(admin, await upload(admin, new Uint8Array(latin1)), true);
    expect(badEncoding.status).toBe('failed');
    expect(badEncoding.error).toMatch(/not UTF-8.*ISO-8859-1 \(Latin-1\)/);
    expect(badEncoding).toMatchObject({ rows: 0, valid: 0, created: 0, errors: [] });

    const noDueAt = csvOf([
      ['title', 'actionProducer.name', 'priority', 'status'],
      ['A', producer, '1', '1'],
    ]);
    const missing = await importFile(admin, await upload(admin, utf8(noDueAt)), false);
    expect(missing.status).toBe('failed');
    expect(missing.error).toContain("no 'dueAt' column");

    const line = `Row,${producer}-big,2036-01-01T00:00:00Z,1,1\r\n`;
    const big = utf8(`title,actionProducer.name,dueAt,priority,status\r\n${line.repeat(100_001)}`);
    const tooMany = await importFile(admin, await upload(admin, big), false, 240_000);
    expect(tooMany.status).toBe('failed');
    expect(tooMany.error).toContain('more than 100,000 rows');
    expect(tooMany.created).toBe(0);
    expect((await producerActions(admin, `${producer}-big`)).totalCount).toBe(0);
  }, 300_000);

  it('a 51 MB file is refused at the upload request, naming size; storage refuses a body larger than declared', async () => {
    const admin = await person('Abby');
    const big = await call('POST', '/api/imports/uploads', {
      token: admin.token,
      body: { name: 'big.csv', contentType: CSV_TYPE, size: 51 * 1024 * 1024 },
    });
    expectProblem(big, 400, { field: 'size' });
    expect(big.body.errors[0].message).toBe('must be at most 52428800 bytes');
    const pdf = await call('POST', '/api/imports/uploads', {
      token: admin.token,
      body: { name: 'a.pdf', contentType: 'application/pdf', size: 10 },
    });
    expectProblem(pdf, 400, { field: 'contentType' });
    const started = await call('POST', '/api/imports/uploads', {
      token: admin.token,
      body: { name: 'a.csv', contentType: CSV_TYPE, size: 1000 },
    });
    const larger = await postForm(started.body, new Uint8Array(1001));
    expect(larger.status).toBe(400);
    expect(larger.text).toContain('EntityTooLarge');
    // An upload never stored, or another person's, is no import.
    const notStored = await call('POST', '/api/imports', {
      token: admin.token,
      body: { uploadId: started.body.uploadId, dryRun: true },
    });
    expectProblem(notStored, 400, { field: 'uploadId' });
    const bad = await call('POST', '/api/imports', { token: admin.token, body: { uploadId: 'x', dryRun: 'yes' } });
    expectProblem(bad, 400, { field: 'dryRun' });
  });

  it('an XLSX file: formula cells give their saved results, never evaluated; date cells and ISO strings are dates', async () => {
    const admin = await person('Alma', ['action-admins']);
    const producer = `xlsx-${randomUUID().slice(0, 8)}`;
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Actions');
    sheet.addRow(['title', 'actionProducer.name', 'dueAt', 'priority', 'status', 'description']);
    // The saved result is what counts; a formula evaluated afresh would say something else.
    sheet.addRow([
      { formula: 'CONCATENATE("Pump ","check")', result: 'Pump check' },
      producer,
      new Date(Date.UTC(2036, 4, 2, 8, 30)),
      { formula: '1+1', result: 2 },
      3,
      { formula: 'NOW()', result: 'saved text' },
    ]);
    sheet.addRow(['Valve check', producer, '2036-06-01T09:00:00+02:00', 1, '1', '']);
    sheet.addRow(['Bad date', producer, 'next week', 1, 1, '']);
    const bytes = new Uint8Array(await workbook.xlsx.writeBuffer());
    const report = await importFile(admin, await upload(admin, bytes, XLSX_TYPE, 'actions.xlsx'), false);
    expect(report).toMatchObject({ status: 'done', rows: 3, valid: 2, invalid: 1, created: 2 });
    expect(report.errors).toEqual([
      {
        row: 4,
        column: 'dueAt',
        problem: 'must be an ISO 8601 date-time with an offset or Z, e.g. 2026-12-01T10:00:00Z',
      },
    ]);
    const made = (await producerActions(admin, producer)).actions.sort((a, b) => a.title.localeCompare(b.title));
    expect(made.map((a) => [a.title, a.dueAt, a.priority, a.status, a.description])).toEqual([
      ['Pump check', '2036-05-02T08:30:00.000Z', '2', '3', 'saved text'],
      ['Valve check', '2036-06-01T07:00:00.000Z', '1', '1', ''],
    ]);
  });

  it('each assignee is told once per import ("N actions were assigned to you"), not once per row', async () => {
    const admin = await person('Ann', ['action-admins']);
    const bob = await person('Bob');
    const cy = await person('Cy');
    const producer = `tell-${randomUUID().slice(0, 8)}`;
    const assigned = (who: Person | typeof admin, title: string) =>
      exportRow(goodCells(producer, title, { 'assignee.id': who.id, 'assignee.name': who.name, 'assignee.email': '' }));
    const rows = [
      EXPORT_COLUMNS,
      assigned(bob, 'B1'),
      assigned(cy, 'C1'),
      assigned(bob, 'B2'),
      assigned(admin, 'A1'),
      assigned(bob, 'B3'),
    ];
    const report = await importFile(admin, await upload(admin, utf8(csvOf(rows))), false);
    expect(report).toMatchObject({ status: 'done', created: 5 });
    const deadline = Date.now() + 20_000;
    let sent: Sent[] = [];
    while (Date.now() < deadline) {
      sent = (await mail()).filter((e) => [bob.email, cy.email, admin.email].some((a) => e.destination.to.includes(a)));
      if (sent.length >= 2) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    // Long enough for the per-row notices of the creates, had there been any, to arrive.
    await new Promise((r) => setTimeout(r, 3000));
    sent = (await mail()).filter((e) => [bob.email, cy.email, admin.email].some((a) => e.destination.to.includes(a)));
    expect(sent.map((e) => [e.destination.to, e.subject]).sort()).toEqual(
      [
        [[bob.email], '3 actions were assigned to you'],
        [[cy.email], '1 action was assigned to you'],
      ].sort(),
    );
    expect(sent.find((e) => e.destination.to.includes(bob.email))?.body.text).toContain(
      "3 actions were assigned to you by Ann's import.",
    );
  });

  it('an import on its last delivery that cannot go on ends failed with a reason, and asking again resumes it', async () => {
    const admin = await person('Lea', ['action-admins']);
    const producer = `dlq-${randomUUID().slice(0, 8)}`;
    const rows = [EXPORT_COLUMNS, ...['D1', 'D2', 'D3'].map((t) => exportRow(goodCells(producer, t)))];
    const uploadId = await upload(admin, utf8(csvOf(rows)));
    const real = await importFile(admin, uploadId, false);
    expect(real).toMatchObject({ status: 'done', created: 3 });
    // As if its worker had stopped after row 2, and its file could no longer be read (the store or storage failing).
    const fileKey = (await readImport(real.id))?.fileKey as string;
    await updateImport(real.id, {
      status: 'running',
      phase: 'create',
      nextRow: 3,
      created: 1,
      fileKey: 'imports/gone',
    });
    const delivery = (receiveCount: number) => ({
      Records: [
        {
          messageId: `m-${receiveCount}`,
          body: JSON.stringify({ detail: { importId: real.id } }),
          attributes: { ApproximateReceiveCount: String(receiveCount) },
        },
      ],
    });
    const context = { getRemainingTimeInMillis: () => 600_000 };
    // Not its last delivery: reported failed, so the queue delivers it again; the import is still running.
    expect(await importWorker(delivery(1) as never, context as never)).toEqual({
      batchItemFailures: [{ itemIdentifier: 'm-1' }],
    });
    expect((await readImport(real.id))?.status).toBe('running');
    // Its last: ended failed, with a reason the importer reads, and nothing left for the dead-letter queue.
    expect(await importWorker(delivery(importFunction.maxReceives) as never, context as never)).toEqual({
      batchItemFailures: [],
    });
    const failed = await call('GET', `/api/imports/${real.id}`, { token: admin.token });
    expect(failed.body).toMatchObject({ status: 'failed', created: 1 });
    expect(failed.body.error).toBe(
      'The import stopped before it finished (the store or the storage kept failing); 1 of its 3 valid rows were created, each once. ' +
        'Ask for it again (POST /api/imports with the same uploadId and dryRun false) to go on from there.',
    );
    // Asked again, it goes on from row 3: every row made once.
    await updateImport(real.id, { fileKey });
    const resumed = await importFile(admin, uploadId, false);
    expect(resumed).toMatchObject({ id: real.id, status: 'done', created: 3 });
    expect(resumed.error).toBeUndefined();
    expect((await producerActions(admin, producer)).totalCount).toBe(3);
  });

  it('a scoped importer is refused each row outside what they manage; another person cannot see the import', async () => {
    const admin = await person('Ida', ['action-admins']);
    // Granted before the manager's first call: roles are cached for up to ACCESS_CACHE_SECONDS.
    const managerId = `imp-max-${randomUUID().slice(0, 8)}`;
    const grant = await call('POST', '/api/grants', {
      token: admin.token,
      body: {
        principal: { type: 'person', id: managerId },
        role: 'manager',
        scope: { businessUnit: 'Iron Ore', site: 'North Pit' },
      },
    });
    expect(grant.status, JSON.stringify(grant.body)).toBe(201);
    const manager = await person('Max', [], managerId);
    const producer = `scoped-${randomUUID().slice(0, 8)}`;
    const rows = [
      EXPORT_COLUMNS,
      exportRow(goodCells(producer, 'Inside')),
      exportRow(goodCells(producer, 'Other site', { 'location.site': 'South Pit' })),
      exportRow(goodCells(producer, 'Other unit', { 'location.businessUnit': 'Coal', 'location.site': 'North Pit' })),
      exportRow(
        goodCells(
          producer,
          'Nowhere',
          Object.fromEntries(EXPORT_COLUMNS.filter((c) => c.startsWith('location.')).map((c) => [c, ''])),
        ),
      ),
    ];
    const uploadId = await upload(manager, utf8(csvOf(rows)));
    const refusal = 'you are not a manager of this location, so you may not import actions into it';
    const report = await importFile(manager, uploadId, false);
    expect(report).toMatchObject({ status: 'done', rows: 4, valid: 1, invalid: 3, created: 1 });
    expect(report.errors).toEqual([
      { row: 3, column: 'location.site', problem: refusal },
      { row: 4, column: 'location.businessUnit', problem: refusal },
      { row: 5, column: 'location.businessUnit', problem: refusal },
    ]);
    expect((await producerActions(admin, producer)).actions.map((a) => a.title)).toEqual(['Inside']);

    const other = await person('Oz');
    const hidden = await call('GET', `/api/imports/${report.id}`, { token: other.token });
    expectProblem(hidden, 404);
    // Nor can another person import the manager's upload.
    const taken = await call('POST', '/api/imports', { token: other.token, body: { uploadId, dryRun: true } });
    expectProblem(taken, 400, { field: 'uploadId' });
    expect((await call('GET', `/api/imports/${randomUUID()}`, { token: manager.token })).status).toBe(404);
  });
});
