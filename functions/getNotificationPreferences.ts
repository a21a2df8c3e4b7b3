import { api, json } from '../lib/http/edge';
import { getNotificationPreferences } from '../lib/notifications/people-preferences';

/** GET /api/me/notifications: the caller's notification preferences (the defaults until they set any). */
export const handler = api().handler(async (event) => json(200, await getNotificationPreferences(event.caller)));
