import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseListQuery } from '../../../lib/filter/query';

/**
 * The OpenAPI document's examples of a list query (`query` of `POST /api/exports`) are queries
 * `GET /api/actions` takes: a client that sends the example gets an export, not a 400 (it once
 * named a `site` field, which is `location.site`).
 */

type Node = { [key: string]: unknown };

/** Every `example` of a property named `query` in the document. */
function queryExamples(node: unknown, found: string[] = []): string[] {
  if (typeof node !== 'object' || node === null) return found;
  const query = (node as Node).properties && ((node as Node).properties as Node).query;
  if (query && typeof (query as Node).example === 'string') found.push((query as Node).example as string);
  for (const child of Object.values(node)) queryExamples(child, found);
  return found;
}

describe('the OpenAPI examples of a list query', () => {
  const document = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', '..', 'openapi.json'), 'utf8'));
  const examples = queryExamples(document);

  it('are queries the list takes', () => {
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) expect(() => parseListQuery(example, 'u-1'), example).not.toThrow();
  });
});
