import * as z from 'zod';
import { changesLimits } from '../actions/changes';
import { commentBodySchema } from '../actions/comment-text';
import { countsLimits } from '../actions/counts';
import { type FieldType, fieldCatalogue, fields, groupedFields } from '../filter/fields';
import { queryLimits } from '../filter/query';
import type { RouteHandler } from '../http/routes';
import { actionLimits, locationFields } from '../model/action';
import { MAX_TREND_BUCKETS } from '../model/trends';
import { createActionSchema, patchActionSchema } from '../model/validation';
import { jsonBody, type Operations, pageResponse, problems, threadParameters } from './components';
import {
  actionViewSchema as actionView,
  commentSchema as comment,
  historyEntrySchema as historyEntry,
} from './view-schemas';

/**
 * The actions in the OpenAPI document: create, list (the filter language, from the field
 * catalogue), read, edit, delete; their comments and endorsements; their history and the change
 * feed. Registered from `openapi.ts`.
 */

const OPERATORS = `Filters are \`<parameter>=<operator><value>\`: \`=\` equal (also the default; \`==\` is an explicit equal, so \`title==!urgent\` matches the title \`!urgent\`), \`!\` not equal, \`*\` like (case-insensitive substring; strings only), \`<\` smaller, \`>\` greater, \`~\` in (comma-separated, at most ${queryLimits.maxInValues} values; \`\\,\` is a literal comma and \`\\\\\` a backslash). Filters combine with AND, repeated ones too. At most ${queryLimits.maxFilters} filters.`;

/** What each field type adds to a filter parameter's documentation; its example is the field's own. */
const TYPE_NOTES: Record<FieldType, string> = {
  text: 'Case-insensitive under every operator; canonically equivalent text (NFC) compares alike.',
  string: 'Exact, except `*` (a case-insensitive substring; canonically equivalent text compares alike).',
  integer: 'An integer; `*` is not allowed.',
  boolean: '`true` or `false`, `=` only; not a sort.',
  date: 'An ISO 8601 date-time with an offset or Z, or a date (YYYY-MM-DD) that stands for that whole UTC day. Percent-encode `+` in offsets.',
};

const listParameters = z.object({
  ...Object.fromEntries(
    fields.map((field) => {
      const { example, about = '' }: { example: string; about?: string } = fieldCatalogue[field.name];
      // Examples go in the text: Swagger UI would pre-fill an `example` into every filter box.
      return [
        field.name,
        z
          .string()
          .optional()
          .openapi({ description: `${TYPE_NOTES[field.type]}${about} E.g. \`${field.name}=${example}\`.` }),
      ];
    }),
  ),
  skip: z
    .number()
    .int()
    .min(0)
    .max(queryLimits.maxWindow)
    .default(0)
    .optional()
    .openapi({ description: `Records to skip (default 0). skip + limit <= ${queryLimits.maxWindow}.` }),
  limit: z
    .number()
    .int()
    .min(0)
    .max(queryLimits.maxLimit)
    .default(queryLimits.defaultLimit)
    .optional()
    .openapi({
      description: `Records to return (default ${queryLimits.defaultLimit}; 0 returns only totalCount). skip + limit <= ${queryLimits.maxWindow}.`,
    }),
  sort: z
    .enum(
      fields.filter((field) => field.type !== 'boolean').flatMap((field) => [field.name, `-${field.name}`]) as [
        string,
        ...string[],
      ],
    )
    .optional()
    .openapi({
      description:
        'Any filterable field; prefix "-" for descending, e.g. `-dueAt`. Default: -createdAt. Ties are broken by id in the same direction. owner/assignee sort by name.',
    }),
  cursor: z.string().optional().openapi({
    description:
      "The `nextCursor` of the previous page: continues the same filters and sort, at any depth (past the 10,000 skip reaches), each page costing about `limit` entries. Send the filters and sort again exactly, or leave them out; any other filter, or skip, beside it is a 400 naming cursor. Opaque (sealed) and bound to the caller it was given to; an altered, truncated or foreign cursor, or another caller's, is a 400.",
  }),
});

