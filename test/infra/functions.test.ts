import { Duration } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { evidenceSettingsReaders } from '../../lib/http/evidence-routes';
import { exportWorker } from '../../lib/http/export-routes';
import { importFunction } from '../../lib/http/import-routes';
import {
  EDGE_ACCESS,
  fallbackRoute,
  ingestFunction,
  type PostingsAccess,
  routes,
  scanResultFunction,
  streamFunction,
  sweepFunction,
  type TableAccess,
  webhookFunctions,
} from '../../lib/http/routes';
import { indexList } from '../../lib/store/indexes';
import { render, statementsOfRole, synthesize } from './synth';

const deployed = synthesize();
const table = `${deployed.id(deployed.service.table)}.Arn`;
const postingsTable = `${deployed.id(deployed.service.postingsTable)}.Arn`;
const bus = `${deployed.id(deployed.service.eventBus)}.Arn`;
const queue = `${deployed.id(deployed.service.ingestQueue)}.Arn`;

const stream = `${deployed.id(deployed.service.table)}.StreamArn`;
const eventsQueue = `${deployed.id(deployed.service.eventsDeadLetterQueue)}.Arn`;
const webhookQueue = `${deployed.id(deployed.service.webhookQueue)}.Arn`;
const exportQueue = `${deployed.id(deployed.service.transfer.queue)}.Arn`;
/** Asking for an export and handing one on put an event of the exports source (infra/cdk/transfer.ts). */
const exportPublishers = ['createExport', exportWorker.handler];

/**
 * What each handler is declared to need, from lib/http/routes.ts (an authenticated route also updates
 * its caller's quota window); only the stream consumer publishes, and `createImport` puts the
 * `ImportQueued` event that reaches the import worker's queue (infra/cdk/imports.ts).
 */
const declared = new Map<
  string,
  { access: readonly TableAccess[]; publishes: boolean; postings?: readonly PostingsAccess[] }
>([
  ...routes.map(
    (r) =>
      [
        r.handler,
        {
          access: r.public ? r.access : [...new Set([...r.access, ...EDGE_ACCESS])],
          publishes: r.handler === 'createImport' || exportPublishers.includes(r.handler),
          postings: r.postings,
        },
      ] as const,
  ),
  [fallbackRoute.handler, { access: [], publishes: false }],
  [ingestFunction.handler, { access: ingestFunction.access, publishes: false }],
  [streamFunction.handler, { access: streamFunction.access, publishes: true, postings: streamFunction.postings }],
  [sweepFunction.handler, { access: sweepFunction.access, publishes: false }],
  [scanResultFunction.handler, { access: scanResultFunction.access, publishes: false }],
  [webhookFunctions.deliver.handler, { access: webhookFunctions.deliver.access, publishes: false }],
  [webhookFunctions.sweep.handler, { access: webhookFunctions.sweep.access, publishes: false }],
  // The import worker publishes its notices to assignees (ActionsImported), for the notifier.
  [importFunction.handler, { access: importFunction.access, publishes: true }],
  [exportWorker.handler, { access: exportWorker.access, publishes: true, postings: exportWorker.postings }],
]);

const functionOf = (handler: string) => {
  const fn = deployed.service.functions[handler];
  if (!fn) throw new Error(`no function for ${handler}`);
  return { fn, resource: deployed.resources[deployed.id(fn.function)]!, roleId: deployed.id(fn.role) };
};

/** resource -> actions allowed on it, for one function's role. */
function grants(handler: string): Map<string, Set<string>> {
  const byResource = new Map<string, Set<string>>();
  for (const statement of statementsOfRole(deployed, functionOf(handler).roleId)) {
    expect(statement.effect).toBe('Allow');
    for (const resource of statement.resources) {
      const actions = byResource.get(resource) ?? new Set();
      for (const action of statement.actions) actions.add(action);
      byResource.set(resource, actions);
    }
  }
  return byResource;
}

const dynamoGrants = (handler: string) =>
  new Map(
    [...grants(handler)]
      .map(([resource, actions]) => [resource, [...actions].filter((a) => a.startsWith('dynamodb:')).sort()] as const)
      .filter(([, actions]) => actions.length > 0),
  );

const partition = <T>(items: T[], test: (item: T) => boolean): [T[], T[]] => [
  items.filter(test),
  items.filter((item) => !test(item)),
];

