import { describe, expect, it } from 'vitest';
import { mediaTypeProblem } from '../../../lib/http/media-type';

/**
 * The media-type half of the 415: which Content-Types a route with a body takes (JSON, and for
 * PATCH a JSON merge patch), compared as RFC 9110 says (type and subtype case-insensitive,
 * parameters after `;`), and the text the caller is told when one is refused.
 */

const notJson = 'The body must be JSON: send Content-Type application/json.';
const notPatch = 'The body must be JSON: send Content-Type application/json or application/merge-patch+json.';
const notUtf8 = 'JSON must be UTF-8: send charset=utf-8 or no charset.';

describe('mediaTypeProblem', () => {
  it.each([
    'application/json',
    'Application/JSON',
    '  application/json  ',
    'application/json; charset=utf-8',
    'application/json;charset=UTF-8',
    'application/json; charset="utf-8"',
    'application/json; version=2',
    'application/json; notcharset=latin1',
  ])('takes %j as JSON', (contentType) => {
    expect(mediaTypeProblem(contentType, 'json')).toBeUndefined();
    expect(mediaTypeProblem(contentType, 'merge-patch')).toBeUndefined();
  });

  it.each([
    undefined,
    '',
    'text/plain',
    'application/jsonx',
    'application/x-json',
    'json',
    'application/json, text/plain',
    'application /json',
    'application/merge-patch+json',
  ])('refuses %j for a JSON body, naming the one type it takes', (contentType) => {
    expect(mediaTypeProblem(contentType, 'json')).toBe(notJson);
  });

  it('takes a merge patch only where the route takes one, and names both types when refusing', () => {
    expect(mediaTypeProblem('application/merge-patch+json', 'merge-patch')).toBeUndefined();
    expect(mediaTypeProblem('APPLICATION/MERGE-PATCH+JSON; charset=utf-8', 'merge-patch')).toBeUndefined();
    expect(mediaTypeProblem('application/json-patch+json', 'merge-patch')).toBe(notPatch);
    expect(mediaTypeProblem(undefined, 'merge-patch')).toBe(notPatch);
  });

  it.each([
    'application/json; charset=latin1',
    'application/json; charset=utf-16',
    'application/json; charset="UTF-16LE"',
    'application/json; version=2; charset=iso-8859-1',
    'application/json; charset=',
  ])('refuses %j: JSON is UTF-8', (contentType) => {
    expect(mediaTypeProblem(contentType, 'json')).toBe(notUtf8);
  });
});
