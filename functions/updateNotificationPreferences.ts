import { api, json } from '../lib/http/edge';
import { patchNotificationPreferences } from '../lib/notifications/people-preferences';

/** PATCH /api/me/notifications: a merge patch of the caller's preferences; 400 naming each wrong field. */
export const handler = api({ body: 'merge-patch' }).handler(async (event) =>
  json(200, await patchNotificationPreferences(event.caller, event.body)),
);
