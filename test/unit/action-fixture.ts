import type { Action } from '../../lib/model/action';
import { newAction, personFrom } from '../../lib/model/edits';

/** An open action as a create makes it (status 1, priority 2), with `overrides` laid over it. */
export function anAction(overrides: Partial<Action> = {}): Action {
  const owner = personFrom({ id: 'owner-1', name: 'Olive Owner', email: 'olive@example.com' });
  return {
    ...newAction(
      '0b8e3a3e-7b54-4d8e-9a0c-4a8f4c1b2d01',
      {
        title: 'Fix the guard rail',
        actionProducer: { name: 'inspections', reference: 'INS-1' },
        location: { site: 'North', team: 'Blue' },
        dueAt: '2026-12-01T10:00:00.000Z',
        priority: 2,
        status: 1,
        tags: ['safety'],
      },
      owner,
      owner,
      '2026-11-01T08:00:00.000Z',
    ),
    ...overrides,
  };
}
