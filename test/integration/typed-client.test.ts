import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../lib/http/routes';

/**
 * Issue 12: a client generated from openapi.json (openapi-typescript + openapi-fetch) type-checks
 * a program that calls every route with the types a caller would use (`limit: 5`, `sort:
 * '-dueAt'`), and refuses a wrong one. Offline: the generator reads the committed document.
 */

const ROOT = join(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'actions-typed-client-'));

/** Calls every route; `{limit}` is replaced by the control's wrong value. */
const program = (limit: string) => `import createClient from 'openapi-fetch';
import type { paths } from './api';

const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:3000' });
const path = { id: 'a1' };
export async function everyRoute(): Promise<number> {
  const created = await client.POST('/api/actions', {
    body: { title: 'Guard missing', actionProducer: { name: 'Inspections' }, dueAt: '2036-12-01T10:00:00Z', priority: 2, status: '1' },
  });
  const listed = await client.GET('/api/actions', { params: { query: { limit: ${limit}, skip: 0, sort: '-dueAt', status: '~1,2', owner: 'u-ann' } } });
  const total: number | undefined = listed.data?.totalCount;
  await client.GET('/api/actions/{id}', { params: { path } });
  await client.PATCH('/api/actions/{id}', { params: { path, header: { 'if-match': '"3"' } }, body: { status: 2 } });
  await client.DELETE('/api/actions/{id}', { params: { path } });
  const added = await client.POST('/api/actions/{id}/comments', { params: { path }, body: { text: 'Part on order' } });
  const thread = await client.GET('/api/actions/{id}/comments', { params: { path, query: { limit: 50 } } });
  const next: string | undefined = thread.data?.nextCursor;
  const comment = { id: 'a1', commentId: added.data?.id ?? '' };
  await client.PATCH('/api/actions/{id}/comments/{commentId}', { params: { path: comment }, body: { text: 'Arrived' } });
  await client.DELETE('/api/actions/{id}/comments/{commentId}', { params: { path: comment } });
  const endorsed = await client.PUT('/api/actions/{id}/endorsements/me', { params: { path } });
  const endorsedAt: string | undefined = endorsed.data?.endorsedBy[0]?.endorsedAt;
  await client.DELETE('/api/actions/{id}/endorsements/me', { params: { path } });
  const history = await client.GET('/api/actions/{id}/history', { params: { path, query: { cursor: next } } });
  const versions: number[] | undefined = history.data?.entries.map((e) => e.version);
  const changes = await client.GET('/api/changes', { params: { query: { limit: 100 } } });
  const feedCursor: string | undefined = changes.data?.nextCursor;
  const hook = await client.POST('/api/webhooks', { body: { url: 'https://hooks.example.com/a', events: ['ActionCreated'] } });
  const webhook = { id: hook.data?.id ?? '' };
  await client.GET('/api/webhooks');
  await client.GET('/api/webhooks/{id}', { params: { path: webhook } });
  await client.PATCH('/api/webhooks/{id}', { params: { path: webhook }, body: { enabled: false } });
  await client.POST('/api/webhooks/{id}/secret', { params: { path: webhook } });
  await client.POST('/api/webhooks/{id}/ping', { params: { path: webhook } });
  const log = await client.GET('/api/webhooks/{id}/deliveries', { params: { path: webhook, query: { limit: 10 } } });
  const delivery = { id: webhook.id, deliveryId: log.data?.deliveries[0]?.id ?? '' };
  await client.POST('/api/webhooks/{id}/deliveries/{deliveryId}/redeliver', { params: { path: delivery } });
  await client.DELETE('/api/webhooks/{id}', { params: { path: webhook } });
  const upload = await client.POST('/api/actions/{id}/uploads', { params: { path }, body: { name: 'guard.jpg', contentType: 'image/jpeg', size: 1024 } });
  const attached = await client.POST('/api/actions/{id}/attachments', { params: { path }, body: { uploadId: upload.data?.uploadId ?? '' } });
  const file = { id: 'a1', attachmentId: attached.data?.id ?? '' };
  await client.GET('/api/actions/{id}/attachments/{attachmentId}', { params: { path: file } });
  await client.DELETE('/api/actions/{id}/attachments/{attachmentId}', { params: { path: file } });
  const granted = await client.POST('/api/grants', { body: { principal: { type: 'person', id: 'u-carl' }, role: 'viewer', scope: { businessUnit: 'Iron Ore', site: 'North Pit' } } });
  await client.GET('/api/grants', { params: { query: { limit: 10 } } });
  await client.DELETE('/api/grants/{id}', { params: { path: { id: granted.data?.id ?? '' } } });
  const counted = await client.GET('/api/actions/counts', { params: { query: { by: ['location.site', 'status'], limit: 10, status: '~1,2' } } });
  const trend = await client.GET('/api/actions/trends', { params: { query: { interval: 'week', from: '2026-09-01', to: '2026-11-27', 'location.businessUnit': 'Iron Ore' } } });
  const exported = await client.POST('/api/exports', { body: { format: 'xlsx', query: 'status=1&sort=dueAt' } });
  await client.GET('/api/exports');
  await client.GET('/api/exports/{id}', { params: { path: { id: exported.data?.id ?? '' } } });
  const sheet = await client.POST('/api/imports/uploads', { body: { name: 'actions.csv', contentType: 'text/csv', size: 2048 } });
  const imported = await client.POST('/api/imports', { body: { uploadId: sheet.data?.uploadId ?? '', dryRun: true } });
  await client.GET('/api/imports/{id}', { params: { path: { id: imported.data?.id ?? '' } } });
  const me = await client.GET('/api/me');
  const myGroups: string[] | undefined = me.data?.groups;
  await client.GET('/api/me/notifications');
  await client.PATCH('/api/me/notifications', { body: { email: 'daily', digestHour: 7 } });
  await client.POST('/api/notifications/unsubscribe', { params: { query: { person: 'u-ann', token: 't' } } });
  await client.GET('/api/openapi.json');
  await client.GET('/docs');
  await client.GET('/docs/{file}', { params: { path: { file: 'swagger-ui.css' } } });
  return (total ?? 0) + (versions?.length ?? 0) + (created.data?.id.length ?? 0) + (endorsedAt?.length ?? 0) + (feedCursor?.length ?? 0) + (myGroups?.length ?? 0) + (counted.data?.otherCount ?? 0) + (trend.data?.buckets.length ?? 0);
}
`;

