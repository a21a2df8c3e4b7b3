/**
 * The status catalogue, once: the console shows these names, and the README's catalogue
 * ("1 open, 2 in progress, 3 done, 4 cancelled, 5 on hold", with 3 and 4 closing an action as
 * the default CLOSED_STATUSES) is checked against it by test/unit/console-statuses.test.ts.
 */
export const STATUSES = [
  { value: '1', name: 'Open', closes: false },
  { value: '2', name: 'In progress', closes: false },
  { value: '3', name: 'Done', closes: true },
  { value: '4', name: 'Cancelled', closes: true },
  { value: '5', name: 'On hold', closes: false },
] as const;

/** A status by name; a number outside the catalogue reads "Status n". */
export function statusName(value: string): string {
  return STATUSES.find((s) => s.value === value)?.name ?? `Status ${value}`;
}

/** The statuses that leave an action open, as a `~` list for the API. */
export const OPEN_STATUSES = STATUSES.filter((s) => !s.closes)
  .map((s) => s.value)
  .join(',');
