import { createHmac } from 'node:crypto';
import type { PublishedEvent } from '../actions/events';
import type { Subscription } from '../store/webhooks/subscriptions';

/**
 * What a webhook attempt carries and how it is signed (contract section 9, Standard Webhooks 1.0):
 * the body every attempt of an event sends, and its signatures.
 */

/** The body of every attempt of an event: Standard Webhooks' `{type, timestamp, data}`. */
export const payloadOf = (event: PublishedEvent): string =>
  JSON.stringify({ type: event.detailType, timestamp: event.time, data: event.detail });

/** `v1,<base64 HMAC-SHA256>` over `{id}.{timestamp}.{body}`, keyed with the secret's bytes. */
export function signature(secret: string, id: string, timestamp: number, payload: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${payload}`).digest('base64')}`;
}

/** The signatures an attempt carries: the current secret's, and the previous one's while it lasts. */
export function signatures(subscription: Subscription, id: string, timestamp: number, payload: string): string {
  const secrets = [subscription.secret];
  if (
    subscription.previousSecret &&
    subscription.previousSecretUntil &&
    subscription.previousSecretUntil > new Date().toISOString()
  ) {
    secrets.push(subscription.previousSecret);
  }
  return secrets.map((secret) => signature(secret, id, timestamp, payload)).join(' ');
}
