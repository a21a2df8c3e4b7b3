/**
 * The routes and functions of telling people (contract section 16), listed in `routes.ts` with
 * every other: the caller's preferences, the one-click unsubscribe of every email (public: a mail
 * program posts it without a token; the link's own secret decides), the notifier and the
 * function that records what SES reports of bounces and complaints.
 */

/** Preferences: read them, write them, and keep the digest roster in step. */
const PREFERENCES = ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] as const;

export const notificationRoutes = [
  { method: 'GET', path: '/api/me/notifications', handler: 'getNotificationPreferences', access: PREFERENCES },
  { method: 'PATCH', path: '/api/me/notifications', handler: 'updateNotificationPreferences', access: PREFERENCES },
  {
    method: 'POST',
    path: '/api/notifications/unsubscribe',
    handler: 'unsubscribeNotifications',
    access: PREFERENCES,
    public: true,
  },
] as const;

/**
 * `notify`: the published events (and, on the due-date schedule, the digests): reads actions,
 * people and preferences, lists a person's overdue actions, claims and marks each send.
 * `feedback`: records bounced and complaining addresses.
 */
export const notificationFunctions = {
  notify: {
    handler: 'notifyPeople',
    access: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'Query', 'BatchGetItem'],
  },
  feedback: { handler: 'recordEmailFeedback', access: ['PutItem'] },
} as const;
