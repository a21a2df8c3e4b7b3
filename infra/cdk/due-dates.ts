import { Duration, Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { CfnSchedule } from 'aws-cdk-lib/aws-scheduler';
import type { Construct } from 'constructs';
import { sweepFunction } from '../../lib/http/routes';
import { ServiceFunction } from './service-function';

/**
 * Due dates in AWS (contract section 10): the due-date sweep, run by EventBridge Scheduler every
 * `interval`, reads only its queue's index and writes as every change does. Built in the service's
 * own scope, so its logical IDs are the ones a deployed stack has (see `infra/cdk/api.ts`).
 */

/** The sweep stops starting reminders after 40 s (functions/sweepDueDates.ts); a minute leaves room to finish. */
const DUE_DATE_SWEEP_TIMEOUT = Duration.seconds(60);

/** The props of `ActionTrackingService` about due dates: every function reads them (`dueDateEnvironment`). */
export interface DueDateOptions {
  /**
   * Statuses that close an action: closed actions get no reminders and are never overdue.
   *
   * @default [3, 4]
   */
  readonly closedStatuses?: readonly number[];
  /**
   * How many hours before `dueAt` an open action is due soon (decimals allowed).
   *
   * @default 24
   */
  readonly dueSoonHours?: number;
  /**
   * How many hours after `dueAt` an overdue action is escalated (decimals allowed).
   *
   * @default 168
   */
  readonly escalateAfterHours?: number;
  /**
   * How often the due-date sweep runs (EventBridge Scheduler: whole minutes, at least one).
   *
   * @default Duration.minutes(1)
   */
  readonly reminderInterval?: Duration;
}

/**
 * The due-date settings every function is given: every write keeps the reminder state (which
 * statuses close an action) in step, so every function reads them.
 */
export function dueDateEnvironment(options: DueDateOptions, interval: Duration): Record<string, string> {
  return {
    CLOSED_STATUSES: (options.closedStatuses ?? [3, 4]).join(','),
    DUE_SOON_HOURS: String(options.dueSoonHours ?? 24),
    ESCALATE_AFTER_HOURS: String(options.escalateAfterHours ?? 168),
    REMINDER_INTERVAL_SECONDS: String(interval.toSeconds()),
  };
}

export interface DueDateSweepProps {
  /** The service's table: the sweep queries its `reminders-by-due` index and writes the actions. */
  readonly table: ITable;
  /** What every handler of `functions/` is given. */
  readonly environment: Readonly<Record<string, string>>;
  /** Retention of the sweep's logs. */
  readonly logRetention: RetentionDays;
  /** How often the sweep runs (`checkedInterval`). */
  readonly interval: Duration;
}

/** The interval, checked: EventBridge Scheduler rates are whole minutes, at least one. */
export function checkedInterval(interval: Duration = Duration.minutes(1)): Duration {
  if (interval.toSeconds() < 60 || interval.toSeconds() % 60 !== 0)
    throw new Error('reminderInterval must be a whole number of minutes, at least one (EventBridge Scheduler rates)');
  return interval;
}

export class DueDateSweep {
  /** sweepDueDates. */
  readonly function: ServiceFunction;
  /** Runs the sweep every `interval`. */
  readonly schedule: CfnSchedule;

  constructor(scope: Construct, props: DueDateSweepProps) {
    const { table } = props;
    this.function = new ServiceFunction(scope, sweepFunction.handler, {
      handler: sweepFunction.handler,
      permissions: [
        new PolicyStatement({
          // `QueryTable` is `Query` on the table itself: the counters the day ends are read from.
          actions: sweepFunction.access.map((a) => `dynamodb:${a === 'QueryTable' ? 'Query' : a}`),
          resources: [table.tableArn],
        }),
        new PolicyStatement({
          actions: ['dynamodb:Query'],
          resources: [`${table.tableArn}/index/${sweepFunction.queries}`],
        }),
      ],
      environment: { ...props.environment },
      timeout: DUE_DATE_SWEEP_TIMEOUT,
      logRetention: props.logRetention,
    });
    // A role of its own: the scheduler may invoke this one function (its unqualified ARN) and
    // nothing else, only for schedules of this account. (The L2 target also grants every version, `:*`.)
    const schedulerRole = new Role(scope, 'DueDateSweepRole', {
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(scope).account } },
      }),
      description: 'EventBridge Scheduler: invokes the due-date sweep',
    });
    schedulerRole.addToPolicy(
      new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [this.function.function.functionArn] }),
    );
    const minutes = props.interval.toMinutes();
    this.schedule = new CfnSchedule(scope, 'DueDateSweep', {
      description: 'Due-date reminders: due soon, overdue, escalated (contract section 10)',
      scheduleExpression: `rate(${minutes} ${minutes === 1 ? 'minute' : 'minutes'})`,
      flexibleTimeWindow: { mode: 'OFF' },
      state: 'ENABLED',
      target: {
        arn: this.function.function.functionArn,
        roleArn: schedulerRole.roleArn,
        // A run that fails is not retried: the next one, an interval later, finds the same queue.
        retryPolicy: { maximumRetryAttempts: 0 },
      },
    });
  }
}
