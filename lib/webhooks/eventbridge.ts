import type { PublishedEvent } from '../actions/events';

/**
 * A published event as an EventBridge rule hands it over (through SQS): its `webhook-id` is the
 * change's own id, `detail.eventId`, which every copy of the change carries, not the envelope's.
 */
export function eventFromEventBridge(body: string): PublishedEvent | undefined {
  try {
    const envelope = JSON.parse(body) as { id?: string; 'detail-type'?: string; time?: string; detail?: unknown };
    const detail = envelope.detail as Record<string, unknown> | undefined;
    const id = typeof detail?.eventId === 'string' ? detail.eventId : envelope.id;
    if (!detail || !id || !envelope['detail-type']) return undefined;
    // The detail is the public event as it is (section 9); who may hear of it is judged from its history entry.
    return {
      id,
      detailType: envelope['detail-type'],
      time: typeof detail.time === 'string' ? detail.time : (envelope.time ?? new Date().toISOString()),
      detail,
    };
  } catch {
    return undefined;
  }
}
