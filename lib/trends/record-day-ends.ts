import { getReminderSettings } from '../config';
import { dayOf } from '../dates';
import { dayBefore } from '../model/trends';
import { type DayEndReport, recordDayEnds } from '../store/trends/day-ends';

/**
 * Run by every due-date sweep: the first one of a UTC day records the day before's end (open and
 * overdue per location prefix, from the counters); every later one finds it recorded, at the
 * cost of one read of a marker item.
 */
export const recordYesterday = (now = Date.now()): Promise<DayEndReport> =>
  recordDayEnds(dayBefore(dayOf(now)), getReminderSettings().closedStatuses);
