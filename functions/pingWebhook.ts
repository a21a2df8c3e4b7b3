import { api, json } from '../lib/http/edge';
import { ping } from '../lib/webhooks/subscriptions';

/** POST /api/webhooks/{id}/ping: 202; one WebhookPing delivery to this endpoint alone. */
export const handler = api().handler(async (event) =>
  json(202, await ping(event.caller, event.pathParameters?.id ?? '')),
);
