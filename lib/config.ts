import type { AccessMode } from './model/access';
import type { EvidenceSettings } from './model/evidence';
import type { ReminderSettings } from './model/reminders';
import { notificationSettings } from './notifications/settings';
import { type ExportSettings, exportSettings } from './transfer/settings';

/**
 * Configuration, read from the environment once, at first use, and checked. Nothing else in the
 * service reads `process.env`. Read lazily, not at import: a script or test may import any
 * module and set the environment afterwards. In AWS the CDK construct sets these; locally the
 * local stack does.
 */

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Missing required environment variable ${name}`);
  return value;
}

const optional = (name: string): string | undefined => process.env[name] || undefined;

/**
 * The search postings' table beside the table `tableName`, unless `POSTINGS_TABLE_NAME` names
 * another: the local stack makes it under this name, and the CDK construct names its own.
 */
export const postingsTableOf = (tableName: string): string => `${tableName}-postings`;

export interface Config {
  tableName: string;
  /**
   * `POSTINGS_TABLE_NAME`: the search postings' table (`lib/store/search/postings.ts`), keys only
   * and no indexes or stream. Default: `postingsTableOf(TABLE_NAME)`, as the local stack names it.
   */
  postingsTableName: string;
  region: string;
  /** Set locally to reach the embedded store; unset in AWS. */
  dynamodbEndpoint?: string;
  userPoolId: string;
  /**
   * `USER_POOL_CLIENT_ID`: the app clients whose ID tokens the API accepts, comma separated (the
   * service's own client and, with the console, the console's public client).
   */
  userPoolClientIds: string[];
  /** Locally, the issuer's public keys, so tokens verify without any network. */
  jwksFile?: string;
  /** Overrides where the user pool's keys are fetched from (default: Cognito's JWKS URI). */
  jwksUri?: string;
  /** Where published events go: an EventBridge bus in AWS, or a file locally. */
  eventBusName?: string;
  eventsFile?: string;
  eventSource: string;
  /** How long a store call may take in all, retries included, before the caller gets a 503. */
  storeTimeoutMs: number;
  storeMaxAttempts: number;
  /** The most index entries a list may read to find its matches; past it the list is a 400. */
  listReadBudget: number;
  /** The most whole locations a list reads to count or sort by location (`list/count/location-counts.ts`). */
  locationReadLimit: number;
  /** Requests one caller (token `sub`) may make a minute; past it, 429. */
  rateLimitRequests: number;
  /** Index entries one caller's lists may read a minute; past it, 429. */
  rateLimitReads: number;
  /**
   * `WEBHOOKS_ALLOW_PRIVATE=true`: webhooks may go to private, loopback and link-local addresses
   * and to `http://` URLs. The local stack sets it (its receivers are on 127.0.0.1); a deployment
   * never does by default.
   */
  webhooksAllowPrivate: boolean;
  /**
   * `WEBHOOK_RETRY_SECONDS`: the pauses before each retry of a failed delivery, comma separated
   * (default `5,300,1800,7200,18000,36000,36000`, the contract's schedule). Tests shorten it.
   */
  webhookRetrySeconds: readonly number[];
  /** The `source` values whose `ActionRequested` events are ingested; unset: any source. */
  producerSources?: string[];
  logLevel: LogLevel;
  reminders: ReminderSettings;
  /** `ACCESS`: `open` (default, sections 1-13: everyone sees everything) or `scoped` (section 14). */
  access: AccessMode;
  /** `ADMIN_GROUP`: the Cognito group whose members are admin of `{}` (default `action-admins`). */
  adminGroup: string;
  /** `ACCESS_CACHE_SECONDS`: how long a caller's resolved roles are kept (default 30, at most 60; 0 never). */
  accessCacheSeconds: number;
  /** Email to people (section 16): `NOTIFICATIONS_FROM`, `SES_ENDPOINT`, `SES_CONFIGURATION_SET`, `CONSOLE_URL`. */
  notificationsFrom?: string;
  sesEndpoint?: string;
  sesConfigurationSet?: string;
  consoleUrl?: string;
  /** Evidence uploads (contract section 15): the bucket and the limits; see `evidenceSettings`. */
  evidence: EvidenceSettings;
}

