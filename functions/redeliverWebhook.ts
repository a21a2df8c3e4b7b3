import { api, json } from '../lib/http/edge';
import { redeliver } from '../lib/webhooks/subscriptions';

/** POST /api/webhooks/{id}/deliveries/{deliveryId}/redeliver: 202; one more attempt now, same webhook-id. */
export const handler = api().handler(async (event) => {
  const { id = '', deliveryId = '' } = event.pathParameters ?? {};
  await redeliver(event.caller, id, deliveryId);
  return json(202);
});
