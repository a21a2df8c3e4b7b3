import { Duration } from 'aws-cdk-lib';
import { CorsHttpMethod } from 'aws-cdk-lib/aws-apigatewayv2';
import { UserPool, UserPoolClient } from 'aws-cdk-lib/aws-cognito';
import { describe, expect, it } from 'vitest';
import { ActionTrackingService } from '../../infra/cdk/action-tracking-service';
import { fallbackRoute, routes } from '../../lib/http/routes';
import { render, synthesize } from './synth';

const deployed = synthesize();
const [[apiId, api]] = deployed.ofType('AWS::ApiGatewayV2::Api') as [[string, (typeof deployed.resources)[string]]];
const [[authorizerId, authorizer]] = deployed.ofType('AWS::ApiGatewayV2::Authorizer') as [[string, typeof api]];
const poolId = deployed.id(deployed.service.userPool as never);
const clientId = deployed.id(deployed.service.userPoolClient as never);

const routeResources = new Map(deployed.ofType('AWS::ApiGatewayV2::Route').map(([, r]) => [r.Properties.RouteKey, r]));
const routeKey = (route: { method: string; path: string }) => `${route.method} ${route.path}`;

/** The logical id of the function a route's integration invokes. */
function functionBehind(key: string): string {
  const target = render(routeResources.get(key)!.Properties.Target);
  const integration = deployed.resources[target.replace(/^integrations\//, '')]!;
  expect(integration.Properties).toMatchObject({ IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' });
  return render(integration.Properties.IntegrationUri).replace(/\.Arn$/, '');
}

describe('the HTTP API', () => {
  it('serves exactly the routes of lib/http/routes.ts, and $default for everything else', () => {
    expect([...routeResources.keys()].sort()).toEqual([...routes.map(routeKey), '$default'].sort());
    for (const route of routeResources.values()) expect(render(route.Properties.ApiId)).toBe(apiId);
  });

  it.each(routes.map((r) => [routeKey(r), r] as const))('%s invokes its own handler', (key, route) => {
    expect(functionBehind(key)).toBe(deployed.id(deployed.service.functions[route.handler]!.function));
  });

  it('answers unmatched requests with the notFound handler, without a token', () => {
    expect(functionBehind('$default')).toBe(deployed.id(deployed.service.functions[fallbackRoute.handler]!.function));
    expect(routeResources.get('$default')!.Properties.AuthorizationType).toBe('NONE');
  });

  it("has one authorizer: a JWT authorizer for ID tokens of the pool's app clients, the service's and the console's", () => {
    expect(deployed.ofType('AWS::ApiGatewayV2::Authorizer')).toHaveLength(1);
    expect(authorizer.Properties).toMatchObject({
      AuthorizerType: 'JWT',
      IdentitySource: ['$request.header.Authorization'],
    });
    expect(authorizer.Properties.JwtConfiguration.Audience.map(render)).toEqual([
      clientId,
      deployed.id(deployed.service.console!.client as never),
    ]);
    expect(render(authorizer.Properties.JwtConfiguration.Issuer)).toBe(
      `https://cognito-idp.AWS::Region.amazonaws.com/${poolId}`,
    );
  });

  it.each(routes.map((r) => [routeKey(r), r] as const))(
    '%s is guarded by the authorizer unless public',
    (key, route) => {
      const properties = routeResources.get(key)!.Properties;
      if (route.public) {
        expect(properties.AuthorizationType).toBe('NONE');
        expect(properties.AuthorizerId).toBeUndefined();
      } else {
        expect(properties.AuthorizationType).toBe('JWT');
        expect(render(properties.AuthorizerId)).toBe(authorizerId);
      }
    },
  );

  it('lets API Gateway invoke each function only through this API', () => {
    const permissions = deployed.ofType('AWS::Lambda::Permission').map(([, p]) => p.Properties);
    const routed = new Set([...routes.map((r) => r.handler), fallbackRoute.handler]);
    for (const handler of routed) {
      const fn = deployed.id(deployed.service.functions[handler]!.function);
      const mine = permissions.filter((p) => render(p.FunctionName) === `${fn}.Arn`);
      expect(mine.length).toBeGreaterThan(0);
      for (const p of mine) {
        expect(p.Principal).toBe('apigateway.amazonaws.com');
        expect(render(p.SourceArn)).toContain(`:${apiId}/`);
      }
    }
  });

  it('has one auto-deployed $default stage, throttled and with JSON access logs', () => {
    const stages = deployed.ofType('AWS::ApiGatewayV2::Stage');
    expect(stages).toHaveLength(1);
    const stage = stages[0]![1].Properties;
    expect(stage).toMatchObject({
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 },
    });
    expect(render(stage.AccessLogSettings.DestinationArn)).toMatch(/^ServiceAccessLogs\w+\.Arn$/);
    expect(JSON.parse(stage.AccessLogSettings.Format)).toMatchObject({
      requestId: '$context.requestId',
      status: '$context.status',
      authorizerError: '$context.authorizer.error',
    });
  });

  it('allows no cross-origin calls unless CORS is configured', () => {
    expect(api.Properties.CorsConfiguration).toBeUndefined();
  });

  it('publishes the URL, pool, client, table, bus and console as stack outputs', () => {
    expect(Object.keys(deployed.outputs).sort()).toEqual(
      [
        'ApiUrl',
        'ConsoleUrl',
        'EventBusName',
        'PostingsTableName',
        'TableName',
        'UserPoolClientId',
        'UserPoolId',
      ].sort(),
    );
    expect(JSON.stringify(deployed.outputs.ApiUrl)).toContain(apiId);
  });
});

describe('the user pool', () => {
  it('is admin-managed, signs in by email, and gives every user a name for the owner field', () => {
    const [[, pool]] = deployed.ofType('AWS::Cognito::UserPool') as [[string, typeof api]];
    expect(pool.Properties.AdminCreateUserConfig).toEqual({ AllowAdminCreateUserOnly: true });
    expect(pool.Properties.UsernameAttributes).toEqual(['email']);
    expect(pool.Properties.Schema).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ Name: 'email', Required: true }),
        expect.objectContaining({ Name: 'name', Required: true }),
      ]),
    );
    expect(pool.Properties.Policies.PasswordPolicy).toMatchObject({ MinimumLength: 12, RequireSymbols: true });
  });

  it('has a public app client that can sign in with a password from the CLI, without OAuth', () => {
    const client = deployed.resources[clientId]!;
    expect(client.Properties.GenerateSecret).toBe(false);
    expect(client.Properties.ExplicitAuthFlows).toEqual(
      expect.arrayContaining(['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_USER_SRP_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH']),
    );
    expect(client.Properties.AllowedOAuthFlows).toBeUndefined();
    expect(client.Properties.PreventUserExistenceErrors).toBe('ENABLED');
  });

  it('lets users write neither their name nor their email: the service records them as who did what', () => {
    const client = deployed.resources[clientId]!;
    const writable = client.Properties.WriteAttributes as string[];
    // An unset list would let a user write every standard attribute.
    expect(writable).toBeDefined();
    expect(writable.sort()).toEqual(['locale', 'zoneinfo']);
    for (const identity of ['name', 'email', 'email_verified', 'preferred_username'])
      expect(writable).not.toContain(identity);
  });
});

