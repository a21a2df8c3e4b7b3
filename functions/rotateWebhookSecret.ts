import { api, json } from '../lib/http/edge';
import { rotateSecret } from '../lib/webhooks/subscriptions';

/** POST /api/webhooks/{id}/secret: a new secret; the old one also signs for 24 hours. */
export const handler = api().handler(async (event) =>
  json(200, await rotateSecret(event.caller, event.pathParameters?.id ?? '')),
);
