import { beforeAll, describe, expect, it } from 'vitest';
import { UnauthorizedError } from '../../../lib/errors';
import { callerFrom, groupsFrom } from '../../../lib/http/auth';
import { UNASSIGNED } from '../../../lib/model/action';

/**
 * What a verified token's claims make of the caller (lib/http/auth.ts): who they are and their
 * groups. Pure functions of the claims; signing and verifying tokens is the integration tests'.
 */

beforeAll(() => {
  // A refusal names where to get a token, which reads the (Cognito) settings once.
  process.env.TABLE_NAME = 'actions';
  process.env.USER_POOL_ID = 'eu-west-1_Pool';
  process.env.USER_POOL_CLIENT_ID = 'client';
});

describe('callerFrom', () => {
  it('takes sub as the id, name as the name, and the email only when it is verified', () => {
    const claims = { sub: 'u-1', name: 'Ann Lee', email: 'ann@example.com' };
    expect(callerFrom({ ...claims, email_verified: true })).toEqual({
      id: 'u-1',
      name: 'Ann Lee',
      email: 'ann@example.com',
    });
    // Some pools have carried the claim as a string.
    expect(callerFrom({ ...claims, email_verified: 'true' }).email).toBe('ann@example.com');
    expect(callerFrom({ ...claims, email_verified: false }).email).toBeNull();
    expect(callerFrom(claims).email).toBeNull();
    expect(callerFrom({ sub: 'u-1', email_verified: true }).email).toBeNull();
  });

  it('names a caller without a name by cognito:username, then username, then the id', () => {
    expect(callerFrom({ sub: 'u-1', 'cognito:username': 'ann', username: 'other' }).name).toBe('ann');
    expect(callerFrom({ sub: 'u-1', username: 'ann2' }).name).toBe('ann2');
    expect(callerFrom({ sub: 'u-1', name: '' }).name).toBe('u-1');
    expect(callerFrom({ sub: 'u-1', name: 42 }).name).toBe('u-1');
  });

  it('keeps a name to one line: what would break it becomes U+FFFD, never a refusal', () => {
    expect(callerFrom({ sub: 'u-1', name: 'Ann\nLee' }).name).toBe('Ann\ufffdLee');
  });

  it('refuses (401) a token without a usable subject: none, empty, too long, or the id of "nobody assigned"', () => {
    for (const sub of [undefined, '', 42, 'x'.repeat(201), UNASSIGNED.id])
      expect(() => callerFrom({ sub, name: 'A' }), String(sub)).toThrow(UnauthorizedError);
    expect(callerFrom({ sub: 'x'.repeat(200) }).id).toHaveLength(200);
  });
});

describe('groupsFrom', () => {
  it("is the cognito:groups claim's strings, once each", () => {
    expect(groupsFrom({ 'cognito:groups': ['crew-a', 'action-admins', 'crew-a'] })).toEqual([
      'crew-a',
      'action-admins',
    ]);
  });

  it('is no groups for anything but an array, and drops what cannot be a group name', () => {
    expect(groupsFrom({})).toEqual([]);
    expect(groupsFrom({ 'cognito:groups': 'action-admins' })).toEqual([]);
    expect(groupsFrom({ 'cognito:groups': { 0: 'action-admins' } })).toEqual([]);
    expect(groupsFrom({ 'cognito:groups': ['', 7, null, 'g'.repeat(129), 'g'.repeat(128), 'ok'] })).toEqual([
      'g'.repeat(128),
      'ok',
    ]);
  });
});
