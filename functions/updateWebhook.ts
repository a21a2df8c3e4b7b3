import { api, json } from '../lib/http/edge';
import { updateWebhook } from '../lib/webhooks/subscription-bodies';

/** PATCH /api/webhooks/{id}: merge patch of url, events, description and enabled; the owner only. */
export const handler = api({ body: 'merge-patch' }).handler(async (event) =>
  json(200, await updateWebhook(event.caller, event.pathParameters?.id ?? '', event.body)),
);
