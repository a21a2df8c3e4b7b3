import { type Action, type ActionView, UNASSIGNED } from './action';

/**
 * The action as the API shows it: numbers as strings, nobody assigned as the seed's placeholder,
 * and its `version` (the number in its ETag), so a list shows what a safe `If-Match` edit needs
 * without a GET of each action.
 */
export function toView(action: Action): ActionView {
  const { reminded: _reminded, remindedBefore: _remindedBefore, priority, status, assignee, ...rest } = action;
  return {
    ...rest,
    priority: String(priority),
    status: String(status),
    assignee: assignee ?? { ...UNASSIGNED },
  };
}

export const etagOf = (action: Pick<Action, 'version'>): string => `"${action.version}"`;
