import { api, json } from '../lib/http/edge';
import { getWebhook } from '../lib/webhooks/subscriptions';

/** GET /api/webhooks/{id}: the owner only; 404 to anyone else. */
export const handler = api().handler(async (event) =>
  json(200, await getWebhook(event.caller, event.pathParameters?.id ?? '')),
);