describe('the functions', () => {
  it('are one per handler of lib/http/routes.ts, the fallback, ingest, the stream consumer, the sweep, scan results and webhook delivery', () => {
    expect(Object.keys(deployed.service.functions).sort()).toEqual([...declared.keys()].sort());
    const [ours, others] = partition(deployed.ofType('AWS::Lambda::Function'), ([, fn]) =>
      String(fn.Properties.Description).startsWith('functions/'),
    );
    expect(ours).toHaveLength(declared.size);
    // The one other: aws-cdk-lib's copier of the console's files, with the console's own role.
    expect(others.map(([, fn]) => render(fn.Properties.Role))).toEqual([
      `${deployed.id(deployed.service.console!.node.findChild('DeploymentRole') as never)}.Arn`,
    ]);
  });

  it.each([...declared.keys()])(
    '%s runs functions/<handler>.ts on Node.js 22, arm64, traced, with its logs',
    (handler) => {
      const { resource, fn } = functionOf(handler);
      expect(resource.Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        TracingConfig: { Mode: 'Active' },
        Description: `functions/${handler}.ts`,
        LoggingConfig: { LogGroup: { Ref: deployed.id(fn.logGroup) } },
      });
      expect(deployed.resources[deployed.id(fn.logGroup)]!.Properties.RetentionInDays).toBe(30);
      const timeout =
        {
          [ingestFunction.handler]: 30,
          [streamFunction.handler]: 60,
          [sweepFunction.handler]: 60,
          [webhookFunctions.deliver.handler]: 30,
          [webhookFunctions.sweep.handler]: 75,
          [importFunction.handler]: 900,
          // Lambda's longest: an XLSX export is written in one run (infra/cdk/transfer.ts).
          [exportWorker.handler]: 900,
        }[handler] ?? 10;
      expect(resource.Properties.Timeout).toBe(timeout);
    },
  );

  it.each([...declared.keys()])('%s is configured exactly as lib/config.ts reads it, no local settings', (handler) => {
    const variables = functionOf(handler).resource.Properties.Environment.Variables as Record<string, unknown>;
    expect(variables.NODE_OPTIONS).toBe('--enable-source-maps');
    if (handler === streamFunction.handler) {
      // The publisher puts events on the bus and indexes for search, which reads the configuration:
      // without the tables' names every batch failed on its first posting (found moving postings).
      expect(render(variables.EVENT_BUS_NAME)).toBe(deployed.id(deployed.service.eventBus as never));
      expect(variables.EVENT_SOURCE).toBe('action-tracking');
      expect(render(variables.TABLE_NAME)).toBe(deployed.id(deployed.service.table as never));
      expect(render(variables.POSTINGS_TABLE_NAME)).toBe(deployed.id(deployed.service.postingsTable as never));
      expect(variables.USER_POOL_ID).toBeDefined();
      return;
    }
    // Evidence (contract section 15): its functions and the edit, which checks EVIDENCE_REQUIRED_STATUSES.
    const evidence =
      routes.some((r) => r.handler === handler && r.storage) ||
      evidenceSettingsReaders.includes(handler) ||
      handler === importFunction.handler;
    expect(Object.keys(variables).sort()).toEqual(
      [
        'ACCESS',
        'ADMIN_GROUP',
        'CLOSED_STATUSES',
        'DUE_SOON_HOURS',
        'ESCALATE_AFTER_HOURS',
        'NODE_OPTIONS',
        'POSTINGS_TABLE_NAME',
        'REMINDER_INTERVAL_SECONDS',
        'TABLE_NAME',
        'USER_POOL_CLIENT_ID',
        'USER_POOL_ID',
        ...(evidence ? ['EVIDENCE_BUCKET', 'MALWARE_SCAN', 'SERVE_UNSCANNED'] : []),
        // The scan results it records are this bucket's only.
        ...(handler === scanResultFunction.handler ? ['EVIDENCE_BUCKET'] : []),
        // It hands each import to the worker through the bus (infra/cdk/imports.ts).
        ...(handler === 'createImport' ? ['EVENT_BUS_NAME', 'EVENT_SOURCE'] : []),
        // The import worker publishes its notices to assignees there, for the notifier.
        ...(handler === importFunction.handler ? ['EVENT_BUS_NAME', 'EVENT_SOURCE'] : []),
        // Exports: the bus their events go on; the worker writes the bucket and links rows to the console.
        ...(exportPublishers.includes(handler) ? ['EVENT_BUS_NAME', 'EVENT_SOURCE'] : []),
        ...(handler === exportWorker.handler ? ['EVIDENCE_BUCKET', 'CONSOLE_URL'] : []),
      ].sort(),
    );
    expect(variables).toMatchObject({
      ACCESS: 'open',
      ADMIN_GROUP: 'action-admins',
      CLOSED_STATUSES: '3,4',
      DUE_SOON_HOURS: '24',
      ESCALATE_AFTER_HOURS: '168',
      REMINDER_INTERVAL_SECONDS: '60',
    });
    expect(render(variables.TABLE_NAME)).toBe(deployed.id(deployed.service.table as never));
    expect(render(variables.POSTINGS_TABLE_NAME)).toBe(deployed.id(deployed.service.postingsTable as never));
    expect(render(variables.USER_POOL_ID)).toBe(deployed.id(deployed.service.userPool as never));
    // ID tokens of the service's client and of the console's.
    expect(render(variables.USER_POOL_CLIENT_ID)).toBe(
      `${deployed.id(deployed.service.userPoolClient as never)},${deployed.id(deployed.service.console!.client as never)}`,
    );
  });
});