const changesParameters = z.object({
  limit: z
    .number()
    .int()
    .min(1)
    .max(changesLimits.maxLimit)
    .default(changesLimits.defaultLimit)
    .optional()
    .openapi({ description: `Entries per page (default ${changesLimits.defaultLimit})` }),
  after: z.string().optional().openapi({ description: 'The `nextCursor` of the previous page: continue after it' }),
  since: z.string().optional().openapi({
    description:
      'Instead of `after`: start at this ISO 8601 date-time (with an offset or Z). With neither, the feed starts at the beginning.',
  }),
});

const feedEntry = historyEntry.extend({ actionId: z.string() }).openapi('ChangeFeedEntry');

const idempotencyKey = z.object({
  'idempotency-key': z.string().optional().openapi({
    description:
      'draft-ietf-httpapi-idempotency-key-header-07: 1-255 printable ASCII characters (a structured-field string `"..."` names the text inside the quotes), else 400. For 24 hours, a repeat by the same caller with the same key and body gets the first response again (status, body, Location) and creates nothing; the same key with another request is a 422, a repeat while the first is still processed a 409. Keys are per caller.',
  }),
});

const commentParameters = z.object({
  id: z.string().openapi({ description: 'The action id' }),
  commentId: z.string().openapi({ description: 'The comment id' }),
});

const idParameter = z.object({ id: z.string().openapi({ description: 'The action id' }) });
const ifMatch = z.object({
  'if-match': z.string().optional().openapi({
    description:
      '`*`, or one or more ETags from GET or PATCH, quoted as they come (`"3"`); strong comparison, so a weak `W/"3"` never matches. A stale one is a 412 whose ETag header is the current version; anything else is a 400.',
  }),
});

const trendParameters = z.object({
  interval: z.enum(['day', 'week', 'month']).openapi({ description: 'The bucket size' }),
  from: z.string().openapi({ description: 'The first day, YYYY-MM-DD (UTC)' }),
  to: z.string().openapi({ description: 'The last day, YYYY-MM-DD (UTC), today at the latest' }),
  ...Object.fromEntries(
    locationFields.map((field) => [
      `location.${field}`,
      z.string().optional().openapi({ description: `\`=\` only; only with every location field before it` }),
    ]),
  ),
  'actionProducer.name': z.string().optional().openapi({ description: '`=` only' }),
  priority: z.string().optional().openapi({ description: '`=` only, an integer' }),
  assignee: z.string().optional().openapi({ description: "`=` only, a person's id, `me` or `undefined`" }),
  owner: z.string().optional().openapi({ description: "`=` only, a person's id or `me`" }),
});

const trendBucket = z.object({
  start: z.string().openapi({ description: 'First day of the bucket (YYYY-MM-DD)' }),
  end: z.string().openapi({ description: 'Last day of the bucket (YYYY-MM-DD)' }),
  created: z.number().int(),
  closed: z.number().int(),
  reopened: z.number().int(),
  closedOnTime: z.number().int(),
  meanDaysToClose: z.number().nullable().openapi({ description: 'One decimal; null when nothing closed' }),
  openAtEnd: z.number().int().nullable().openapi({ description: 'null for days before a snapshot was recorded' }),
  overdueAtEnd: z.number().int().nullable(),
});

const trendSchema = z.object({
  interval: z.enum(['day', 'week', 'month']),
  from: z.string(),
  to: z.string(),
  buckets: z.array(trendBucket),
});

