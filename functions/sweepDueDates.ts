import middy from '@middy/core';
import { sweepDueDates } from '../lib/due-dates/sweep';
import { logger } from '../lib/logger';

/** Run on a schedule (every minute in AWS, every REMINDER_INTERVAL_SECONDS locally): due-date reminders. */
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
  return report;
});
