import { S3Client, UploadPartCommand } from '@aws-sdk/client-s3';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { logSink } from '../../lib/logger';
import {
  actionBody,
  apiUrl,
  call,
  expectProblem,
  newUser,
  type TestUser,
  tokenFor,
  uniqueProducer,
  useOwnStack,
} from '../support/client';

/**
 * Issue 51, contract section 18 (export): through real HTTP to a stack of this file's own, in
 * scoped mode, whose worker runs in this process behind the local queue, writing to the local
 * storage. Parts are tiny (2,000 bytes: every page of the list is a part) and a run hands the
 * export on after every part (`EXPORT_SLICE_SECONDS=0`), so every CSV export here crosses runs.
 * The oracle is the caller's own list, paged by cursor through `GET /api/actions`.
 */

useOwnStack({
  ACCESS: 'scoped',
  ACCESS_CACHE_SECONDS: '0',
  EXPORT_PART_BYTES: '2000',
  EXPORT_SLICE_SECONDS: '0',
  LOG_LEVEL: 'info',
});

/** The log lines of this process (the worker's too): kept here, not printed. */
const logLines: string[] = [];
logSink.write = (line) => {
  logLines.push(line);
};

const HEADERS = [
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

const NORTH = {
  businessUnit: 'Iron Ore',
  site: 'North Pit',
  department: 'Maintenance',
  workGroup: '',
  productiveUnit: '',
  team: '',
  crew: '',
};
const SOUTH = { ...NORTH, site: 'South Pit' };
/** Titles a spreadsheet would take for formulas, and text CSV must quote (titles are one line). */
const HOSTILE = ['=SUM(A1:A9)', '+1+2', '-3', '@cmd', 'Plain, "quoted"'];
/** Descriptions (which may hold tabs and line breaks) beginning with a tab, a return, a formula. */
const DESCRIPTIONS = ['\tTabbed', '\rReturned', '=HYPERLINK("http://evil")', 'Line one\r\nline two, "q"'];
const COUNT = 230;

const admin = newUser('Ada Admin');
const adminToken = tokenFor({ sub: admin.sub, name: admin.name, email: admin.email, groups: ['action-admins'] });
let olga: TestUser; // reports everything; no grant
let mia: TestUser; // viewer of Iron Ore / North Pit
let producer: string;
const created: string[] = [];

/** What a CSV cell holds for text: OWASP's rule, written independently of the service's. */
const defuse = (text: string) => (['=', '+', '-', '@', '\t', '\r'].includes(text[0] ?? '') ? `'${text}` : text);

/** The row an action from the API must give, in the contract's words, as CSV text. */
function expectedCsvRow(a: any): string[] {
  const loc = a.location;
  return [
    a.id,
    defuse(a.title),
    defuse(a.description),
    a.status,
    a.priority,
    a.dueAt,
    String(a.overdue),
    a.closedAt ?? '',
    a.assignee.id,
    defuse(a.assignee.name),
    a.assignee.email ?? '',
    a.owner.id,
    defuse(a.owner.name),
    a.owner.email ?? '',
    a.initiator.id,
    defuse(a.initiator.name),
    defuse(a.actionProducer.name),
    a.actionProducer.url ?? '',
    a.actionProducer.reference ?? '',
    loc.businessUnit,
    loc.site,
    loc.department,
    loc.workGroup,
    loc.productiveUnit,
    loc.team,
    loc.crew,
    defuse(a.tags.join('; ')),
    String(a.attachments.length),
    String(a.commentCount),
    String(a.endorsedBy.length),
    a.createdAt,
    a.updatedAt,
    `${apiUrl()}/actions/${a.id}`,
  ];
}

/** Text as an XLSX cell reads back: XML normalizes a carriage return (alone or before a line feed) to a line feed. */
const asXml = (text: string) => text.replace(/\r\n?/g, '\n');

/** Every action of a list, paged by cursor (37 a page, unlike the worker's 100). */
async function pagedList(token: string, query: string): Promise<any[]> {
  const all: any[] = [];
  let path = `/api/actions?${query}${query ? '&' : ''}limit=37`;
  for (;;) {
    const reply = await call('GET', path, { token });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    all.push(...reply.body.actions);
    if (!reply.body.nextCursor) return all;
    path = `/api/actions?cursor=${reply.body.nextCursor}&limit=37`;
  }
}

async function exportAndWait(token: string, format: 'csv' | 'xlsx', query: string) {
  const asked = await call('POST', '/api/exports', { token, body: { format, query } });
  expect(asked.status, JSON.stringify(asked.body)).toBe(202);
  expect(asked.body).toMatchObject({ format, query, status: 'queued', rows: 0 });
  expect(asked.headers.get('location')).toBe(`/api/exports/${asked.body.id}`);
  const deadline = Date.now() + 120_000;
  for (;;) {
    const reply = await call('GET', `/api/exports/${asked.body.id}`, { token });
    expect(reply.status).toBe(200);
    if (reply.body.status === 'done' || reply.body.status === 'failed') return reply.body;
    if (Date.now() > deadline) throw new Error(`export still ${reply.body.status} after 2 minutes`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function download(url: string): Promise<{ bytes: Buffer; disposition: string | null; type: string | null }> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return {
    bytes: Buffer.from(await response.arrayBuffer()),
    disposition: response.headers.get('content-disposition'),
    type: response.headers.get('content-type'),
  };
}

beforeAll(async () => {
  olga = newUser('Olga Reporter');
  mia = newUser('-Mia Viewer');
  producer = uniqueProducer('export');
  const granted = await call('POST', '/api/grants', {
    token: adminToken,
    body: {
      principal: { type: 'person', id: mia.id },
      role: 'viewer',
      scope: { businessUnit: 'Iron Ore', site: 'North Pit' },
    },
  });
  expect(granted.status, JSON.stringify(granted.body)).toBe(201);
  const bodies = Array.from({ length: COUNT }, (_, i) =>
    actionBody(producer, {
      title: i < HOSTILE.length ? HOSTILE[i] : `Action ${i}, "check"`,
      description: DESCRIPTIONS[i] ?? `Line one\nline two, ${i}`,
      location: i % 3 === 0 ? SOUTH : NORTH,
      priority: String(i % 5),
      status: String(1 + (i % 3)),
      tags: i % 4 === 0 ? ['-minus', 'belt'] : [],
      dueAt: new Date(Date.UTC(2030, 0, 1) + i * 3_600_000).toISOString(),
      ...(i % 10 === 0 ? { assignee: { id: mia.id, name: mia.name, email: mia.email } } : {}),
    }),
  );
  for (let i = 0; i < bodies.length; i += 10) {
    const replies = await Promise.all(
      bodies.slice(i, i + 10).map((body) => call('POST', '/api/actions', { token: olga.token, body })),
    );
    for (const reply of replies) {
      expect(reply.status, JSON.stringify(reply.body)).toBe(201);
      created.push(reply.body.id);
    }
  }
  // Mia's own, where she has no role: she sees them as their owner.
  for (let i = 0; i < 3; i++) {
    const reply = await call('POST', '/api/actions', {
      token: mia.token,
      body: actionBody(producer, { title: `Mia's ${i}`, location: SOUTH }),
    });
    expect(reply.status).toBe(201);
  }
}, 300_000);

afterEach(() => {
  vi.restoreAllMocks();
});

describe('POST /api/exports', () => {
  it('a CSV of a filtered, sorted list equals the list paged by cursor, row for row and column for column', async () => {
    const before = logLines.length;
    const query = `actionProducer.name=${encodeURIComponent(producer)}&owner=me&sort=-priority`;
    const done = await exportAndWait(olga.token, 'csv', query);
    expect(done).toMatchObject({ status: 'done', rows: COUNT });
    expect(done.finishedAt).toEqual(expect.any(String));
    expect(Date.parse(done.expiresAt) - Date.parse(done.createdAt)).toBe(7 * 86_400_000);
    const { bytes, disposition } = await download(done.url);
    expect(disposition).toBe(`attachment; filename="actions-${done.createdAt.slice(0, 10)}.csv"`);
    // UTF-8 with a byte-order mark, CRLF line ends.
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString('utf8').slice(1);
    expect(text.split('\r\n')[0]).toBe(HEADERS.join(','));
    expect(text.endsWith('\r\n')).toBe(true);
    const rows: string[][] = parse(text, { relax_column_count: false });
    const list = await pagedList(olga.token, query);
    expect(list).toHaveLength(COUNT);
    expect(rows[0]).toEqual(HEADERS);
    expect(rows.slice(1)).toEqual(list.map(expectedCsvRow));
    // Every part came from its own run: the export was handed on after each.
    const handOffs = logLines.slice(before).filter((line) => line.includes('export handed on')).length;
    expect(handOffs).toBeGreaterThanOrEqual(2);
  }, 180_000);

  it('an XLSX of the same list holds the same rows: one sheet "Actions", dates as date cells, numbers as numbers', async () => {
    const query = `actionProducer.name=${encodeURIComponent(producer)}&owner=me&sort=dueAt`;
    const done = await exportAndWait(olga.token, 'xlsx', query);
    expect(done).toMatchObject({ status: 'done', rows: COUNT });
    const { bytes, disposition } = await download(done.url);
    expect(disposition).toBe(`attachment; filename="actions-${done.createdAt.slice(0, 10)}.xlsx"`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as never);
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['Actions']);
    const sheet = workbook.getWorksheet('Actions') as ExcelJS.Worksheet;
    expect(sheet.rowCount).toBe(COUNT + 1);
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(HEADERS);
    const list = await pagedList(olga.token, query);
    const column = (name: string) => HEADERS.indexOf(name) + 1;
    list.forEach((a, i) => {
      const row = sheet.getRow(i + 2);
      const cell = (name: string) => row.getCell(column(name)).value;
      const csv = expectedCsvRow(a);
      // Text columns as the CSV has them; dates, numbers and truth values typed.
      HEADERS.forEach((name, c) => {
        const value = cell(name);
        if (['dueAt', 'createdAt', 'updatedAt'].includes(name) || (name === 'closedAt' && csv[c] !== '')) {
          expect(value).toBeInstanceOf(Date);
          expect((value as Date).toISOString()).toBe(csv[c]);
        } else if (['status', 'priority', 'attachments', 'comments', 'endorsements'].includes(name)) {
          expect(value).toBe(Number(csv[c]));
        } else if (name === 'overdue') expect(value).toBe(a.overdue);
        else if (csv[c] === '') expect(value ?? '').toBe('');
        // XML turns a carriage return into a line feed (exceljs writes it as it is): see docs/export-import.md.
        else expect(value).toBe(asXml(csv[c] as string));
      });
    });
  }, 180_000);

  it('cells a spreadsheet would take for a formula are prefixed with an apostrophe, in both formats', async () => {
    const query = `actionProducer.name=${encodeURIComponent(producer)}&owner=me&sort=createdAt`;
    const csv = await exportAndWait(olga.token, 'csv', query);
    const rows: string[][] = parse((await download(csv.url)).bytes.toString('utf8').slice(1));
    // Rows in creation order: the first few were made in one burst, so they are looked up by content.
    const defusedTitles = ["'=SUM(A1:A9)", "'+1+2", "'-3", "'@cmd", 'Plain, "quoted"'];
    const defusedDescriptions = [
      "'\tTabbed",
      "'\rReturned",
      '\'=HYPERLINK("http://evil")',
      'Line one\r\nline two, "q"',
    ];
    const column = (name: string) => rows.slice(1).map((r) => r[HEADERS.indexOf(name)]);
    for (const title of defusedTitles) expect(column('title')).toContain(title);
    for (const description of defusedDescriptions) expect(column('description')).toContain(description);
    expect(column('tags')).toContain("'-minus; belt");
    expect(column('title').filter((t) => /^[=+\-@\t\r]/.test(t ?? ''))).toEqual([]);
    const xlsx = await exportAndWait(olga.token, 'xlsx', query);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await download(xlsx.url)).bytes as never);
    const sheet = workbook.getWorksheet('Actions') as ExcelJS.Worksheet;
    const sheetColumn = (name: string) =>
      Array.from({ length: COUNT }, (_, i) => sheet.getRow(i + 2).getCell(HEADERS.indexOf(name) + 1).value);
    for (const title of defusedTitles) expect(sheetColumn('title')).toContain(title);
    for (const description of defusedDescriptions) expect(sheetColumn('description')).toContain(asXml(description));
    expect(sheetColumn('tags')).toContain("'-minus; belt");
    // No cell of the sheet is a formula.
    sheet.eachRow((row) => row.eachCell((c) => expect(c.type).not.toBe(ExcelJS.ValueType.Formula)));
  }, 180_000);

  it("a scoped person's export holds exactly their sight: their site and their own, in their list's order", async () => {
    const query = `actionProducer.name=${encodeURIComponent(producer)}`;
    const done = await exportAndWait(mia.token, 'csv', query);
    const rows: string[][] = parse((await download(done.url)).bytes.toString('utf8').slice(1));
    const sight = await pagedList(mia.token, query);
    expect(rows.slice(1).map((r) => r[0])).toEqual(sight.map((a) => a.id));
    // What she sees: Olga's North Pit actions, those assigned to her anywhere, and her own three.
    const north = Math.ceil((COUNT * 2) / 3);
    expect(sight.length).toBeGreaterThan(north);
    expect(sight.length).toBeLessThan(COUNT);
    for (const a of sight)
      expect(a.location.site === 'North Pit' || a.assignee.id === mia.id || a.owner.id === mia.id).toBe(true);
    expect(done.rows).toBe(sight.length);
    // A name beginning with '-' is defused too.
    const mine = rows.find((r) => r[HEADERS.indexOf('owner.id')] === mia.id);
    expect(mine?.[HEADERS.indexOf('owner.name')]).toBe("'-Mia Viewer");
  }, 180_000);

  it("only its owner sees an export: anyone else's is a 404, and GET /api/exports lists one's own, newest first", async () => {
    const first = await call('POST', '/api/exports', { token: mia.token, body: { format: 'csv', query: 'status=1' } });
    const second = await call('POST', '/api/exports', { token: mia.token, body: { format: 'xlsx', query: '' } });
    expect(first.status).toBe(202);
    expect(second.status).toBe(202);
    expectProblem(await call('GET', `/api/exports/${first.body.id}`, { token: olga.token }), 404);
    expectProblem(await call('GET', '/api/exports/not-an-export', { token: mia.token }), 404);
    const mine = await call('GET', '/api/exports', { token: mia.token });
    expect(mine.status).toBe(200);
    const ids = mine.body.exports.map((e: any) => e.id);
    expect(ids.indexOf(second.body.id)).toBeLessThan(ids.indexOf(first.body.id));
    const times = mine.body.exports.map((e: any) => e.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    const theirs = await call('GET', '/api/exports', { token: olga.token });
    expect(theirs.body.exports.map((e: any) => e.id)).not.toContain(first.body.id);
  });

  it('an export whose run fails after a part resumes from the last part stored: the same file, no row lost or doubled', async () => {
    const send = S3Client.prototype.send;
    let parts = 0;
    let failed = false;
    const spy = vi.spyOn(S3Client.prototype, 'send').mockImplementation(function (
      this: S3Client,
      command: any,
      ...rest: any[]
    ) {
      if (command instanceof UploadPartCommand) {
        parts += 1;
        // The second part's upload fails once, after the first part is stored.
        if (parts === 2 && !failed) {
          failed = true;
          return Promise.reject(Object.assign(new Error('connection reset'), { code: 'ECONNRESET' }));
        }
      }
      return (send as any).call(this, command, ...rest);
    } as any);
    const query = `actionProducer.name=${encodeURIComponent(producer)}&owner=me&sort=title`;
    const done = await exportAndWait(olga.token, 'csv', query);
    expect(failed).toBe(true);
    expect(done).toMatchObject({ status: 'done', rows: COUNT });
    // This export's calls only: the exports of the tests before may still be running.
    const names = spy.mock.calls
      .filter(([c]) => String((c as { input?: { Key?: string } }).input?.Key).includes(`/${done.id}.`))
      .map(([c]) => (c as object).constructor.name);
    // One upload, continued: started once, completed once, one part tried twice.
    expect(names.filter((n) => n === 'CreateMultipartUploadCommand')).toHaveLength(1);
    expect(names.filter((n) => n === 'CompleteMultipartUploadCommand')).toHaveLength(1);
    const rows: string[][] = parse((await download(done.url)).bytes.toString('utf8').slice(1));
    const list = await pagedList(olga.token, query);
    expect(rows.slice(1)).toEqual(list.map(expectedCsvRow));
    expect(new Set(rows.slice(1).map((r) => r[0])).size).toBe(COUNT);
  }, 180_000);

  it('a bad body is a 400 naming its field, the query checked as GET /api/actions checks it', async () => {
    const post = (body: unknown) => call('POST', '/api/exports', { token: olga.token, body });
    expectProblem(await post({ query: '' }), 400, { field: 'format' });
    expectProblem(await post({ format: 'pdf', query: '' }), 400, { field: 'format' });
    expectProblem(await post({ format: 'csv' }), 400, { field: 'query' });
    expectProblem(await post({ format: 'csv', query: 7 }), 400, { field: 'query' });
    expectProblem(await post({ format: 'csv', query: 'priority=*2' }), 400, { field: 'query' });
    expectProblem(await post({ format: 'csv', query: 'colour=red' }), 400, { field: 'query' });
    expectProblem(await post({ format: 'csv', query: 'sort=nope' }), 400, { field: 'query' });
    for (const paging of ['limit=5', 'skip=10', 'status=1&cursor=abc'])
      expectProblem(await post({ format: 'csv', query: paging }), 400, { field: 'query' });
    expectProblem(await post({ format: 'csv', query: 'x'.repeat(8001) }), 400, { field: 'query' });
    expectProblem(await post({ format: 'csv', query: '', rows: 5 }), 400, { field: 'rows' });
    expectProblem(await post([1]), 400, { field: 'body' });
    const bad = await post({ format: 'csv', query: 'priority=*2' });
    expect(bad.body.errors[0].message).toMatch(/^priority: /);
  });
});
