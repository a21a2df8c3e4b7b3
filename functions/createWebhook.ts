import { api, json } from '../lib/http/edge';
import { createWebhook } from '../lib/webhooks/subscription-bodies';

/** POST /api/webhooks: any signed-in caller subscribes (at most 25); 201 with the secret, once. */
export const handler = api({ body: 'json' }).handler(async (event) => {
  const webhook = await createWebhook(event.caller, event.body);
  return json(201, webhook, { location: `/api/webhooks/${webhook.id}` });
});