describe('props', () => {
  it('take an existing pool: no pool is created, a client is added to it, tokens are checked against it', () => {
    const existing = synthesize((stack) => ({
      userPool: UserPool.fromUserPoolId(stack, 'Pool', 'eu-west-1_Existing'),
      console: false,
    }));
    expect(existing.ofType('AWS::Cognito::UserPool')).toHaveLength(0);
    const [[clientLogicalId, client]] = existing.ofType('AWS::Cognito::UserPoolClient') as [[string, typeof api]];
    expect(client.Properties.UserPoolId).toBe('eu-west-1_Existing');
    const [[, auth]] = existing.ofType('AWS::ApiGatewayV2::Authorizer') as [[string, typeof api]];
    expect(render(auth.Properties.JwtConfiguration.Issuer)).toBe(
      'https://cognito-idp.AWS::Region.amazonaws.com/eu-west-1_Existing',
    );
    expect(auth.Properties.JwtConfiguration.Audience.map(render)).toEqual([clientLogicalId]);
    const [, fn] = existing.ofType('AWS::Lambda::Function')[0]!;
    expect(fn.Properties.Environment.Variables.USER_POOL_ID).toBe('eu-west-1_Existing');
  });

  it('take an existing pool and client, and no console: nothing Cognito is created', () => {
    const existing = synthesize((stack) => ({
      userPool: UserPool.fromUserPoolId(stack, 'Pool', 'eu-west-1_Existing'),
      userPoolClient: UserPoolClient.fromUserPoolClientId(stack, 'Client', 'existingclient'),
      console: false,
    }));
    expect(existing.ofType('AWS::Cognito::UserPool')).toHaveLength(0);
    expect(existing.ofType('AWS::Cognito::UserPoolClient')).toHaveLength(0);
    const [[, auth]] = existing.ofType('AWS::ApiGatewayV2::Authorizer') as [[string, typeof api]];
    expect(auth.Properties.JwtConfiguration.Audience).toEqual(['existingclient']);
    const [, fn] = existing.ofType('AWS::Lambda::Function')[0]!;
    expect(fn.Properties.Environment.Variables.USER_POOL_CLIENT_ID).toBe('existingclient');
  });

  it('refuse a client without its pool', () => {
    expect(() =>
      synthesize((stack) => ({ userPoolClient: UserPoolClient.fromUserPoolClientId(stack, 'Client', 'orphan') })),
    ).toThrow(/userPoolClient needs the userPool/);
  });

  it('set CORS, throttling and access logging', () => {
    const custom = synthesize({
      cors: {
        allowOrigins: ['https://app.example.com'],
        allowMethods: [CorsHttpMethod.GET, CorsHttpMethod.POST, CorsHttpMethod.PATCH, CorsHttpMethod.DELETE],
        allowHeaders: ['authorization', 'content-type', 'if-match'],
        exposeHeaders: ['etag', 'location'],
        maxAge: Duration.hours(1),
      },
      throttle: { rateLimit: 5, burstLimit: 10 },
      accessLogs: false,
    });
    const [[, customApi]] = custom.ofType('AWS::ApiGatewayV2::Api') as [[string, typeof api]];
    expect(customApi.Properties.CorsConfiguration).toEqual({
      AllowOrigins: ['https://app.example.com'],
      AllowMethods: ['GET', 'POST', 'PATCH', 'DELETE'],
      AllowHeaders: ['authorization', 'content-type', 'if-match', 'idempotency-key'],
      ExposeHeaders: ['etag', 'location'],
      MaxAge: 3600,
    });
    const [[, stage]] = custom.ofType('AWS::ApiGatewayV2::Stage') as [[string, typeof api]];
    expect(stage.Properties.DefaultRouteSettings).toEqual({ ThrottlingRateLimit: 5, ThrottlingBurstLimit: 10 });
    expect(stage.Properties.AccessLogSettings).toBeUndefined();
    expect(custom.service).toBeInstanceOf(ActionTrackingService);
  });
});
