import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { routes } from '../../lib/http/routes';
import { call, newUser } from '../support/client';

/** Issue 8: the served document is valid OpenAPI 3.1 and describes exactly the routes served. */

const operationsOf = (document: any): string[] =>
  Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((key) => ['get', 'post', 'put', 'patch', 'delete'].includes(key))
      .map((method) => `${method.toUpperCase()} ${path}`),
  );

describe('GET /api/openapi.json', () => {
  it('is public and valid OpenAPI 3.1', async () => {
    const reply = await call('GET', '/api/openapi.json');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toContain('application/json');
    expect(reply.body.openapi).toBe('3.1.0');
    const result = await new Validator().validate(reply.body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('documents every route the server answers, and nothing else', async () => {
    const { body: document } = await call('GET', '/api/openapi.json');
    const documented = operationsOf(document).sort();
    expect(documented).toEqual(routes.map((r) => `${r.method} ${r.path}`).sort());

    // Each documented operation reaches a handler, not the gateway's not-found fallback.
    const { token } = newUser();
    for (const operation of documented) {
      const [method, path] = operation.split(' ') as [string, string];
      const concrete = path
        .replace('{id}', '00000000-0000-4000-8000-000000000000')
        .replace('{file}', 'swagger-ui.css')
        .replace('{commentId}', '01900000-0000-7000-8000-000000000000');
      const reply = await call(method, concrete, {
        token,
        body: method === 'POST' || method === 'PATCH' ? {} : undefined,
      });
      expect(reply.status, operation).not.toBe(405);
      expect(JSON.stringify(reply.body ?? ''), operation).not.toContain('Nothing is served');
    }
    // And what is not documented is not served.
    for (const [method, path] of [
      ['PUT', '/api/actions'],
      ['GET', '/api/action'],
      ['POST', '/api/actions/x'],
    ] as const) {
      const reply = await call(method, path, { token });
      expect([404, 405]).toContain(reply.status);
      expect(reply.headers.get('content-type')).toContain('application/problem+json');
    }
  });

  it('describes every filter parameter, the operators and the bearer scheme', async () => {
    const { body: document } = await call('GET', '/api/openapi.json');
    const list = document.paths['/api/actions'].get;
    const names = list.parameters.map((p: { name: string }) => p.name);
    for (const name of [
      'title',
      'status',
      'priority',
      'dueAt',
      'assignee',
      'owner',
      'location.site',
      'sort',
      'skip',
      'limit',
    ]) {
      expect(names).toContain(name);
    }
    expect(list.description).toContain('`~` in');
    expect(document.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.paths['/api/openapi.json'].get.security).toEqual([]);
  });

  it('groups every operation under one declared tag, each tag with a line, each operation with a summary', async () => {
    const { body: document } = await call('GET', '/api/openapi.json');
    const tags = document.tags as { name: string; description: string }[];
    expect(tags.map((t) => t.name)).toEqual([
      'Actions',
      'Comments and endorsements',
      'History and the change feed',
      'Webhooks',
      'Notifications',
      'Evidence',
      'Import',
      'Export',
      'People and access',
      'This document',
    ]);
    for (const tag of tags) expect(tag.description.length, tag.name).toBeGreaterThan(20);
    const used = new Set<string>();
    for (const item of Object.values(document.paths as Record<string, Record<string, any>>)) {
      for (const [method, operation] of Object.entries(item)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        expect(operation.tags, operation.operationId).toHaveLength(1);
        expect(
          tags.map((t) => t.name),
          operation.operationId,
        ).toContain(operation.tags[0]);
        used.add(operation.tags[0]);
        // A summary a person scans: short, no parenthetical detail (that belongs in the description).
        expect(operation.summary, operation.operationId).toMatch(/^[A-Z][^()]{2,40}$/);
      }
    }
    expect([...used].sort()).toEqual(tags.map((t) => t.name).sort());
    expect(document.paths['/api/actions'].get.tags).toEqual(['Actions']);
    expect(document.paths['/api/changes'].get.tags).toEqual(['History and the change feed']);
  });

  it("names its licence, the project's: Apache-2.0", async () => {
    const { body: document } = await call('GET', '/api/openapi.json');
    expect(document.info.license).toEqual({ name: 'Apache-2.0', identifier: 'Apache-2.0' });
  });
});

describe('openapi.json in the repository', () => {
  it('is what the schemas generate now (run `npm run openapi` after changing them)', async () => {
    const { readFileSync } = await import('node:fs');
    const { body: served } = await call('GET', '/api/openapi.json');
    expect(JSON.parse(readFileSync('openapi.json', 'utf8'))).toEqual(served);
  });
});
