import { randomUUID } from 'node:crypto';
import * as z from 'zod';
import { getConfig } from '../config';
import { clip } from '../errors';
import type { Person } from '../model/action';
import { oneLine, validateBody } from '../model/validate-body';
import { putSubscription, type Subscription, updateSubscription } from '../store/webhooks/subscriptions';
import { hostProblem } from './address';
import {
  MAX_SUBSCRIPTIONS,
  newSecret,
  noSuchWebhook,
  ownSubscription,
  toView,
  type WebhookView,
  webhookEventTypes,
  webhookLimits,
} from './subscriptions';

/**
 * The two webhook requests that send a body (contract section 9): subscribing and changing a
 * subscription, with their schemas. Apart from `subscriptions.ts` so that reading, deleting,
 * rotating, pinging and redelivering carry no zod.
 */

/** White space and control characters anywhere in a URL are a 400, never trimmed (section 12). */
const NOT_IN_URL = /[\s\u0000-\u001f\u007f-\u009f]/;

function urlProblem(text: string): string | undefined {
  if (NOT_IN_URL.test(text)) return 'must not contain white space or control characters';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be an absolute https URL';
  }
  const allowPrivate = getConfig().webhooksAllowPrivate;
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    return allowPrivate ? 'must be an http or https URL' : 'must be an https URL';
  }
  if (url.username || url.password) return 'must not contain a user name or password';
  if (!allowPrivate) {
    const problem = hostProblem(url.hostname);
    if (problem) return `${problem}: deliveries go only to public addresses`;
  }
  return undefined;
}

const urlSchema = z
  .string()
  .max(webhookLimits.url, `must be at most ${webhookLimits.url} characters`)
  .superRefine((text, context) => {
    const problem = urlProblem(text);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });

const eventsSchema = z
  .array(z.string())
  .min(1, 'must name at least one event type, or be ["*"]')
  .max(webhookEventTypes.length + 1, `must have at most ${webhookEventTypes.length + 1} items`)
  .superRefine((events, context) => {
    if (events.includes('*') && events.length > 1) {
      context.addIssue({ code: 'custom', message: '"*" stands alone: it already means every event type' });
    }
    for (const type of events) {
      if (type !== '*' && !webhookEventTypes.includes(type)) {
        context.addIssue({
          code: 'custom',
          message: `'${clip(type)}' is not an event type; known types: ${webhookEventTypes.join(', ')}`,
        });
      }
    }
  });

/** A description is shown beside the URL in one line, so it follows the one-line rules (section 9). */
const descriptionSchema = oneLine(
  z.string().max(webhookLimits.description, `must be at most ${webhookLimits.description} characters`),
);

export const webhookCreateSchema = z.strictObject({
  url: urlSchema,
  events: eventsSchema.optional(),
  description: descriptionSchema.optional(),
});

export const webhookPatchSchema = z.strictObject({
  url: urlSchema.optional(),
  events: eventsSchema.optional(),
  description: descriptionSchema.nullable().optional(),
  enabled: z.boolean().optional(),
});

/** Subscribes the caller; the secret is shown here and on rotation only. */
export async function createWebhook(caller: Person, body: unknown): Promise<WebhookView & { secret: string }> {
  const input = validateBody(webhookCreateSchema, body);
  const now = new Date().toISOString();
  const subscription: Subscription = {
    id: randomUUID(),
    owner: caller,
    url: input.url,
    events: [...new Set(input.events ?? ['*'])],
    description: input.description ?? '',
    enabled: true,
    createdAt: now,
    updatedAt: now,
    secret: newSecret(),
  };
  await putSubscription(subscription, MAX_SUBSCRIPTIONS);
  return { ...toView(subscription), secret: subscription.secret };
}

/** A merge patch of `url`, `events`, `description` and `enabled`; enabling again clears why it was disabled. */
export async function updateWebhook(caller: Person, id: string, body: unknown): Promise<WebhookView> {
  const patch = validateBody(webhookPatchSchema, body);
  await ownSubscription(caller, id);
  const updated = await updateSubscription(caller.id, id, {
    ...(patch.url !== undefined ? { url: patch.url } : {}),
    ...(patch.events !== undefined ? { events: [...new Set(patch.events)] } : {}),
    ...(patch.description !== undefined ? { description: patch.description ?? '' } : {}),
    ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
    ...(patch.enabled === true ? { disabledReason: undefined, failingSince: undefined } : {}),
    updatedAt: new Date().toISOString(),
  });
  if (!updated) throw noSuchWebhook(id);
  return toView(updated);
}
