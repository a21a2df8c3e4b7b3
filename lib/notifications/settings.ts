/**
 * The notification settings of the configuration (read by `lib/config.ts`, the one reader of the
 * environment, which hands this its reader): off unless `NOTIFICATIONS_FROM` names a sender.
 */
export function notificationSettings(read: (name: string) => string | undefined) {
  const from = read('NOTIFICATIONS_FROM');
  const consoleUrl = read('CONSOLE_URL');
  if (from !== undefined && !/^[^@\s<>]+@[^@\s<>]+$/.test(from.replace(/^.*<(.*)>\s*$/, '$1'))) {
    throw new Error('NOTIFICATIONS_FROM must be an email address (or "Name <address>")');
  }
  if (consoleUrl !== undefined && !/^https?:\/\/[^\s/]+/.test(consoleUrl)) {
    throw new Error('CONSOLE_URL must be an http(s) URL, e.g. https://console.example.com');
  }
  return {
    notificationsFrom: from,
    sesEndpoint: read('SES_ENDPOINT'),
    sesConfigurationSet: read('SES_CONFIGURATION_SET'),
    consoleUrl,
  };
}