describe('least privilege', () => {
  it.each([...declared])(
    '%s may make exactly its declared DynamoDB calls, Query on the table and its indexes',
    (handler, need) => {
      const expected = new Map<string, string[]>();
      const onTable = need.access.filter((a) => a !== 'Query' && a !== 'QueryTable').map((a) => `dynamodb:${a}`);
      if (need.access.includes('Query') || need.access.includes('QueryTable')) onTable.push('dynamodb:Query');
      if (onTable.length > 0) expected.set(table, onTable.sort());
      // Search: the list queries the postings' table, the stream consumer writes it; nothing else touches it.
      if (need.postings?.length) expected.set(postingsTable, need.postings.map((a) => `dynamodb:${a}`).sort());
      if (need.access.includes('Query')) {
        for (const index of indexList) expected.set(`${table}/index/${index.name}`, ['dynamodb:Query']);
      }
      // The sweep queries one index, its queue, and nothing else.
      if (handler === sweepFunction.handler)
        expected.set(`${table}/index/${sweepFunction.queries}`, ['dynamodb:Query']);
      if (handler === streamFunction.handler) {
        // The event source mapping reads the stream with the function's role; on the table, only
        // the pending marks of search (read, removed), and batches of postings on the postings' table.
        expect(dynamoGrants(handler)).toEqual(
          new Map([
            ...expected,
            ['*', ['dynamodb:ListStreams']],
            [stream, ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator']],
          ]),
        );
        return;
      }
      expect(dynamoGrants(handler)).toEqual(expected);
    },
  );

  it.each([...declared])('%s may publish events only if it publishes, and only to the bus', (handler, need) => {
    const publishing = [...grants(handler)].filter(([, actions]) => [...actions].some((a) => a.startsWith('events:')));
    expect(publishing).toEqual(need.publishes ? [[bus, new Set(['events:PutEvents'])]] : []);
  });

  it.each([...declared.keys()])(
    '%s may otherwise only write its own logs and traces (and ingest read its queue)',
    (handler) => {
      const { fn } = functionOf(handler);
      const others = [...grants(handler)].filter(
        ([resource]) =>
          resource !== table &&
          !resource.startsWith(`${table}/`) &&
          resource !== postingsTable &&
          resource !== bus &&
          resource !== stream,
      );
      const expected = new Map<string, Set<string>>([
        [`${deployed.id(fn.logGroup)}.Arn`, new Set(['logs:CreateLogStream', 'logs:PutLogEvents'])],
        ['*', new Set(['xray:PutTraceSegments', 'xray:PutTelemetryRecords'])],
      ]);
      if (handler === streamFunction.handler) {
        expected.set(eventsQueue, new Set(['sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl']));
        expected.get('*')?.add('dynamodb:ListStreams');
      }
      const queues: Record<string, string> = {
        [ingestFunction.handler]: queue,
        [webhookFunctions.deliver.handler]: webhookQueue,
        [importFunction.handler]: `${deployed.id(deployed.service.imports.queue)}.Arn`,
        [exportWorker.handler]: exportQueue,
      };
      if (queues[handler]) {
        expected.set(
          queues[handler] as string,
          new Set([
            'sqs:ReceiveMessage',
            'sqs:ChangeMessageVisibility',
            'sqs:GetQueueUrl',
            'sqs:DeleteMessage',
            'sqs:GetQueueAttributes',
          ]),
        );
      }
      // Evidence: the calls its route lists on the bucket, each on its prefix (test/infra/evidence.test.ts).
      const bucket = deployed.id(deployed.service.evidence.bucket);
      const storage = [...routes, importFunction, exportWorker].find((r) => r.handler === handler)?.storage;
      for (const { prefix, actions } of storage ?? []) expected.set(`${bucket}.Arn/${prefix}*`, new Set(actions));
      expect(new Map(others)).toEqual(expected);
    },
  );

  it('the list function cannot write, the create function cannot query or scan', () => {
    const list = [...dynamoGrants('listActions').values()].flat();
    const create = [...dynamoGrants('createAction').values()].flat();
    expect(list).toContain('dynamodb:Query');
    expect(list).not.toContain('dynamodb:PutItem');
    // The edge reads the caller's grants (Query on the table's own partitions), never an index.
    expect(create).toEqual(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query', 'dynamodb:UpdateItem']);
    expect([...dynamoGrants('createAction').keys()].some((resource) => resource.includes('/index/'))).toBe(false);
    expect(create).not.toContain('dynamodb:Scan');
  });

  it('no policy in the stack allows Scan or any DynamoDB wildcard; only deleteComment, deleteGrant, the webhook functions, the stream consumer (search postings) and the notification preferences (the digest roster) may delete an item', () => {
    const actions = deployed
      .ofType('AWS::IAM::Policy')
      .flatMap(([, policy]) =>
        policy.Properties.PolicyDocument.Statement.flatMap((s: { Action: unknown }) => s.Action),
      );
    expect(actions.filter((a: string) => a.startsWith('dynamodb:'))).not.toHaveLength(0);
    for (const forbidden of ['dynamodb:Scan', 'dynamodb:*', '*']) {
      expect(actions).not.toContain(forbidden);
    }
    const deleters = [...declared.keys()].filter((h) =>
      [...dynamoGrants(h).values()].flat().includes('dynamodb:DeleteItem'),
    );
    expect(deleters.sort()).toEqual([
      // Its transaction deletes the action's entry in reference order.
      'deleteAction',
      'deleteComment',
      'deleteGrant',
      'deleteWebhook',
      'deliverWebhooks',
      // Notification preferences: leaving the daily digest removes the person's roster entry.
      'getNotificationPreferences',
      // The import worker gives back its claim on an email that failed to send, as the notifier does.
      'importActions',
      'publishEvents',
      'sweepWebhooks',
      'unsubscribeNotifications',
      'updateNotificationPreferences',
    ]);
    for (const [, role] of deployed.ofType('AWS::IAM::Role')) expect(role.Properties.ManagedPolicyArns).toBeUndefined();
  });
});

describe('the due-date sweep', () => {
  it('runs every minute from an EventBridge Scheduler schedule, which may invoke only the sweep', () => {
    const schedules = deployed.ofType('AWS::Scheduler::Schedule');
    expect(schedules).toHaveLength(1);
    const [, schedule] = schedules[0]!;
    expect(schedule.Properties.ScheduleExpression).toBe('rate(1 minute)');
    expect(schedule.Properties.State).toBe('ENABLED');
    const sweep = functionOf(sweepFunction.handler);
    expect(render(schedule.Properties.Target.Arn)).toBe(`${deployed.id(sweep.fn.function)}.Arn`);
    expect(schedule.Properties.Target.RetryPolicy).toMatchObject({ MaximumRetryAttempts: 0 });
    // The scheduler's own role may invoke the sweep and nothing else.
    const roleId = render(schedule.Properties.Target.RoleArn).replace(/\.Arn$/, '');
    const statements = statementsOfRole(deployed, roleId);
    expect(statements.flatMap((s) => s.actions)).toEqual(['lambda:InvokeFunction']);
    const resources = statements.flatMap((s) => s.resources);
    expect(resources.length).toBeGreaterThan(0);
    for (const resource of resources) expect(resource).toContain(deployed.id(sweep.fn.function));
  });

  it('takes the due-date settings as props, for every function', () => {
    const custom = synthesize({
      closedStatuses: [3, 4, 6],
      dueSoonHours: 12.5,
      escalateAfterHours: 72,
      reminderInterval: Duration.minutes(5),
    });
    const [, schedule] = custom.ofType('AWS::Scheduler::Schedule')[0]!;
    expect(schedule.Properties.ScheduleExpression).toBe('rate(5 minutes)');
    for (const [, fn] of custom.ofType('AWS::Lambda::Function')) {
      const variables = fn.Properties.Environment.Variables as Record<string, unknown>;
      if (!variables.TABLE_NAME) continue;
      expect(variables).toMatchObject({
        CLOSED_STATUSES: '3,4,6',
        DUE_SOON_HOURS: '12.5',
        ESCALATE_AFTER_HOURS: '72',
        REMINDER_INTERVAL_SECONDS: '300',
      });
    }
    expect(() => synthesize({ reminderInterval: Duration.seconds(30) })).toThrow(/whole number of minutes/);
  });
});
