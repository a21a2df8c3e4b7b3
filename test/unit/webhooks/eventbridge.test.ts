import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eventFromEventBridge } from '../../../lib/webhooks/eventbridge';

/** How a published event arrives from an EventBridge rule (through SQS). */

describe('eventFromEventBridge', () => {
  const envelope = {
    version: '0',
    id: 'envelope-id',
    'detail-type': 'ActionUpdated',
    source: 'action-tracking',
    time: '2026-11-01T00:00:01Z',
    detail: { eventId: 'change-id', time: '2026-11-01T00:00:00.123Z', actionId: 'a1' },
  };

  it("takes the change's own id and time, which every copy of the change carries, not the envelope's", () => {
    expect(eventFromEventBridge(JSON.stringify(envelope))).toEqual({
      id: 'change-id',
      detailType: 'ActionUpdated',
      time: '2026-11-01T00:00:00.123Z',
      detail: envelope.detail,
    });
  });

  it("falls back to the envelope's id and time when the detail has none", () => {
    const bare = { ...envelope, detail: { actionId: 'a1' } };
    expect(eventFromEventBridge(JSON.stringify(bare))).toEqual({
      id: 'envelope-id',
      detailType: 'ActionUpdated',
      time: '2026-11-01T00:00:01Z',
      detail: { actionId: 'a1' },
    });
  });

  it('is nothing for a body that is not such an event, never an exception', () => {
    for (const body of [
      '',
      'not json',
      'null',
      '[]',
      '{}',
      JSON.stringify({ ...envelope, detail: undefined }),
      JSON.stringify({ ...envelope, 'detail-type': undefined }),
      JSON.stringify({ ...envelope, id: undefined, detail: { actionId: 'a1' } }),
    ]) {
      expect(eventFromEventBridge(body), body).toBeUndefined();
    }
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (body) => {
        expect(() => eventFromEventBridge(body)).not.toThrow();
      }),
    );
  });
});
