import { appendFile, chmod } from 'node:fs/promises';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { v5 as uuidv5 } from 'uuid';
import { getConfig } from '../config';
import { eventTypeOf, type RecordedEntry } from '../model/history';

/**
 * The events the service publishes: one per history entry (`ActionCreated`, `ActionUpdated`,
 * `ActionDeleted`, `ActionCommented`, ...). They leave from the table's change stream, never
 * from the request: the entry is written in the same transaction as its change, so a change is
 * never without its event, only (when the bus fails) later. Delivery is at least once; every
 * delivery of one change carries the same id, derived from the action id and the version.
 */

/** UUID v5 namespace of event ids. */
const EVENT_NAMESPACE = '8d3f2a61-0b7c-4e55-9f0e-2c4b7a9d1e63';

export interface PublishedEvent {
  /** The same for every delivery of one change. */
  id: string;
  detailType: string;
  time: string;
  /** Exactly what the bus carries as the event's detail, and a webhook as its body's `data` (section 9). */
  detail: Record<string, unknown>;
}

/** The event id of an action's version. */
export const eventId = (actionId: string, version: number) => uuidv5(`${actionId}/${version}`, EVENT_NAMESPACE);

/** The event a history entry publishes. */
export function eventOf(entry: RecordedEntry): PublishedEvent {
  const id = eventId(entry.actionId, entry.version);
  return {
    id,
    detailType: eventTypeOf[entry.type],
    time: entry.time,
    detail: {
      // EventBridge gives each put its own envelope id; consumers there drop repeats by this one.
      eventId: id,
      id: entry.actionId,
      version: entry.version,
      actor: entry.actor,
      time: entry.time,
      ...(entry.changes ? { changes: entry.changes } : {}),
      // Which comment and its author, never its text: the text lives only in the comment, which a
      // consumer reads (GET .../comments) while it exists (contract section 12).
      ...(entry.comment
        ? { comment: { id: entry.comment.id, ...(entry.comment.author ? { author: entry.comment.author } : {}) } }
        : {}),
      ...(entry.action ? { action: entry.action } : {}),
      ...(entry.dueAt ? { dueAt: entry.dueAt } : {}),
      ...(entry.attachment ? { attachment: entry.attachment } : {}),
      ...(entry.subject ?? {}),
    },
  };
}

let eventBridge: EventBridgeClient | undefined;

/** PutEvents takes at most 10 entries a call. */
const PUT_EVENTS_MAX = 10;

/**
 * Publishes events in order, from `source` (the service's own by default): to the EventBridge bus in AWS, or as lines of
 * `$DATA_DIR/events.ndjson` locally. Throws on the first event that could not be published,
 * saying how many before it were, so the caller retries from there and keeps the order.
 */
export async function publish(events: PublishedEvent[], source = getConfig().eventSource): Promise<void> {
  const config = getConfig();
  if (config.eventBusName) {
    eventBridge ??= new EventBridgeClient({ region: config.region });
    for (let i = 0; i < events.length; i += PUT_EVENTS_MAX) {
      const batch = events.slice(i, i + PUT_EVENTS_MAX);
      const result = await eventBridge.send(
        new PutEventsCommand({
          Entries: batch.map((event) => ({
            EventBusName: config.eventBusName,
            Source: source,
            DetailType: event.detailType,
            Time: new Date(event.time),
            Resources: [],
            Detail: JSON.stringify(event.detail),
          })),
        }),
      );
      const failed = (result.Entries ?? []).findIndex((entry) => entry.ErrorCode);
      if (failed >= 0 || result.FailedEntryCount) {
        throw new PublishError(i + Math.max(0, failed), result.Entries?.[failed]?.ErrorMessage ?? 'PutEvents failed');
      }
    }
  } else if (config.eventsFile) {
    const lines = events.map((event) =>
      JSON.stringify({
        version: '0',
        id: event.id,
        'detail-type': event.detailType,
        source,
        account: '000000000000',
        time: event.time,
        region: config.region,
        resources: [],
        detail: event.detail,
      }),
    );
    try {
      await appendFile(config.eventsFile, lines.map((line) => `${line}\n`).join(''), { mode: 0o600 });
      // The file holds people's emails: readable by its owner only, whatever made it first.
      await chmod(config.eventsFile, 0o600);
    } catch (error) {
      throw new PublishError(0, `could not append to ${config.eventsFile}`, { cause: error });
    }
  }
}

/** Publishing stopped at `published`: the events before it went out, the rest did not. */
export class PublishError extends Error {
  constructor(
    readonly published: number,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'PublishError';
  }
}
