import { describe, expect, it } from 'vitest';
import { webhookFunctions } from '../../lib/http/routes';
import { attr } from '../../lib/store/table';
import { render, type Statement, synthesize } from './synth';

/**
 * Webhooks in AWS (contract section 9, docs/deploy.md): every published event reaches
 * deliverWebhooks through a rule and a queue; sweepWebhooks runs every minute; deliveries expire
 * by the table's TTL; neither function is in a VPC.
 */

const deployed = synthesize();
const { service } = deployed;
const resource = (construct: { node: { defaultChild?: unknown } }) => deployed.resources[deployed.id(construct)]!;
const queueId = deployed.id(service.webhookQueue);
const dlqId = deployed.id(service.webhookDeadLetterQueue);
const deliver = service.functions[webhookFunctions.deliver.handler]!;
const sweep = service.functions[webhookFunctions.sweep.handler]!;
const rules: Array<Record<string, any>> = deployed.ofType('AWS::Events::Rule').map(([, r]) => r.Properties);

describe('webhooks in AWS', () => {
  it('routes every event the service publishes (its source), and only those, to the webhook queue', () => {
    const rule = rules.find((r) => r.Targets.some((t: { Arn: unknown }) => render(t.Arn) === `${queueId}.Arn`))!;
    expect(rule.EventPattern).toEqual({ source: ['action-tracking'] });
    expect(render(rule.EventBusName)).toBe(deployed.id(service.eventBus));
    expect(render(rule.Targets[0].DeadLetterConfig.Arn)).toBe(`${dlqId}.Arn`);
    const custom = synthesize({ eventSource: 'plant.actions' }).ofType('AWS::Events::Rule');
    expect(custom.map(([, r]) => r.Properties.EventPattern)).toContainEqual({ source: ['plant.actions'] });
  });

  it('feeds the queue to deliverWebhooks, reporting failed items; the queue is encrypted and dead-letters', () => {
    const mapping = deployed
      .ofType('AWS::Lambda::EventSourceMapping')
      .map(([, m]) => m.Properties)
      .find((m) => render(m.EventSourceArn) === `${queueId}.Arn`)!;
    expect(render(mapping.FunctionName)).toBe(deployed.id(deliver.function));
    expect(mapping.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
    const queue = resource(service.webhookQueue).Properties;
    expect(queue.SqsManagedSseEnabled).toBe(true);
    expect(queue.VisibilityTimeout).toBe(6 * 30);
    expect(render(queue.RedrivePolicy.deadLetterTargetArn)).toBe(`${dlqId}.Arn`);
    const policies = deployed
      .ofType('AWS::SQS::QueuePolicy')
      .filter(([, p]) => p.Properties.Queues.map(render).includes(queueId))
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Statement[]);
    expect(policies).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
  });

  it('runs sweepWebhooks every minute, without retries of the invocation (the next minute is the retry)', () => {
    const rule = rules.find((r) => r.ScheduleExpression)!;
    expect(rule.ScheduleExpression).toBe('rate(1 minute)');
    expect(render(rule.Targets[0].Arn)).toBe(`${deployed.id(sweep.function)}.Arn`);
    expect(rule.Targets[0].RetryPolicy).toEqual({ MaximumRetryAttempts: 0 });
  });

  it('keeps the delivery functions out of any VPC, and expires deliveries by the table TTL attribute', () => {
    for (const fn of [deliver, sweep]) expect(resource(fn.function).Properties.VpcConfig).toBeUndefined();
    expect(resource(service.table).Properties.TimeToLiveSpecification).toEqual({
      AttributeName: attr.expiresAt,
      Enabled: true,
    });
  });
});
