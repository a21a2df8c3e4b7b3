import { api, json } from '../lib/http/edge';
import { listWebhookDeliveries } from '../lib/webhooks/subscriptions';

/** GET /api/webhooks/{id}/deliveries: the last 30 days of deliveries and their attempts, newest first. */
export const handler = api().handler(async (event) =>
  json(200, await listWebhookDeliveries(event.caller, event.pathParameters?.id ?? '', event.rawQueryString ?? '')),
);
