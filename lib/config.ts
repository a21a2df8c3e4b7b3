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

export interface Config {
  tableName: string;
  region: string;
  /** Set locally to reach the embedded store; unset in AWS. */
  dynamodbEndpoint?: string;
  userPoolId: string;
  userPoolClientId: string;
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
  /** Requests one caller (token `sub`) may make a minute; past it, 429. */
  rateLimitRequests: number;
  /** Index entries one caller's lists may read a minute; past it, 429. */
  rateLimitReads: number;
  /** The `source` values whose `ActionRequested` events are ingested; unset: any source. */
  producerSources?: string[];
  logLevel: LogLevel;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const LOG_LEVELS: LogLevel[] = ['debug', 'info', 'warn', 'error', 'silent'];

function load(): Config {
  const config: Config = {
    tableName: required('TABLE_NAME'),
    region: optional('AWS_REGION') ?? 'us-east-1',
    dynamodbEndpoint: optional('DYNAMODB_ENDPOINT'),
    userPoolId: required('USER_POOL_ID'),
    userPoolClientId: required('USER_POOL_CLIENT_ID'),
    jwksFile: optional('JWKS_FILE'),
    jwksUri: optional('JWKS_URI'),
    eventBusName: optional('EVENT_BUS_NAME'),
    eventsFile: optional('EVENTS_FILE'),
    eventSource: optional('EVENT_SOURCE') ?? 'action-tracking',
    storeTimeoutMs: Number(optional('STORE_TIMEOUT_MS') ?? 5000),
    storeMaxAttempts: Number(optional('STORE_MAX_ATTEMPTS') ?? 3),
    listReadBudget: Number(optional('LIST_READ_BUDGET') ?? 200_000),
    rateLimitRequests: Number(optional('RATE_LIMIT_REQUESTS') ?? 600),
    rateLimitReads: Number(optional('RATE_LIMIT_READS') ?? 2_000_000),
    producerSources: optional('PRODUCER_SOURCES')
      ?.split(',')
      .map((source) => source.trim())
      .filter((source) => source !== ''),
    logLevel: getLogLevel(),
  };
  if (!Number.isFinite(config.storeTimeoutMs) || config.storeTimeoutMs <= 0) {
    throw new Error('STORE_TIMEOUT_MS must be a positive number');
  }
  if (!Number.isSafeInteger(config.listReadBudget) || config.listReadBudget <= 0) {
    throw new Error('LIST_READ_BUDGET must be a positive whole number');
  }
  for (const [name, value] of [
    ['RATE_LIMIT_REQUESTS', config.rateLimitRequests],
    ['RATE_LIMIT_READS', config.rateLimitReads],
  ] as const) {
    if (!Number.isSafeInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number`);
  }
  return config;
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
