import { api, json } from '../lib/http/edge';
import { unsubscribe } from '../lib/notifications/people-preferences';

/** POST /api/notifications/unsubscribe?person=&token=: RFC 8058 one-click unsubscribe, no sign-in; 204. */
export const handler = api({ public: true }).handler(async (event) => {
  await unsubscribe(event.queryStringParameters ?? {});
  return json(204);
});