/** The operations, by handler. */
export const actionOperations = {
  createAction: (r) => ({
    method: 'post',
    path: r.path,
    summary: 'Create an action',
    description: `The caller becomes owner and initiator; the id is a random UUID. actionProducer.reference is kept as data: only the producer's own ActionRequested event claims a reference. Strings: title 1-${actionLimits.title} chars, description up to ${actionLimits.description}; text must be well-formed Unicode, and one-line fields (title, names, references, location, tags, attachment name and type) refuse control and bidirectional formatting characters.`,
    request: { headers: idempotencyKey, body: jsonBody(createActionSchema) },
    responses: {
      201: { description: 'Created', content: { 'application/json': { schema: z.object({ id: z.string() }) } } },
      ...problems(400, 401, 409, 413, 415, 422, 503),
    },
  }),
  listActions: (r) => ({
    method: 'get',
    path: r.path,
    summary: 'List and search actions',
    description: OPERATORS,
    request: { query: listParameters },
    responses: {
      200: pageResponse(
        'A page of matches and the number of matches. A list is never refused for its cost: when the read budget runs out, the page holds the matches found, in order, with a nextCursor that continues the search (a page shorter than limit with a nextCursor means exactly that)',
        'actions',
        actionView,
        {
          more: {
            totalCount: z.number().int(),
            totalCountRelation: z.enum(['eq', 'gte']).openapi({
              description:
                '`eq` when totalCount is exact; `gte` when it is a lower bound: the matches counted before the read budget ran out',
            }),
          },
          nextCursor: z.string().optional().openapi({ description: 'Present when more matches may follow this page' }),
        },
      ),
      ...problems(400, 401, 503),
    },
  }),
  getTrends: (r) => ({
    method: 'get',
    path: r.path,
    summary: 'Trends over time',
    description: `Per UTC day, week (Monday to Sunday) or calendar month from \`from\` to \`to\` (both inclusive, at most ${MAX_TREND_BUCKETS} buckets, \`to\` at most today): actions created, changes into a closed status (\`closed\`), out of one (\`reopened\`), closes at or before dueAt (\`closedOnTime\`), the mean days from creation to close over the bucket's closes, and open and overdue actions at the bucket's end (from a snapshot recorded at the end of each UTC day; \`null\` before the service recorded one; for the bucket holding today, the list's current counts). Over the caller's scopes (section 14). Filters are \`=\` only: any location fields (a field without the ones before it sums every location prefix it is found in, at most 50), and at most one of actionProducer.name, priority, assignee, owner (\`me\` allowed) with a location no deeper than the department. Any other filter or operator is a 400 naming it. May lag writes by up to 60 seconds; never reads actions.`,
    request: { query: trendParameters },
    responses: {
      200: {
        description: 'The buckets, oldest first',
        content: { 'application/json': { schema: trendSchema } },
      },
      ...problems(400, 401, 503),
    },
  }),
  countActions: (r) => ({
    method: 'get',
    path: r.path,
    summary: 'Count actions by group',
    description: `The matching actions grouped by one or two fields (\`by\` once or twice), with any list filter. Each group's \`count\` equals the \`totalCount\` of \`GET /api/actions\` with the same filters plus that group's value as an \`=\` filter (for \`overdueAge\`, the matching \`overdue\` and \`dueAt\` range), with the same relation; its \`overdue\` equals that list's count with \`overdue=true\` added. Counted over what the caller sees. Groups come by count descending, then key ascending; groups of 0 are left out; \`otherCount\` is the sum of the groups past \`limit\`. \`overdueAge\` groups by whole UTC days since dueAt: \`none\` (not overdue), \`1-7\` (less than a day past due counts here), \`8-30\`, \`31-90\`, \`91+\`. ${OPERATORS}`,
    request: {
      query: z.object({
        by: z.array(z.enum([...groupedFields, 'overdueAge'])).openapi({
          description: 'The field to group by, once or twice (a pair of fields groups by both)',
        }),
        limit: z
          .number()
          .int()
          .min(1)
          .max(countsLimits.maxLimit)
          .default(countsLimits.defaultLimit)
          .optional()
          .openapi({ description: `Groups to return (default ${countsLimits.defaultLimit})` }),
        ...listParameters.omit({ skip: true, limit: true, sort: true, cursor: true }).shape,
      }),
    },
    responses: {
      200: {
        description: 'The groups, their counts, and the total',
        content: {
          'application/json': {
            schema: z.object({
              by: z.array(z.string()),
              groups: z.array(
                z.object({
                  key: z.record(z.string(), z.string()).openapi({
                    description:
                      "Each by field's value as the list filter takes it (a person's id, `undefined` for nobody assigned, a status as a string)",
                  }),
                  label: z
                    .record(z.string(), z.string())
                    .openapi({ description: "A person's name for assignee and owner; {} otherwise" }),
                  count: z.number().int(),
                  overdue: z.number().int(),
                  countRelation: z
                    .enum(['gte'])
                    .optional()
                    .openapi({ description: 'Present only when count is a lower bound, as the list would say' }),
                }),
              ),
              totalCount: z.number().int(),
              totalCountRelation: z.enum(['eq', 'gte']),
              otherCount: z.number().int().openapi({ description: 'The sum of the counts of the groups past limit' }),
            }),
          },
        },
      },
      ...problems(400, 401, 503),
    },
  }),
  getAction: (r) => ({
    method: 'get',
    path: r.path,
    summary: 'Get an action',
    request: { params: idParameter },
    responses: {
      200: {
        description: 'The action; ETag header carries its version',
        content: { 'application/json': { schema: actionView } },
      },
      ...problems(401, 404, 503),
    },
  }),
  updateAction: (r) => ({
    method: 'patch',
    path: r.path,
    summary: 'Edit an action',
    description:
      'A JSON merge patch (RFC 7396), conditional on If-Match. Allowed to the owner or the assignee, or anyone when allowAnonymousEdits is true. A patch naming assignee needs the owner or the current assignee, one naming allowAnonymousEdits the owner; anyone else gets 403 for the whole patch. actionProducer.name and .reference never change (400). null resets description, tags and attachments; location merges field by field; assignee is replaced whole (null unassigns). When several errors apply: 400, then 404, 403, 412.',
    request: {
      params: idParameter,
      headers: ifMatch,
      body: jsonBody(patchActionSchema, ['application/merge-patch+json', 'application/json']),
    },
    responses: {
      200: {
        description: 'The updated action with its new ETag',
        content: { 'application/json': { schema: actionView } },
      },
      ...problems(400, 401, 403, 404, 412, 413, 415, 503),
    },
  }),
  deleteAction: (r) => ({
    method: 'delete',
    path: r.path,
    summary: 'Delete an action',
    description: 'The owner only, conditional on If-Match.',
    request: { params: idParameter, headers: ifMatch },
    responses: { 204: { description: 'Deleted' }, ...problems(401, 403, 404, 412, 503) },
  }),
  addComment: (r) => ({
    method: 'post',
    path: r.path,
    summary: 'Add a comment',
    description: `Any signed-in caller. Text: non-blank, at most ${actionLimits.comment} characters, well-formed Unicode; line breaks and tabs allowed. Moves the action's version, updatedAt and ETag.`,
    request: { params: idParameter, headers: idempotencyKey, body: jsonBody(commentBodySchema) },
    responses: {
      201: { description: 'The comment; Location names it', content: { 'application/json': { schema: comment } } },
      ...problems(400, 401, 404, 409, 413, 415, 422, 503),
    },
  }),
  listComments: (r) => ({
    method: 'get',
    path: r.path,
    summary: 'List comments',
    description: 'The whole comment thread, oldest first, in pages.',
    request: { params: idParameter, query: threadParameters },
    responses: {
      200: pageResponse('A page of comments', 'comments', comment),
      ...problems(400, 401, 404, 503),
    },
  }),
  editComment: (r) => ({
    method: 'patch',
    path: r.path,
    summary: 'Edit a comment',
    description: 'Its author only.',
    request: {
      params: commentParameters,
      body: jsonBody(commentBodySchema, ['application/json', 'application/merge-patch+json']),
    },
    responses: {
      200: { description: 'The edited comment', content: { 'application/json': { schema: comment } } },
      ...problems(400, 401, 403, 404, 413, 415, 503),
    },
  }),
  deleteComment: (r) => ({
    method: 'delete',
    path: r.path,
    summary: 'Delete a comment',
    description: "Its author or the action's owner.",
    request: { params: commentParameters },
    responses: { 204: { description: 'Deleted' }, ...problems(401, 403, 404, 503) },
  }),
  endorseAction: (r) => ({
    method: 'put',
    path: r.path,
    summary: 'Endorse an action',
    description: `Any signed-in caller; endorsing again changes nothing. At most ${actionLimits.endorsements} endorsements (409 past that). A caller may change their endorsement of one action at most 10 times an hour (past that a 429 problem+json with Retry-After).`,
    request: { params: idParameter },
    responses: {
      200: { description: 'The action with its ETag', content: { 'application/json': { schema: actionView } } },
      ...problems(401, 404, 409, 503),
    },
  }),
  withdrawEndorsement: (r) => ({
    method: 'delete',
    path: r.path,
    summary: 'Withdraw an endorsement',
    description:
      "The caller's own. A caller may change their endorsement of one action at most 10 times an hour (past that a 429 problem+json with Retry-After).",
    request: { params: idParameter },
    responses: { 204: { description: 'Withdrawn (also when there was none)' }, ...problems(401, 404, 503) },
  }),
  getHistory: (r) => ({
    method: 'get',
    path: r.path,
    summary: "Get an action's history",
    description:
      'Every change of the action, oldest first, in pages. Any signed-in caller, also after the action is deleted; 404 only for an id that never existed.',
    request: { params: idParameter, query: threadParameters },
    responses: {
      200: pageResponse('A page of history entries', 'entries', historyEntry),
      ...problems(400, 401, 404, 503),
    },
  }),
  listChanges: (r) => ({
    method: 'get',
    path: r.path,
    summary: 'Read the change feed',
    description:
      "Every history entry of every action, oldest first; one action's entries in version order. Follow `nextCursor` (always present, also on an empty page: poll again with it later) and you see every entry exactly once, deletes included, also while writes run. An entry appears up to 10 seconds after its change is stored. A page costs about `limit` entries whatever the table holds. Any signed-in caller.",
    request: { query: changesParameters },
    responses: {
      200: pageResponse('A page of entries and the cursor to continue with', 'entries', feedEntry, {
        nextCursor: z.string(),
      }),
      ...problems(400, 401, 503),
    },
  }),
} satisfies Partial<Operations<RouteHandler>>;

/** The groups of these operations on the docs page, in the order a newcomer reads them. */
export const actionGroups = [
  { name: 'Actions', description: 'Create, find, read, edit and delete actions: what must be done, by whom, by when.' },
  { name: 'Comments and endorsements', description: 'Discuss an action in its comment thread, and endorse it.' },
  {
    name: 'History and the change feed',
    description: 'Every change of one action, and of all actions in order, to keep a copy in step.',
  },
] as const;

/** The group of each operation here. */
export const actionTags = {
  createAction: 'Actions',
  listActions: 'Actions',
  getTrends: 'Actions',
  countActions: 'Actions',
  getAction: 'Actions',
  updateAction: 'Actions',
  deleteAction: 'Actions',
  addComment: 'Comments and endorsements',
  listComments: 'Comments and endorsements',
  editComment: 'Comments and endorsements',
  deleteComment: 'Comments and endorsements',
  endorseAction: 'Comments and endorsements',
  withdrawEndorsement: 'Comments and endorsements',
  getHistory: 'History and the change feed',
  listChanges: 'History and the change feed',
} as const;
