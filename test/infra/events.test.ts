import { Topic } from 'aws-cdk-lib/aws-sns';
import { describe, expect, it } from 'vitest';
import { fallbackRoute, ingestFunction, routes, streamFunction } from '../../lib/http/routes';
import { list, render, type Statement, statementsOfRole, synthesize } from './synth';

const deployed = synthesize();
const { service } = deployed;
const resource = (construct: { node: { defaultChild?: unknown } }) => deployed.resources[deployed.id(construct)]!;
const busId = deployed.id(service.eventBus);
const queueId = deployed.id(service.ingestQueue);
const dlqId = deployed.id(service.deadLetterQueue);
const ingest = service.functions[ingestFunction.handler]!;
const publisher = service.functions[streamFunction.handler]!;
const eventsDlqId = deployed.id(service.eventsDeadLetterQueue);
const mappingOf = (source: string) =>
  deployed
    .ofType('AWS::Lambda::EventSourceMapping')
    .map(([, m]) => m.Properties)
    .find((m) => render(m.EventSourceArn) === source)!;
/** The ingest rule: the one that matches ActionRequested (the webhook rules are in webhooks.test.ts). */
const ingestRule = (rules: Array<[string, ReturnType<typeof resource>]>) =>
  rules.find(([, r]) => r.Properties.EventPattern?.['detail-type']?.includes('ActionRequested'))!;
const [ruleId, rule] = ingestRule(deployed.ofType('AWS::Events::Rule'));

const queuePolicy = (queue: string) =>
  deployed
    .ofType('AWS::SQS::QueuePolicy')
    .filter(([, p]) => p.Properties.Queues.map(render).includes(queue))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Statement[]);

