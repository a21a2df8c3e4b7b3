import type { PublishedEvent } from '../actions/events';
import type { Sight } from '../model/access';

/**
 * A published event as an EventBridge rule hands it over (through SQS): its `webhook-id` is the
 * change's own id, `detail.eventId`, which every copy of the change carries, not the envelope's.
 */
export function eventFromEventBridge(body: string): PublishedEvent | undefined {
  try {
    const envelope = JSON.parse(body) as { id?: string; 'detail-type'?: string; time?: string; detail?: unknown };
    const carried = envelope.detail as Record<string, unknown> | undefined;
    const id = typeof carried?.eventId === 'string' ? carried.eventId : envelope.id;
    if (!carried || !id || !envelope['detail-type']) return undefined;
    // The bus carries the internal sight inside the detail, under `sight` (`busDetail`); it is never part of a body.
    const { sight, ...detail } = carried;
    return {
      id,
      detailType: envelope['detail-type'],
      time: typeof detail.time === 'string' ? detail.time : (envelope.time ?? new Date().toISOString()),
      detail,
      ...(sight !== null && typeof sight === 'object' ? { sight: sight as Sight } : {}),
    };
  } catch {
    return undefined;
  }
}
