import { randomUUID } from 'node:crypto';
import { appendFile } from 'node:fs/promises';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import type { Person } from './action';
import { config } from './config';
import { errorFields, logger } from './logger';

/**
 * Publishes what changed as EventBridge events: `ActionCreated`, `ActionUpdated`, `ActionDeleted`.
 * In AWS they go to the bus; locally each is appended as one line to `$DATA_DIR/events.ndjson`.
 * Publishing follows the write: a failure is logged and does not undo or fail the write.
 */

export type PublishedType = 'ActionCreated' | 'ActionUpdated' | 'ActionDeleted';

export interface PublishedDetail {
  id: string;
  actor: Person;
  time: string;
  [key: string]: unknown;
}

const eventBridge = config.eventBusName ? new EventBridgeClient({ region: config.region }) : undefined;

export async function publish(type: PublishedType, detail: PublishedDetail): Promise<void> {
  try {
    if (eventBridge) {
      const result = await eventBridge.send(
        new PutEventsCommand({
          Entries: [
            {
              EventBusName: config.eventBusName,
              Source: config.eventSource,
              DetailType: type,
              Time: new Date(detail.time),
              Resources: [],
              Detail: JSON.stringify(detail),
            },
          ],
        }),
      );
      if (result.FailedEntryCount) throw new Error(result.Entries?.[0]?.ErrorMessage ?? 'PutEvents failed');
    } else if (config.eventsFile) {
      const envelope = {
        version: '0',
        id: randomUUID(),
        'detail-type': type,
        source: config.eventSource,
        account: '000000000000',
        time: detail.time,
        region: config.region,
        resources: [],
        detail,
      };
      await appendFile(config.eventsFile, `${JSON.stringify(envelope)}\n`);
    }
  } catch (error) {
    logger.error('publishing an event failed', { eventType: type, actionId: detail.id, ...errorFields(error) });
  }
}
