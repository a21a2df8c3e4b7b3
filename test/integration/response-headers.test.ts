import { describe, expect, it } from 'vitest';
import { actionBody, apiUrl, call, newUser, uniqueProducer } from '../support/client';

/**
 * Issue 42: every API response tells the browser not to guess its media type
 * (`X-Content-Type-Options: nosniff`), errors and the not-found route included.
 */

describe('every API response', () => {
  it('carries X-Content-Type-Options: nosniff, success and error alike', async () => {
    const user = newUser('Header Reader');
    const producer = uniqueProducer('headers');
    const answers = {
      'list 200': await call('GET', '/api/actions?limit=0', { token: user.token }),
      'create 201': await call('POST', '/api/actions', { token: user.token, body: actionBody(producer) }),
      'create 400': await call('POST', '/api/actions', { token: user.token, body: { title: '' } }),
      'no token 401': await call('GET', '/api/actions'),
      'unknown action 404': await call('GET', '/api/actions/00000000-0000-4000-8000-000000000000', {
        token: user.token,
      }),
      'not-found route under /api': await call('GET', '/api/nothing-here', { token: user.token }),
      'not-found route elsewhere': await call('GET', '/nothing-here.txt'),
      'method not allowed 405': await call('PUT', '/api/actions', { token: user.token }),
      'openapi.json 200': await call('GET', '/api/openapi.json'),
      'docs file 404': await call('GET', '/docs/nothing.js'),
      'docs page 200': await call('GET', '/docs'),
    };
    for (const [what, reply] of Object.entries(answers))
      expect(reply.headers.get('x-content-type-options'), `${what} (${reply.status})`).toBe('nosniff');
    expect(answers['not-found route under /api'].status).toBe(404);
    expect(answers['not-found route elsewhere'].status).toBe(404);
  });

  it('carries it on the local gateway’s own 413', async () => {
    const reply = await fetch(`${apiUrl()}/api/actions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new Uint8Array(10 * 1024 * 1024 + 1),
    });
    expect(reply.status).toBe(413);
    expect(reply.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
