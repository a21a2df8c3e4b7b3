import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { getConfig } from '../config';
import type { Email } from './email';

/**
 * Sends email through the SES v2 API: Amazon SES in AWS, the local stand-in
 * (`aws-ses-v2-local`, which `npm start` runs) through `SES_ENDPOINT` locally, by the same call.
 * Throttling is the SDK's to retry: adaptive mode backs off with jitter and slows the client's
 * own rate while SES throttles; what still fails throws, and the event comes back to the notifier.
 */

/** Attempts of one send, the first included, while SES throttles or fails transiently. */
const MAX_ATTEMPTS = 6;

let client: SESv2Client | undefined;

function sesClient(): SESv2Client {
  if (client) return client;
  const config = getConfig();
  client = new SESv2Client({
    region: config.region,
    maxAttempts: MAX_ATTEMPTS,
    retryMode: 'adaptive',
    ...(config.sesEndpoint
      ? { endpoint: config.sesEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
      : {}),
  });
  return client;
}

/** Sends one email to one address from the deployment's `NOTIFICATIONS_FROM`; SES's message id. */
export async function sendEmail(to: string, email: Email): Promise<string | undefined> {
  const config = getConfig();
  if (!config.notificationsFrom) throw new Error('NOTIFICATIONS_FROM is not set: email is off');
  const answer = await sesClient().send(
    new SendEmailCommand({
      FromEmailAddress: config.notificationsFrom,
      Destination: { ToAddresses: [to] },
      ...(config.sesConfigurationSet ? { ConfigurationSetName: config.sesConfigurationSet } : {}),
      Content: {
        Simple: {
          Subject: { Data: email.subject, Charset: 'UTF-8' },
          Body: { Text: { Data: email.text, Charset: 'UTF-8' }, Html: { Data: email.html, Charset: 'UTF-8' } },
          Headers: email.headers.map((h) => ({ Name: h.name, Value: h.value })),
        },
      },
    }),
  );
  return answer.MessageId;
}