describe('ingest: ActionRequested events from the bus to ingestActions', () => {
  it('has a bus of its own, not the account default bus', () => {
    expect(deployed.ofType('AWS::Events::EventBus')).toHaveLength(1);
    expect(resource(service.eventBus).Properties.Name).toMatch(/^ActionTracking/);
  });

  it('routes exactly the ActionRequested events of that bus to the ingest queue', () => {
    // On this bus (the malware scan results' rule is on the account's default bus: evidence.test.ts).
    const onBus = deployed
      .ofType('AWS::Events::Rule')
      .filter(
        ([, r]) =>
          r.Properties.EventPattern?.['detail-type'] &&
          r.Properties.EventBusName &&
          render(r.Properties.EventBusName) === busId,
      );
    // Beside it, the exports' and imports' own rules: each their own source only
    // (infra/cdk/transfer.ts, infra/cdk/imports.ts, test/infra/functions.test.ts).
    const [ingestOnBus, ...others] = onBus.sort(([, a]) => (a.Properties.EventPattern.source ? 1 : -1));
    const patterns = others.map(([, r]) => r.Properties.EventPattern);
    expect(patterns).toHaveLength(2);
    expect(patterns).toEqual(
      expect.arrayContaining([
        { source: ['action-tracking.exports'], 'detail-type': ['ExportRequested'] },
        { source: ['action-tracking.imports'], 'detail-type': ['ImportQueued'] },
      ]),
    );
    expect(ingestOnBus?.[0]).toBe(ruleId);
    expect(render(rule.Properties.EventBusName)).toBe(busId);
    expect(rule.Properties.EventPattern).toEqual({ 'detail-type': ['ActionRequested'] });
    expect(rule.Properties.State).toBe('ENABLED');
    expect(rule.Properties.Targets).toHaveLength(1);
    expect(render(rule.Properties.Targets[0].Arn)).toBe(`${queueId}.Arn`);
    expect(render(rule.Properties.Targets[0].DeadLetterConfig.Arn)).toBe(`${dlqId}.Arn`);
  });

  it('lets only that rule send to the queue and the dead-letter queue, over TLS', () => {
    for (const queue of [queueId, dlqId]) {
      const statements = queuePolicy(queue);
      const sends = statements.filter((s) => s.Effect === 'Allow');
      expect(sends).toHaveLength(1);
      expect(sends[0]).toMatchObject({ Principal: { Service: 'events.amazonaws.com' } });
      expect(list(sends[0]!.Action)).toContain('sqs:SendMessage');
      expect(render((sends[0]!.Condition as Record<string, Record<string, unknown>>).ArnEquals!['aws:SourceArn'])).toBe(
        `${ruleId}.Arn`,
      );
      expect(statements).toContainEqual(
        expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
      );
    }
  });

  it('encrypts both queues and dead-letters a message after 3 receives', () => {
    const queue = resource(service.ingestQueue).Properties;
    const dlq = resource(service.deadLetterQueue).Properties;
    expect(queue.SqsManagedSseEnabled).toBe(true);
    expect(dlq.SqsManagedSseEnabled).toBe(true);
    expect(queue.RedrivePolicy.maxReceiveCount).toBe(3);
    expect(render(queue.RedrivePolicy.deadLetterTargetArn)).toBe(`${dlqId}.Arn`);
    expect(dlq.MessageRetentionPeriod).toBe(14 * 24 * 3600);
  });

  it('hides a batch for at least six times the ingest timeout', () => {
    const timeout = resource(ingest.function).Properties.Timeout as number;
    expect(resource(service.ingestQueue).Properties.VisibilityTimeout).toBeGreaterThanOrEqual(6 * timeout);
  });

  it('feeds the queue to ingestActions in batches that report their failed items', () => {
    // The ingest queue, the table stream, the webhook queue, the export queue and the import queue.
    expect(deployed.ofType('AWS::Lambda::EventSourceMapping')).toHaveLength(5);
    const mapping = mappingOf(`${queueId}.Arn`);
    expect(render(mapping.FunctionName)).toBe(deployed.id(ingest.function));
    expect(render(mapping.EventSourceArn)).toBe(`${queueId}.Arn`);
    expect(mapping.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
    expect(mapping.BatchSize).toBe(10);
  });

  it('alarms as soon as anything waits in any dead-letter queue', () => {
    const alarms = deployed
      .ofType('AWS::CloudWatch::Alarm')
      .map(([, a]) => a.Properties)
      .filter((a) => a.Namespace === 'AWS/SQS');
    expect(alarms).toHaveLength(5);
    for (const alarm of alarms) {
      expect(alarm).toMatchObject({
        MetricName: 'ApproximateNumberOfMessagesVisible',
        ComparisonOperator: 'GreaterThanThreshold',
        Threshold: 0,
        EvaluationPeriods: 1,
      });
    }
    expect(alarms.flatMap((a) => a.Dimensions.map((d: { Value: unknown }) => render(d.Value))).sort()).toEqual(
      [
        `${dlqId}.QueueName`,
        `${eventsDlqId}.QueueName`,
        `${deployed.id(service.webhookDeadLetterQueue)}.QueueName`,
        `${deployed.id(service.transfer.deadLetterQueue)}.QueueName`,
        `${deployed.id(service.imports.deadLetterQueue)}.QueueName`,
      ].sort(),
    );
  });

  it('takes producer events from the sources it is told to, when told', () => {
    const limited = synthesize({ producerSources: ['sap.maintenance', 'inspections'] });
    const [, only] = ingestRule(limited.ofType('AWS::Events::Rule'));
    expect(only.Properties.EventPattern).toEqual({
      'detail-type': ['ActionRequested'],
      source: ['sap.maintenance', 'inspections'],
    });
  });
});

describe('publishing: events leave from the table stream', () => {
  const table = resource(service.table).Properties;
  const mapping = mappingOf(`${deployed.id(service.table)}.StreamArn`);

  it('the table streams new and old images', () => {
    expect(table.StreamSpecification).toEqual({ StreamViewType: 'NEW_AND_OLD_IMAGES' });
  });

  it('the stream feeds publishEvents: in order, failures reported per record, split, retried, then dead-lettered', () => {
    expect(render(mapping.FunctionName)).toBe(deployed.id(publisher.function));
    expect(mapping).toMatchObject({
      StartingPosition: 'TRIM_HORIZON',
      ParallelizationFactor: 1,
      BisectBatchOnFunctionError: true,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      MaximumRetryAttempts: 10,
      MaximumRecordAgeInSeconds: 24 * 3600,
    });
    expect(render(mapping.DestinationConfig.OnFailure.Destination)).toBe(`${eventsDlqId}.Arn`);
    expect(resource(service.eventsDeadLetterQueue).Properties.SqsManagedSseEnabled).toBe(true);
  });

  it('only new history entries reach the function: the action, counter and comment items are state, not events', () => {
    const patterns = mapping.FilterCriteria.Filters.map((f: { Pattern: string }) => JSON.parse(f.Pattern));
    expect(patterns).toEqual([{ eventName: ['INSERT'], dynamodb: { Keys: { sk: { S: [{ prefix: 'h#' }] } } } }]);
  });

  it('only the stream consumer may put events, and only on the bus; no request path can but asking for an export or an import (each its own source)', () => {
    const handlers = [...routes.map((r) => r.handler), fallbackRoute.handler, ingestFunction.handler];
    for (const handler of [...handlers, streamFunction.handler]) {
      const role = deployed.id(service.functions[handler]!.role);
      const puts = statementsOfRole(deployed, role).filter((s) => s.actions.some((a) => a.startsWith('events:')));
      expect(puts, handler).toEqual(
        handler === streamFunction.handler || handler === 'createExport' || handler === 'createImport'
          ? [{ effect: 'Allow', actions: ['events:PutEvents'], resources: [`${busId}.Arn`] }]
          : [],
      );
    }
  });

  it('alarms when events fall more than five minutes behind their changes', () => {
    const behind = deployed
      .ofType('AWS::CloudWatch::Alarm')
      .map(([, a]) => a.Properties)
      .find((a) => a.MetricName === 'IteratorAge');
    expect(behind).toMatchObject({
      Threshold: 300_000,
      ComparisonOperator: 'GreaterThanThreshold',
      Statistic: 'Maximum',
    });
    expect(behind!.Dimensions.map((d: { Value: unknown }) => render(d.Value))).toEqual([
      deployed.id(publisher.function),
    ]);
  });
});

describe('alarms', () => {
  const alarms = deployed.ofType('AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
  const metricsOf = (alarm: (typeof alarms)[number]): { namespace: string; name: string; dimensions: string[] }[] =>
    alarm.Metrics
      ? alarm.Metrics.filter((m: { MetricStat?: unknown }) => m.MetricStat).map(
          (m: { MetricStat: { Metric: { Namespace: string; MetricName: string; Dimensions: unknown[] } } }) => ({
            namespace: m.MetricStat.Metric.Namespace,
            name: m.MetricStat.Metric.MetricName,
            dimensions: m.MetricStat.Metric.Dimensions.map(
              (d) => `${(d as { Name: string }).Name}=${render((d as { Value: unknown }).Value)}`,
            ),
          }),
        )
      : [
          {
            namespace: alarm.Namespace,
            name: alarm.MetricName,
            dimensions: alarm.Dimensions.map((d: { Name: string; Value: unknown }) => `${d.Name}=${render(d.Value)}`),
          },
        ];

  it('fire on any 5xx of the API', () => {
    const api = deployed.id(service.api);
    expect(alarms.flatMap(metricsOf)).toContainEqual({
      namespace: 'AWS/ApiGateway',
      name: '5xx',
      dimensions: [`ApiId=${api}`],
    });
  });

  it.each(Object.keys(service.functions))('fire on any error or throttle of %s', (handler) => {
    const fn = deployed.id(service.functions[handler]!.function);
    for (const name of ['Errors', 'Throttles']) {
      expect(alarms.flatMap(metricsOf)).toContainEqual({
        namespace: 'AWS/Lambda',
        name,
        dimensions: [`FunctionName=${fn}`],
      });
    }
  });

  it('fire on any throttled DynamoDB request of an operation the service makes', () => {
    const table = deployed.id(service.table);
    const throttled = alarms.flatMap(metricsOf).filter((m) => m.namespace === 'AWS/DynamoDB');
    // `QueryTable` is DynamoDB's Query on the table alone: one operation, one alarm.
    const operations = new Set(
      [...routes.flatMap((r) => r.access), ...ingestFunction.access].map((a) => (a === 'QueryTable' ? 'Query' : a)),
    );
    expect(throttled.map((m) => m.name)).toEqual([...operations].map(() => 'ThrottledRequests'));
    expect(throttled.map((m) => m.dimensions).sort()).toEqual(
      [...operations].map((operation) => [`Operation=${operation}`, `TableName=${table}`]).sort(),
    );
  });

  it('all trip on the first breaching datapoint, and notify a topic when given one', () => {
    for (const alarm of alarms) {
      expect(alarm).toMatchObject({
        Threshold: alarm.MetricName === 'IteratorAge' ? 300_000 : 0,
        ComparisonOperator: 'GreaterThanThreshold',
        TreatMissingData: 'notBreaching',
      });
      expect(alarm.AlarmActions).toBeUndefined();
    }
    const notifying = synthesize((stack) => ({ alarmTopic: new Topic(stack, 'Oncall') }));
    const topic = notifying.stack.getLogicalId(notifying.stack.node.findChild('Oncall').node.defaultChild as never);
    const notified = notifying.ofType('AWS::CloudWatch::Alarm').map(([, a]) => a.Properties.AlarmActions.map(render));
    expect(notified).toHaveLength(alarms.length);
    for (const actions of notified) expect(actions).toEqual([topic]);
  });
});
