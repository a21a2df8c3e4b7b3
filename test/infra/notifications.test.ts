import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { notificationFunctions } from '../../lib/http/notification-routes';
import { render, type Statement, synthesize } from './synth';

/**
 * Email to people in AWS (contract section 16): off without `notificationsFrom`; with it, every
 * published event reaches the notifier through a rule and a queue, the notifier alone may
 * `ses:SendEmail`, only as the deployment's identity, and bounces and complaints come back
 * through the configuration set to an encrypted topic.
 */

const FROM = 'Actions <actions@example.com>';
const on = synthesize({ notificationsFrom: FROM });
const off = synthesize();
const statementsOf = (deployed: typeof on, roleId: string): Statement[] =>
  deployed
    .ofType('AWS::IAM::Policy')
    .filter(([, p]) => p.Properties.Roles.map(render).includes(roleId))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Statement[]);
const sends = (statement: Statement) => [statement.Action].flat().some((a) => String(a).startsWith('ses:'));

describe('notifications in AWS', () => {
  it('are off without notificationsFrom: no notifier, no SES permission, no configuration set', () => {
    expect(off.service.notifications).toBeUndefined();
    expect(off.service.functions[notificationFunctions.notify.handler]).toBeUndefined();
    expect(off.ofType('AWS::SES::ConfigurationSet')).toEqual([]);
    expect(
      off
        .ofType('AWS::IAM::Policy')
        .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Statement[])
        .filter(sends),
    ).toEqual([]);
  });

  it('let the notifier alone send, only as the identity and through its configuration set', () => {
    const notifier = on.service.functions[notificationFunctions.notify.handler]!;
    const roleId = on.id(notifier.role);
    const granted = on
      .ofType('AWS::IAM::Policy')
      .flatMap(([, p]) =>
        (p.Properties.PolicyDocument.Statement as Statement[])
          .filter(sends)
          .map((s) => ({ roles: p.Properties.Roles.map(render), s })),
      );
    // The import worker included: it tells assignees through the notifier (section 18).
    expect(granted.map((g) => g.roles)).toEqual([[roleId]]);
    const statement = statementsOf(on, roleId).find(sends)!;
    expect(statement.Action).toBe('ses:SendEmail');
    const resources = [statement.Resource].flat().map((r) => JSON.stringify(r));
    expect(resources.some((r) => r.includes(':identity/example.com'))).toBe(true);
    expect(resources.some((r) => r.includes(':configuration-set/'))).toBe(true);
    expect(resources.some((r) => r.includes('*'))).toBe(false);
    const env = on.resources[on.id(notifier.function)]!.Properties.Environment.Variables;
    expect(env.NOTIFICATIONS_FROM).toBe(FROM);
    expect(env.CONSOLE_URL).toBeDefined();
    expect(env.SES_CONFIGURATION_SET).toBeDefined();
    const worker = on.resources[on.id(on.service.functions.importActions!.function)]!.Properties.Environment.Variables;
    expect(worker.NOTIFICATIONS_FROM).toBeUndefined();
  });

  it("hand an import's notices to assignees (its own source, ActionsImported only) to the notifier's queue", () => {
    const queueId = on.id(on.service.notifications!.queue);
    const patterns = on
      .ofType('AWS::Events::Rule')
      .map(([, r]) => r.Properties)
      .filter((r) => (r.Targets ?? []).some((t: { Arn: unknown }) => render(t.Arn) === `${queueId}.Arn`))
      .map((r) => r.EventPattern);
    expect(patterns).toEqual(
      expect.arrayContaining([{ source: ['action-tracking.imports'], 'detail-type': ['ActionsImported'] }]),
    );
    const puts = statementsOf(on, on.id(on.service.functions.importActions!.role)).filter((s) =>
      [s.Action].flat().includes('events:PutEvents'),
    );
    expect(puts).toHaveLength(1);
    expect(puts[0]!.Condition).toEqual({ StringEquals: { 'events:source': 'action-tracking.imports' } });
  });

  it('feed every published event to the notifier through a queue that reports failed items', () => {
    const queueId = on.id(on.service.notifications!.queue);
    const rule = on
      .ofType('AWS::Events::Rule')
      .map(([, r]) => r.Properties)
      .find(
        (r) =>
          (r.Targets ?? []).some((t: { Arn: unknown }) => render(t.Arn) === `${queueId}.Arn`) &&
          !r.EventPattern['detail-type'],
      )!;
    expect(rule.EventPattern).toEqual({ source: ['action-tracking'] });
    const mapping = on
      .ofType('AWS::Lambda::EventSourceMapping')
      .map(([, m]) => m.Properties)
      .find((m) => render(m.EventSourceArn) === `${queueId}.Arn`)!;
    expect(mapping.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
    const digests = on
      .ofType('AWS::Events::Rule')
      .map(([, r]) => r.Properties)
      .find((r) => r.Description?.startsWith('Sends the daily digests'))!;
    expect(digests.ScheduleExpression).toBe('rate(1 minute)');
  });

  it('report bounces and complaints through the configuration set to an encrypted topic', () => {
    const [[, destination]] = on.ofType('AWS::SES::ConfigurationSetEventDestination') as [[string, any]];
    expect(destination.Properties.EventDestination.MatchingEventTypes).toEqual(['bounce', 'complaint']);
    const [[, topic]] = on.ofType('AWS::SNS::Topic') as [[string, any]];
    expect(topic.Properties.KmsMasterKeyId).toBeDefined();
  });

  it('are cdk-nag clean (AwsSolutions)', () => {
    const violations = new AwsSolutionsChecks().validateScope(on.stack).violations;
    expect(
      violations.map((v) => `${v.ruleName} ${v.violatingResources.map((r) => r.constructPath).join(',')}`),
    ).toEqual([]);
  });
});