/** The contract's retry schedule: about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
const WEBHOOK_RETRY_SECONDS = '5,300,1800,7200,18000,36000,36000';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const LOG_LEVELS: LogLevel[] = ['debug', 'info', 'warn', 'error', 'silent'];

function load(): Config {
  const config: Config = {
    tableName: required('TABLE_NAME'),
    postingsTableName: optional('POSTINGS_TABLE_NAME') ?? postingsTableOf(required('TABLE_NAME')),
    region: optional('AWS_REGION') ?? 'us-east-1',
    dynamodbEndpoint: optional('DYNAMODB_ENDPOINT'),
    userPoolId: required('USER_POOL_ID'),
    userPoolClientIds: required('USER_POOL_CLIENT_ID')
      .split(',')
      .map((id) => id.trim())
      .filter((id) => id !== ''),
    jwksFile: optional('JWKS_FILE'),
    jwksUri: optional('JWKS_URI'),
    eventBusName: optional('EVENT_BUS_NAME'),
    eventsFile: optional('EVENTS_FILE'),
    eventSource: optional('EVENT_SOURCE') ?? 'action-tracking',
    storeTimeoutMs: Number(optional('STORE_TIMEOUT_MS') ?? 5000),
    storeMaxAttempts: Number(optional('STORE_MAX_ATTEMPTS') ?? 3),
    listReadBudget: Number(optional('LIST_READ_BUDGET') ?? 200_000),
    locationReadLimit: Number(optional('LOCATION_READ_LIMIT') ?? 10_000),
    rateLimitRequests: Number(optional('RATE_LIMIT_REQUESTS') ?? 600),
    rateLimitReads: Number(optional('RATE_LIMIT_READS') ?? 2_000_000),
    webhooksAllowPrivate: flag('WEBHOOKS_ALLOW_PRIVATE'),
    webhookRetrySeconds: (optional('WEBHOOK_RETRY_SECONDS') ?? WEBHOOK_RETRY_SECONDS).split(',').map(Number),
    producerSources: optional('PRODUCER_SOURCES')
      ?.split(',')
      .map((source) => source.trim())
      .filter((source) => source !== ''),
    logLevel: getLogLevel(),
    reminders: getReminderSettings(),
    access: accessMode(),
    adminGroup: optional('ADMIN_GROUP') ?? 'action-admins',
    accessCacheSeconds: Number(optional('ACCESS_CACHE_SECONDS') ?? 30),
    ...notificationSettings(optional),
    evidence: evidenceSettings(),
  };
  // A revoked grant must stop working within 60 seconds (contract section 14).
  if (!(config.accessCacheSeconds >= 0 && config.accessCacheSeconds <= 60))
    throw new Error('ACCESS_CACHE_SECONDS must be a number of seconds from 0 to 60');
  if (config.userPoolClientIds.length === 0) throw new Error('USER_POOL_CLIENT_ID must name at least one app client');
  if (!Number.isFinite(config.storeTimeoutMs) || config.storeTimeoutMs <= 0) {
    throw new Error('STORE_TIMEOUT_MS must be a positive number');
  }
  if (!Number.isSafeInteger(config.listReadBudget) || config.listReadBudget <= 0) {
    throw new Error('LIST_READ_BUDGET must be a positive whole number');
  }
  for (const [name, value] of [
    ['LOCATION_READ_LIMIT', config.locationReadLimit],
    ['RATE_LIMIT_REQUESTS', config.rateLimitRequests],
    ['RATE_LIMIT_READS', config.rateLimitReads],
  ] as const) {
    if (!Number.isSafeInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number`);
  }
  if (!config.webhookRetrySeconds.every((s) => Number.isFinite(s) && s > 0)) {
    throw new Error('WEBHOOK_RETRY_SECONDS must be positive numbers of seconds, comma separated');
  }
  return config;
}

/** `ACCESS`: `open` (or unset) or `scoped`; anything else is a mistake worth stopping for. */
function accessMode(): AccessMode {
  const value = optional('ACCESS')?.toLowerCase() ?? 'open';
  if (value === 'open' || value === 'scoped') return value;
  throw new Error('ACCESS must be open or scoped');
}

