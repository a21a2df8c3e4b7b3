import { api, json } from '../lib/http/edge';
import { deleteWebhook } from '../lib/webhooks/subscriptions';

/** DELETE /api/webhooks/{id}: the owner only; 204, and nothing more is sent to it. */
export const handler = api().handler(async (event) => {
  await deleteWebhook(event.caller, event.pathParameters?.id ?? '');
  return json(204);
});
