/**
 * Which bodies a route takes, by Content-Type (RFC 9110 section 8.3), and why one is refused:
 * the text of the 415 the edge answers (`edge.ts`).
 */

/** What a route's body may be: plain JSON, or (for PATCH) also a JSON merge patch (RFC 7396). */
export type BodyKind = 'json' | 'merge-patch';

const MEDIA_TYPES: Record<BodyKind, readonly string[]> = {
  json: ['application/json'],
  'merge-patch': ['application/json', 'application/merge-patch+json'],
};

/** `type/subtype` and its parameters (RFC 9110 section 8.3.1); names are case-insensitive. */
const MEDIA_TYPE = /^\s*([!#$%&'*+.^_`|~\w-]+\/[!#$%&'*+.^_`|~\w-]+)\s*(;.*)?$/;
const CHARSET = /(?:^|;)\s*charset\s*=\s*"?([^";\s]*)"?/i;

/** Why a Content-Type is refused for `kind`, or `undefined` when it is accepted. */
export function mediaTypeProblem(contentType: string | undefined, kind: BodyKind): string | undefined {
  const accepted = MEDIA_TYPES[kind];
  const expected = `send Content-Type ${accepted.join(' or ')}`;
  const match = MEDIA_TYPE.exec(contentType ?? '');
  if (!match || !accepted.includes((match[1] as string).toLowerCase())) return `The body must be JSON: ${expected}.`;
  const charset = CHARSET.exec(match[2] ?? '')?.[1];
  // JSON exchanged between systems is UTF-8 (RFC 8259 section 8.1).
  if (charset !== undefined && charset.toLowerCase() !== 'utf-8')
    return 'JSON must be UTF-8: send charset=utf-8 or no charset.';
  return undefined;
}
