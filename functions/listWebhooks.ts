import { api, json } from '../lib/http/edge';
import { listWebhooks } from '../lib/webhooks/subscriptions';

/** GET /api/webhooks: the caller's own subscriptions, without secrets. */
export const handler = api().handler(async (event) => json(200, await listWebhooks(event.caller)));