const tsc = () => {
  try {
    execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', work], {
      encoding: 'utf8',
    });
    return '';
  } catch (error) {
    return String((error as { stdout?: string }).stdout);
  }
};

beforeAll(async () => {
  const document = JSON.parse(readFileSync(join(ROOT, 'openapi.json'), 'utf8'));
  writeFileSync(join(work, 'api.ts'), astToString(await openapiTS(document)));
  symlinkSync(join(ROOT, 'node_modules'), join(work, 'node_modules'));
  writeFileSync(
    join(work, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        module: 'esnext',
        moduleResolution: 'bundler',
        target: 'es2022',
        lib: ['es2023', 'dom'],
        types: [],
      },
      files: ['client.ts'],
    }),
  );
}, 60_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('a typed client generated from openapi.json', () => {
  it('type-checks a program that calls every route, with limit and skip as numbers and sort from its fields', () => {
    const source = program('5');
    for (const route of routes)
      expect(source, `${route.method} ${route.path}`).toContain(`client.${route.method}('${route.path}'`);
    writeFileSync(join(work, 'client.ts'), source);
    expect(tsc()).toBe('');
  }, 60_000);

  it('names each operation after its handler (createAction, listActions, ...), not after its path', () => {
    const generated = readFileSync(join(work, 'api.ts'), 'utf8');
    const body = generated.slice(generated.indexOf('export interface operations {'));
    const names = [...body.matchAll(/^ {4}(\w+): \{$/gm)].map((m) => m[1]);
    const handlers = [...new Set(routes.map((route) => route.handler))];
    // The docs handler serves two routes; the second operation is docsFile. The document's
    // `webhooks` (the reminder deliveries a receiver gets) are named after their event: onActionDueSoon...
    const deliveries = ['onActionDueSoon', 'onActionOverdue', 'onActionEscalated'];
    expect(names.sort()).toEqual([...handlers, 'docsFile', ...deliveries].sort());
  });

  it('refuses a call with a limit that is not a number', () => {
    writeFileSync(join(work, 'client.ts'), program("'five'"));
    expect(tsc()).toMatch(/client\.ts\(\d+,\d+\): error TS2322/);
  }, 60_000);
});
