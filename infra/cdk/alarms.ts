import { Duration } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Alarm, ComparisonOperator, type IMetric, MathExpression, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { type ITable, Operation } from 'aws-cdk-lib/aws-dynamodb';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import {
  ingestFunction,
  routes,
  streamFunction,
  sweepFunction,
  type TableAccess,
  webhookFunctions,
} from '../../lib/http/routes';
import type { ServiceFunction } from './service-function';

/**
 * The service's alarms (docs/operating.md): any 5xx, any function error or throttle, any table
 * throttle, anything dead-lettered, and change events published late. Built in the service's own
 * scope, so its logical IDs are the ones a deployed stack has (see `infra/cdk/api.ts`).
 */

const operation: Record<TableAccess, Operation> = {
  GetItem: Operation.GET_ITEM,
  PutItem: Operation.PUT_ITEM,
  UpdateItem: Operation.UPDATE_ITEM,
  DeleteItem: Operation.DELETE_ITEM,
  Query: Operation.QUERY,
  QueryTable: Operation.QUERY,
  BatchGetItem: Operation.BATCH_GET_ITEM,
  BatchWriteItem: Operation.BATCH_WRITE_ITEM,
};

/** The props of `ActionTrackingService` about its alarms. */
export interface AlarmOptions {
  /**
   * Where the alarms notify.
   *
   * @default - nowhere (the alarms are still visible in CloudWatch)
   */
  readonly alarmTopic?: ITopic;
}

export interface ServiceAlarmsProps extends AlarmOptions {
  readonly api: HttpApi;
  /** Every function, by handler name: each gets one alarm on its errors and throttles. */
  readonly functions: Readonly<Record<string, ServiceFunction>>;
  /** The service's table: throttled requests of the calls the functions make. */
  readonly table: ITable;
  /** Producer events that could not be ingested. */
  readonly deadLetterQueue: IQueue;
  /** Stream batches the event publisher gave up on. */
  readonly eventsDeadLetterQueue: IQueue;
  /** Published events whose webhook deliveries could not be stored. */
  readonly webhookDeadLetterQueue: IQueue;
  /** Exports whose runs kept failing (infra/cdk/transfer.ts). */
  readonly exportDeadLetterQueue: IQueue;
  /** Imports whose runs kept failing (infra/cdk/imports.ts). */
  readonly importDeadLetterQueue: IQueue;
}

export class ServiceAlarms {
  readonly alarms: Alarm[] = [];

  constructor(
    private readonly scope: Construct,
    props: ServiceAlarmsProps,
  ) {
    const fiveMinutes = { period: Duration.minutes(5), statistic: 'Sum' };
    this.alarm('Api5xx', props.api.metricServerError(fiveMinutes), 'The API answered 5xx.');
    // One alarm a function for its errors and throttles together: two a function took the stack
    // past CloudFormation's 500 resources once section 18's functions came. It keeps the logical ID
    // of the errors alarm, so a deployed stack updates that one and removes the throttles alarm.
    for (const [handler, fn] of Object.entries(props.functions)) {
      const failures = new MathExpression({
        expression: 'errors + throttles',
        usingMetrics: {
          errors: fn.function.metricErrors(fiveMinutes),
          throttles: fn.function.metricThrottles(fiveMinutes),
        },
        period: fiveMinutes.period,
        label: `${handler} errors and throttles`,
      });
      this.alarm(`${handler}Errors`, failures, `${handler} failed or was throttled.`);
    }
    const operations = new Set([
      ...routes.flatMap((r) => r.access),
      ...ingestFunction.access,
      ...sweepFunction.access,
      ...webhookFunctions.deliver.access,
    ]);
    this.alarm(
      'TableThrottles',
      props.table.metricThrottledRequestsForOperations({
        operations: [...new Set([...operations].map((access) => operation[access]))],
        period: Duration.minutes(5),
      }),
      'DynamoDB throttled requests to the action table.',
    );
    const waiting = (queue: IQueue) =>
      queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' });
    this.alarm(
      'DeadLetters',
      waiting(props.deadLetterQueue),
      'ActionRequested events could not be ingested; they wait in the dead-letter queue.',
    );
    this.alarm(
      'EventsDeadLetters',
      waiting(props.eventsDeadLetterQueue),
      'Change events could not be published; the stream records to replay wait in the events dead-letter queue.',
    );
    this.alarm(
      'WebhookDeadLetters',
      waiting(props.webhookDeadLetterQueue),
      'Published events could not be turned into webhook deliveries; they wait in the webhook dead-letter queue.',
    );
    this.alarm(
      'ExportDeadLetters',
      waiting(props.exportDeadLetterQueue),
      'Exports kept failing; their requests wait in the export dead-letter queue (the export shows running until it expires).',
    );
    this.alarm(
      'ImportDeadLetters',
      waiting(props.importDeadLetterQueue),
      'Imports kept failing; their requests wait in the import dead-letter queue (the import shows running until it expires).',
    );
    this.alarm(
      'EventsBehind',
      props.functions[streamFunction.handler]!.function.metric('IteratorAge', {
        period: Duration.minutes(5),
        statistic: 'Maximum',
      }),
      'Change events are published more than 5 minutes after their change.',
      5 * 60 * 1000,
    );
    if (props.alarmTopic) for (const alarm of this.alarms) alarm.addAlarmAction(new SnsAction(props.alarmTopic));
  }

  private alarm(id: string, metric: IMetric, description: string, threshold = 0): void {
    this.alarms.push(
      new Alarm(this.scope, `${id}Alarm`, {
        metric,
        threshold,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        alarmDescription: description,
      }),
    );
  }
}
