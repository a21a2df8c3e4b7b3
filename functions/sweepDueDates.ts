import middy from '@middy/core';
import { sweepDueDates } from '../lib/due-dates/sweep';
import { logger } from '../lib/logger';
import { recordYesterday } from '../lib/trends/record-day-ends';

/**
 * Run on a schedule (every minute in AWS, every REMINDER_INTERVAL_SECONDS locally): due-date
 * reminders, then, once a day, the day ends trends show (open and overdue per location prefix).
 */
export const handler = middy().handler(async () => {
  // Well inside the function's timeout; what is left waits in the queue for the next run.
  const report = await sweepDueDates({ budgetMs: 40_000 });
  logger.info('due-date sweep', {
    owed: report.owed,
    sent: report.sent,
    stopped: report.stopped,
    failed: report.failed,
    ...report.queue,
  });
  const dayEnd = await recordYesterday();
  if (dayEnd.recorded) logger.info('day end recorded for trends', { ...dayEnd });
  return report;
});
