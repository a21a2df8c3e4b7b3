import type { components, paths } from './api-types';

/**
 * The routes of contract sections 14-16 (grants and `/api/me`, evidence uploads, notification
 * preferences) as the contract gives them, typed for the console's client until their OpenAPI
 * paths land in `openapi.json` and `npm run build:console` regenerates `api-types.ts`; then each
 * path here that the document has is deleted (the client takes the document's first).
 */

type Problem = components['schemas']['Problem'];
type Json<T> = { headers: { [name: string]: unknown }; content: { 'application/json': T } };
type Failure = { headers: { [name: string]: unknown }; content: { 'application/problem+json': Problem } };
type NoContent = { headers: { [name: string]: unknown }; content?: never };
type Failures = { 400: Failure; 401: Failure; 403: Failure; 404: Failure; 409: Failure };
interface Parameters<Path, Query> {
  query?: Query;
  header?: never;
  path: Path;
  cookie?: never;
}
interface NoParameters {
  query?: never;
  header?: never;
  path?: never;
  cookie?: never;
}
interface Read<P, Ok> {
  parameters: P;
  requestBody?: never;
  responses: Ok & Failures;
}
interface Write<P, Body, Ok> {
  parameters: P;
  requestBody: { content: { 'application/json': Body } };
  responses: Ok & Failures;
}

/** A location prefix (section 14): each field only with every one before it. */
export interface Scope {
  businessUnit?: string;
  site?: string;
  department?: string;
  workGroup?: string;
  productiveUnit?: string;
  team?: string;
  crew?: string;
}
export type Role = 'viewer' | 'member' | 'manager' | 'admin';
export type Principal = { type: 'person'; id: string; name?: string } | { type: 'group'; name: string };
export interface Grant {
  id: string;
  principal: Principal;
  role: Role;
  scope: Scope;
  grantedBy?: { id: string; name: string };
  createdAt?: string;
}
export interface Me {
  id: string;
  name: string;
  email?: string | null;
  groups: string[];
  grants: Grant[];
}
export interface Upload {
  uploadId: string;
  url: string;
  fields: Record<string, string>;
  expiresAt: string;
}
export interface NotificationPreferences {
  email: 'immediately' | 'daily' | 'off';
  events: {
    assigned: boolean;
    dueSoon: boolean;
    overdue: boolean;
    escalated: boolean;
    comments: boolean;
    status: boolean;
  };
  timeZone: string;
  digestHour: number;
}

export interface PendingPaths {
  '/api/me': { parameters: NoParameters; get: Read<NoParameters, { 200: Json<Me> }> };
  '/api/me/notifications': {
    parameters: NoParameters;
    get: Read<NoParameters, { 200: Json<NotificationPreferences> }>;
    patch: Write<NoParameters, Partial<NotificationPreferences>, { 200: Json<NotificationPreferences> }>;
  };
  '/api/grants': {
    parameters: NoParameters;
    get: Read<
      { query?: { limit?: number; cursor?: string }; header?: never; path?: never; cookie?: never },
      { 200: Json<{ grants: Grant[]; nextCursor?: string }> }
    >;
    post: Write<NoParameters, { principal: Principal; role: Role; scope: Scope }, { 201: Json<Grant> }>;
  };
  '/api/grants/{id}': {
    parameters: NoParameters;
    delete: Read<Parameters<{ id: string }, never>, { 204: NoContent }>;
  };
  '/api/actions/{id}/uploads': {
    parameters: NoParameters;
    post: Write<
      Parameters<{ id: string }, never>,
      { name: string; contentType: string; size: number },
      { 201: Json<Upload> }
    >;
  };
  '/api/actions/{id}/attachments': {
    parameters: NoParameters;
    post: Write<Parameters<{ id: string }, never>, { uploadId: string }, { 201: Json<unknown> }>;
  };
  '/api/actions/{id}/attachments/{attachmentId}': {
    parameters: NoParameters;
    /** 302 to a presigned GET of the file; read with `parseAs: 'blob'`. */
    get: Read<Parameters<{ id: string; attachmentId: string }, never>, { 200: NoContent }>;
    delete: Read<Parameters<{ id: string; attachmentId: string }, never>, { 204: NoContent }>;
  };
}

/** An uploaded attachment on an action (section 15), beside the link ones `{url, name?, ...}`. */
export interface StoredAttachment {
  id: string;
  name: string;
  contentType: string;
  size: number;
  uploadedBy: { id: string; name: string };
  uploadedAt: string;
  scan: 'pending' | 'not-scanned' | 'clean' | 'threat' | string;
}

/** The 200 answer of one operation of the generated document. */
type Answer<Operation> = Operation extends { responses: { 200: { content: { 'application/json': infer Body } } } }
  ? Body
  : never;
/** `GET /api/actions/counts` (section 17), and one of its groups. */
export type Counts = Answer<paths['/api/actions/counts']['get']>;
export type CountGroup = Counts['groups'][number];
/** A bucket of `GET /api/actions/trends` (section 17). */
export type TrendBucket = Answer<paths['/api/actions/trends']['get']>['buckets'][number];
/** An export (section 18). */
export type Export = components['schemas']['Export'];
/** An import as `POST` answers it, with what `GET` adds (its report) once read (section 18). */
export type Import = components['schemas']['ImportSummary'] & Partial<components['schemas']['Import']>;
