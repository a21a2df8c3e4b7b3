import { describe, expect, it } from 'vitest';
import { fallbackRoute, routes } from '../../lib/http/routes';
import { synthesize } from './synth';

/**
 * Issue 23: the construct's cost and abuse settings. Quotas and the list budget reach every
 * function through its environment; the public routes have throttles of their own; reserved
 * concurrency is off unless asked for; quota windows expire through the table's TTL.
 */

const publicKeys = [...routes.filter((r) => r.public).map((r) => `${r.method} ${r.path}`), '$default'];
const stageOf = (deployed: ReturnType<typeof synthesize>) => {
  const [[, stage]] = deployed.ofType('AWS::ApiGatewayV2::Stage') as unknown as [[string, { Properties: any }]];
  return stage.Properties;
};
const functionResources = (deployed: ReturnType<typeof synthesize>) =>
  Object.entries(deployed.service.functions).map(
    ([handler, fn]) => [handler, deployed.resources[deployed.id(fn.function)]!.Properties] as const,
  );

describe('quotas and throttles', () => {
  const plain = synthesize();

  it('by default: service defaults in the code (no variables), 10/s public route throttles, nothing reserved', () => {
    expect(stageOf(plain).RouteSettings).toEqual(
      Object.fromEntries(publicKeys.map((key) => [key, { ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 }])),
    );
    // The stage-wide throttle stays for the authenticated routes.
    expect(stageOf(plain).DefaultRouteSettings).toMatchObject({ ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 });
    for (const [handler, properties] of functionResources(plain)) {
      expect(properties.ReservedConcurrentExecutions, handler).toBeUndefined();
      const variables = properties.Environment.Variables;
      for (const name of ['RATE_LIMIT_REQUESTS', 'RATE_LIMIT_READS', 'LIST_READ_BUDGET'])
        expect(variables[name], `${handler} ${name}`).toBeUndefined();
    }
  });

  it('the stage depends on every public route, so CloudFormation finds the routes its settings name', () => {
    const [[stageId, stage]] = plain.ofType('AWS::ApiGatewayV2::Stage') as unknown as [
      [string, { DependsOn?: string[] }],
    ];
    const routeIds = plain
      .ofType('AWS::ApiGatewayV2::Route')
      .filter(([, r]) => publicKeys.includes(r.Properties.RouteKey))
      .map(([id]) => id);
    expect(routeIds).toHaveLength(publicKeys.length);
    for (const id of routeIds) expect((stage as { DependsOn?: string[] }).DependsOn, stageId).toContain(id);
  });

  it('passes both quotas and the list budget to every function, and reserves concurrency where asked', () => {
    const tuned = synthesize({
      rateLimitRequests: 120,
      rateLimitReads: 50_000,
      listReadBudget: 20_000,
      publicThrottle: { rateLimit: 2, burstLimit: 4 },
      reservedConcurrency: { listActions: 5, getAction: 3 },
    });
    // Every function that serves the API or ingests (the stream publisher reads no config of these).
    for (const [handler, properties] of functionResources(tuned).filter(([h]) => h !== 'publishEvents')) {
      expect(properties.Environment.Variables, handler).toMatchObject({
        RATE_LIMIT_REQUESTS: '120',
        RATE_LIMIT_READS: '50000',
        LIST_READ_BUDGET: '20000',
      });
      const reserved = { listActions: 5, getAction: 3 }[handler];
      expect(properties.ReservedConcurrentExecutions, handler).toBe(reserved);
    }
    expect(stageOf(tuned).RouteSettings['GET /docs']).toEqual({ ThrottlingRateLimit: 2, ThrottlingBurstLimit: 4 });
    expect(stageOf(tuned).RouteSettings.$default).toEqual({ ThrottlingRateLimit: 2, ThrottlingBurstLimit: 4 });
    expect(fallbackRoute.handler).toBe('notFound');
  });

  it('refuses a quota that is not a positive whole number', () => {
    expect(() => synthesize({ rateLimitRequests: 0 })).toThrow(/rateLimitRequests must be a positive whole number/);
    expect(() => synthesize({ rateLimitReads: 1.5 })).toThrow(/rateLimitReads must be a positive whole number/);
  });

  it('expires quota windows through the table TTL attribute `ttl`', () => {
    const [[, table]] = plain.ofType('AWS::DynamoDB::Table') as unknown as [[string, { Properties: any }]];
    expect(table.Properties.TimeToLiveSpecification).toEqual({ AttributeName: 'ttl', Enabled: true });
  });
});