/**
 * `EVIDENCE_BUCKET` (unset: no uploads, a 503), `S3_ENDPOINT` (the local storage), `ATTACHMENT_TYPES`,
 * `ATTACHMENT_MAX_BYTES` (default 25 MiB), `EVIDENCE_REQUIRED_STATUSES` (default none), `MALWARE_SCAN`
 * (a scanner tags the objects) and `SERVE_UNSCANNED` (default true: where none runs, files are served).
 */
function evidenceSettings(): EvidenceSettings {
  const list = (name: string, fallback: string) =>
    (optional(name) ?? fallback)
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
  const requiredStatuses = list('EVIDENCE_REQUIRED_STATUSES', '');
  if (requiredStatuses.some((s) => !/^\d{1,9}$/.test(s)))
    throw new Error('EVIDENCE_REQUIRED_STATUSES must be a comma-separated list of status numbers, e.g. 3');
  const maxBytes = Number(optional('ATTACHMENT_MAX_BYTES') ?? 25 * 1024 * 1024);
  // S3 takes at most 5 GB in one POST.
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1 || maxBytes > 5 * 1024 ** 3)
    throw new Error('ATTACHMENT_MAX_BYTES must be a whole number of bytes from 1 to 5 GiB');
  const types = list('ATTACHMENT_TYPES', 'image/jpeg,image/png,image/webp,image/heic,application/pdf');
  if (types.some((t) => !/^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(t)))
    throw new Error(
      'ATTACHMENT_TYPES must be comma-separated media types in lower case, e.g. image/jpeg,application/pdf',
    );
  return {
    bucket: optional('EVIDENCE_BUCKET'),
    endpoint: optional('S3_ENDPOINT'),
    types,
    maxBytes,
    requiredStatuses: requiredStatuses.map(Number),
    malwareScan: flag('MALWARE_SCAN'),
    serveUnscanned: optional('SERVE_UNSCANNED') === undefined ? true : flag('SERVE_UNSCANNED'),
  };
}

/** `true` or `false` (or unset: `false`); anything else is a mistake worth stopping for. */
function flag(name: string): boolean {
  const value = optional(name)?.toLowerCase();
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw new Error(`${name} must be true or false`);
}

let loaded: Config | undefined;

/** The configuration, read and checked on the first call. */
export function getConfig(): Config {
  loaded ??= load();
  return loaded;
}

let logLevel: LogLevel | undefined;

/** The log level alone (`LOG_LEVEL`), so logging works before, or without, the rest. */
export function getLogLevel(): LogLevel {
  if (logLevel === undefined) {
    const level = (optional('LOG_LEVEL')?.toLowerCase() ?? 'info') as LogLevel;
    if (!LOG_LEVELS.includes(level)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
    logLevel = level;
  }
  return logLevel;
}

let reminders: ReminderSettings | undefined;

function positiveNumber(name: string, fallback: number): number {
  const raw = optional(name);
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number (decimals allowed)`);
  return value;
}

let exports: ExportSettings | undefined;

/**
 * The export settings alone (contract section 18: `EXPORT_PART_BYTES`, `EXPORT_SLICE_SECONDS`,
 * `EXPORT_QUEUE`), read and checked at first use: only the export functions read them, so no other
 * function's bundle carries their checks (updateAction's stays under 400 KB).
 */
export function getExportSettings(): ExportSettings {
  exports ??= exportSettings(optional);
  return exports;
}

/**
 * The due-date settings alone, like the log level: the store's keys depend on which statuses are
 * closed, and a store is sometimes opened (an upgrade, a seed) before the rest is configured.
 */
export function getReminderSettings(): ReminderSettings {
  if (reminders === undefined) {
    const closed = (optional('CLOSED_STATUSES') ?? '3,4').split(',').map((s) => s.trim());
    if (closed.some((s) => !/^\d{1,9}$/.test(s)))
      throw new Error('CLOSED_STATUSES must be a comma-separated list of status numbers, e.g. 3,4');
    reminders = {
      closedStatuses: closed.map(Number),
      dueSoonHours: positiveNumber('DUE_SOON_HOURS', 24),
      escalateAfterHours: positiveNumber('ESCALATE_AFTER_HOURS', 168),
      intervalSeconds: positiveNumber('REMINDER_INTERVAL_SECONDS', 30),
    };
  }
  return reminders;
}
