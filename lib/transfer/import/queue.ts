import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { type PublishedEvent, publish } from '../../actions/events';
import { getConfig } from '../../config';

/**
 * How an import reaches its worker. In AWS: an `ImportQueued` event on the service's bus, which a
 * rule routes to the imports queue (infra/cdk/imports.ts) that drives the worker; the queue
 * redelivers a message the worker reports unfinished, so a long import goes on in the next
 * invocation, and one whose worker died comes back after the visibility timeout. (The SQS client
 * is not among the service's dependencies; the bus client is, and the rule gives the same queue.)
 * Locally `npm start` runs the same worker in its own process (infra/local/imports.ts), which
 * registers itself here.
 */

/** The event's source and type: no other rule on the bus matches them. */
export const importEventSource = (eventSource: string) => `${eventSource}.imports`;
export const IMPORT_QUEUED = 'ImportQueued';

type LocalRunner = (importId: string) => void;
let localRunner: LocalRunner | undefined;

/** The local stack's worker, which runs queued imports in its process (infra/local/imports.ts). */
export function runImportsLocally(runner: LocalRunner | undefined): void {
  localRunner = runner;
}

let client: EventBridgeClient | undefined;

/** Hands an import to its worker. */
export async function enqueueImport(importId: string): Promise<void> {
  const config = getConfig();
  if (!config.eventBusName) {
    if (!localRunner) throw new Error('no import worker: neither an event bus nor a local worker is configured');
    localRunner(importId);
    return;
  }
  client ??= new EventBridgeClient({ region: config.region });
  const answer = await client.send(
    new PutEventsCommand({
      Entries: [
        {
          EventBusName: config.eventBusName,
          Source: importEventSource(config.eventSource),
          DetailType: IMPORT_QUEUED,
          Detail: JSON.stringify({ importId }),
        },
      ],
    }),
  );
  if (answer.FailedEntryCount) throw new Error(`the import could not be queued: ${answer.Entries?.[0]?.ErrorMessage}`);
}

type LocalNotifier = (events: PublishedEvent[]) => Promise<void>;
let localNotifier: LocalNotifier | undefined;

/** The local stack's notifier, which hears an import's events as the notifier's rule on the bus does in AWS. */
export function notifyImportsLocally(notifier: LocalNotifier | undefined): void {
  localNotifier = notifier;
}

/**
 * Publishes an import's events (its `ActionsImported`, one per assignee) from the imports' own
 * source: in AWS a rule sends them to the notifier's queue; locally the events file has them and
 * the local stack's notifier hears them at once. Throws when they did not all go out.
 */
export async function publishImportEvents(events: PublishedEvent[]): Promise<void> {
  const config = getConfig();
  await publish(events, importEventSource(config.eventSource));
  if (!config.eventBusName) await localNotifier?.(events);
}
