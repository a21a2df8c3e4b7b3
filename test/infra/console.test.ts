import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UserPool } from 'aws-cdk-lib/aws-cognito';
import { describe, expect, it } from 'vitest';
import { consoleSecurityHeaders } from '../../console/headers';
import { screenRewrite } from '../../infra/cdk/console';
import { CONSOLE_REFRESH_TOKEN_RULES } from '../../infra/local/refresh-tokens';
import { DOCS_SECURITY_HEADERS } from '../../lib/api-docs/docs-headers';
import { list, render, type Statement, synthesize } from './synth';

/** Issue 32: the console in AWS, as the template describes it (contract section 13, "Where" and "Sign-in"). */

const deployed = synthesize();
const site = deployed.service.console!;
const id = (construct: unknown) => deployed.id(construct as never);
const only = (type: string) => {
  const found = deployed.ofType(type);
  expect(found, type).toHaveLength(1);
  return found[0]!;
};
const [distributionId, distribution] = only('AWS::CloudFront::Distribution');
const config = distribution.Properties.DistributionConfig;
const behaviour = (pattern: string) =>
  (config.CacheBehaviors as { PathPattern: string; [key: string]: any }[]).find((b) => b.PathPattern === pattern)!;
const originOf = (originId: string) =>
  (config.Origins as { Id: string; [key: string]: any }[]).find((o) => o.Id === originId)!;
const consoleUrl = `https://${distributionId}.DomainName`;
/** The response headers policy a behaviour names. */
const policyOf = (cacheBehaviour: Record<string, unknown>) => {
  const found = deployed.resources[String(render(cacheBehaviour.ResponseHeadersPolicyId))];
  expect(found?.Type).toBe('AWS::CloudFront::ResponseHeadersPolicy');
  return found!;
};
/** Managed policies by the ids AWS gives them. */
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const CACHING_OPTIMIZED = '658327ea-f89d-4fab-a63d-7e88639e58f6';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

describe('the console distribution', () => {
  it('serves the bucket through origin access control, over HTTPS, index.html at the root', () => {
    expect(config.DefaultRootObject).toBe('index.html');
    const origin = originOf(config.DefaultCacheBehavior.TargetOriginId);
    expect(render(origin.DomainName)).toBe(`${id(site.bucket)}.RegionalDomainName`);
    expect(origin.S3OriginConfig).toEqual({ OriginAccessIdentity: '' });
    const [oacId, oac] = only('AWS::CloudFront::OriginAccessControl');
    expect(render(origin.OriginAccessControlId)).toBe(`${oacId}.Id`);
    expect(oac.Properties.OriginAccessControlConfig).toMatchObject({
      OriginAccessControlOriginType: 's3',
      SigningBehavior: 'always',
      SigningProtocol: 'sigv4',
    });
    expect(config.DefaultCacheBehavior).toMatchObject({
      ViewerProtocolPolicy: 'redirect-to-https',
      CachePolicyId: CACHING_OPTIMIZED,
      AllowedMethods: ['GET', 'HEAD'],
    });
    expect(config.Logging).toBeDefined();
  });

  it.each(['/api/*', '/docs*'])('passes %s to the HTTP API uncached, with every viewer header but Host', (pattern) => {
    const passed = behaviour(pattern);
    expect(passed).toMatchObject({
      CachePolicyId: CACHING_DISABLED,
      OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
      ViewerProtocolPolicy: 'https-only',
    });
    // Not the console's policy: the API's and the docs' own (below).
    expect(render(passed.ResponseHeadersPolicyId)).not.toBe(
      render(config.DefaultCacheBehavior.ResponseHeadersPolicyId),
    );
    const origin = originOf(passed.TargetOriginId);
    expect(render(origin.DomainName)).toBe(`${id(deployed.service.api)}.execute-api.AWS::Region.AWS::URLSuffix`);
    expect(origin.CustomOriginConfig.OriginProtocolPolicy).toBe('https-only');
  });

  it('lets every method through to the API, and only reads to the docs', () => {
    expect(behaviour('/api/*').AllowedMethods).toEqual(['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE']);
    expect(behaviour('/docs*').AllowedMethods).toEqual(['GET', 'HEAD']);
  });

  it("answers the console's screens with index.html and lets files through", () => {
    const [functionId, fn] = only('AWS::CloudFront::Function');
    expect(config.DefaultCacheBehavior.FunctionAssociations).toEqual([
      { EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [functionId, 'FunctionARN'] } },
    ]);
    expect(fn.Properties.FunctionCode).toBe(screenRewrite);
    const rewrite = new Function(`${screenRewrite}; return handler;`)() as (event: unknown) => { uri: string };
    const uriOf = (uri: string) => rewrite({ request: { uri } }).uri;
    for (const screen of ['/', '/new', '/actions/0190a1b2-0000-7000-8000-000000000000', '/actions'])
      expect(uriOf(screen), screen).toBe('/index.html');
    for (const file of ['/assets/main-3FJ2KQ.js', '/assets/main-3FJ2KQ.css', '/console-config.json', '/index.html'])
      expect(uriOf(file), file).toBe(file);
  });

  it('sends the security headers of console/headers.ts with every console file, the CSP naming the sign-in origin', () => {
    const policy = policyOf(config.DefaultCacheBehavior);
    const { SecurityHeadersConfig: security, CustomHeadersConfig: custom } =
      policy.Properties.ResponseHeadersPolicyConfig;
    const signIn = `https://${id(site.domain)}.auth.AWS::Region.amazoncognito.com`;
    const expected = consoleSecurityHeaders('https://SIGN-IN');
    expect(render(security.ContentSecurityPolicy.ContentSecurityPolicy).replaceAll(signIn, 'https://SIGN-IN')).toBe(
      expected['content-security-policy'],
    );
    expect(expected['content-security-policy']).toContain("script-src 'self';");
    expect(security).toMatchObject({
      ContentTypeOptions: { Override: true },
      FrameOptions: { FrameOption: 'DENY', Override: true },
      ReferrerPolicy: { ReferrerPolicy: 'no-referrer', Override: true },
      StrictTransportSecurity: { AccessControlMaxAgeSec: 63072000, IncludeSubdomains: true, Override: true },
    });
    // Every other header of the shared list, as it is.
    const named = new Set([
      'content-security-policy',
      'strict-transport-security',
      'x-content-type-options',
      'x-frame-options',
      'referrer-policy',
    ]);
    const others = Object.entries(expected).filter(([name]) => !named.has(name));
    expect(others.length).toBeGreaterThan(0);
    expect(custom.Items).toEqual(others.map(([Header, Value]) => ({ Header, Value, Override: true })));
  });
});

describe('the docs and the API on the console origin (issue 42)', () => {
  it("serve /docs* with the console's strict headers, the same list as the docs handler's", () => {
    // One list: the handler's headers are the console's (without a sign-in origin: the docs sign nobody in).
    expect(DOCS_SECURITY_HEADERS).toEqual(consoleSecurityHeaders());
    const { SecurityHeadersConfig: security, CustomHeadersConfig: custom } = policyOf(behaviour('/docs*')).Properties
      .ResponseHeadersPolicyConfig;
    expect(security).toMatchObject({
      ContentSecurityPolicy: {
        ContentSecurityPolicy: DOCS_SECURITY_HEADERS['content-security-policy'],
        Override: true,
      },
      ContentTypeOptions: { Override: true },
      FrameOptions: { FrameOption: 'DENY', Override: true },
      ReferrerPolicy: { ReferrerPolicy: 'no-referrer', Override: true },
    });
    expect(security.ContentSecurityPolicy.ContentSecurityPolicy).toContain("frame-ancestors 'none'");
    expect(custom.Items.map((h: { Header: string }) => h.Header)).toContain('permissions-policy');
  });

  it("add nosniff to every /api/* answer, API Gateway's own included", () => {
    const { SecurityHeadersConfig: security } = policyOf(behaviour('/api/*')).Properties.ResponseHeadersPolicyConfig;
    expect(security).toEqual({ ContentTypeOptions: { Override: true } });
  });
});

describe('the console bucket', () => {
  const bucket = deployed.resources[id(site.bucket)]!;

  it('is private: public access blocked, no website hosting, encrypted', () => {
    expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(bucket.Properties.WebsiteConfiguration).toBeUndefined();
    expect(bucket.Properties.BucketEncryption).toBeDefined();
  });

  it('lets only this distribution read it, only over TLS', () => {
    const [, policy] = deployed
      .ofType('AWS::S3::BucketPolicy')
      .find(([, p]) => render(p.Properties.Bucket) === id(site.bucket))!;
    const statements = policy.Properties.PolicyDocument.Statement as Statement[];
    const allows = statements.filter((s) => s.Effect === 'Allow');
    // BucketDeployment writes through its role's own policy; the bucket policy lets in CloudFront alone.
    expect(allows).toHaveLength(1);
    expect(allows[0]).toMatchObject({ Principal: { Service: 'cloudfront.amazonaws.com' }, Action: 's3:GetObject' });
    expect(JSON.stringify(allows[0]!.Condition)).toContain(distributionId);
    const denies = statements.filter((s) => s.Effect === 'Deny');
    expect(denies.map((s) => s.Condition)).toContainEqual({ Bool: { 'aws:SecureTransport': 'false' } });
    for (const statement of statements) expect(list(statement.Principal as never)).not.toContain('*');
  });
});

describe('the console files', () => {
  const deployments = deployed.ofType('Custom::CDKBucketDeployment').map(([, d]) => d.Properties);

  it('are hashed files cached for good, and index.html and the settings file revalidated', () => {
    expect(deployments.map((d) => d.SystemMetadata)).toEqual([
      { 'cache-control': 'public, max-age=31536000, immutable' },
      { 'cache-control': 'no-cache' },
    ]);
    for (const d of deployments) {
      expect(render(d.DestinationBucketName)).toBe(id(site.bucket));
      // Earlier builds' files stay for browsers still holding an older index.html.
      expect(d.Prune).toBe(false);
    }
  });

  it('include /console-config.json: the managed-login domain, the console client and /api', () => {
    const pages = JSON.stringify(deployments[1]);
    expect(pages).toContain(id(site.client));
    expect(pages).toContain(id(site.domain));
  });

  it('refuse to deploy without a built console, and say how to build it', () => {
    const empty = mkdtempSync(join(tmpdir(), 'no-console-'));
    expect(() => synthesize({ console: { assetsDirectory: empty } })).toThrow(/npm run build:console.*console: false/);
  });
});

describe('sign-in for the console', () => {
  const client = deployed.resources[id(site.client)]!.Properties;

  it('is a public app client: no secret, authorization code only, OpenID scopes', () => {
    expect(client.GenerateSecret).toBe(false);
    expect(client.AllowedOAuthFlowsUserPoolClient).toBe(true);
    expect(client.AllowedOAuthFlows).toEqual(['code']);
    expect(client.AllowedOAuthScopes.sort()).toEqual(['email', 'openid', 'profile']);
    // No password flows: a person signs in on the managed login page; the console refreshes tokens
    // at the token endpoint (REFRESH_TOKEN_AUTH is refused with rotation on).
    expect(client.ExplicitAuthFlows).toEqual([]);
    expect(client.SupportedIdentityProviders).toEqual(['COGNITO']);
    // Sign out revokes the refresh token; refresh tokens rotate (10 s grace) and last 12 hours, as the local stand-in's.
    expect(client.EnableTokenRevocation).toBe(true);
    const local = CONSOLE_REFRESH_TOKEN_RULES;
    expect(client.RefreshTokenRotation).toEqual({
      Feature: 'ENABLED',
      RetryGracePeriodSeconds: local.rotationGraceSeconds,
    });
    expect(client.RefreshTokenValidity).toBe(local.validitySeconds / 60);
    expect(client.TokenValidityUnits.RefreshToken).toBe('minutes');
    expect(client.IdTokenValidity).toBe(60);
  });

  it("returns to the console's own address after sign-in and sign-out", () => {
    expect(client.CallbackURLs.map(render)).toEqual([`${consoleUrl}/`]);
    expect(client.LogoutURLs.map(render)).toEqual([`${consoleUrl}/`]);
    expect(render((deployed.outputs.ConsoleUrl as { Value: unknown }).Value)).toBe(consoleUrl);
  });

  it("signs in on Cognito's managed login (version 2), with Cognito's branding for the console client", () => {
    const [, domain] = only('AWS::Cognito::UserPoolDomain');
    expect(domain.Properties.ManagedLoginVersion).toBe(2);
    expect(render(domain.Properties.UserPoolId)).toBe(id(deployed.service.userPool));
    const [, branding] = only('AWS::Cognito::ManagedLoginBranding');
    expect(render(branding.Properties.ClientId)).toBe(id(site.client));
    expect(branding.Properties.UseCognitoProvidedValues).toBe(true);
  });

  it("is accepted by the API: the authorizer's audience and the handlers' verifier name both clients", () => {
    const both = [id(deployed.service.userPoolClient), id(site.client)];
    const [, authorizer] = only('AWS::ApiGatewayV2::Authorizer');
    expect(authorizer.Properties.JwtConfiguration.Audience.map(render)).toEqual(both);
    for (const fn of Object.values(deployed.service.functions)) {
      const variables = deployed.resources[id(fn.function)]!.Properties.Environment.Variables;
      if (variables.USER_POOL_CLIENT_ID) expect(render(variables.USER_POOL_CLIENT_ID)).toBe(both.join(','));
    }
  });

  it('takes a domain prefix of its own', () => {
    const named = synthesize({ console: { domainPrefix: 'acme-actions' } });
    const [[, domain]] = named.ofType('AWS::Cognito::UserPoolDomain') as [[string, any]];
    expect(domain.Properties.Domain).toBe('acme-actions');
  });

  it('works with a pool the team brings: the client and the domain are added to it', () => {
    const team = synthesize((stack) => ({ userPool: UserPool.fromUserPoolId(stack, 'Pool', 'eu-west-1_Team') }));
    const clients = team.ofType('AWS::Cognito::UserPoolClient').map(([, c]) => c.Properties);
    expect(clients).toHaveLength(2);
    for (const c of clients) expect(c.UserPoolId).toBe('eu-west-1_Team');
    expect(team.ofType('AWS::Cognito::UserPoolDomain')[0]![1].Properties.UserPoolId).toBe('eu-west-1_Team');
  });
});

describe('console: false', () => {
  const without = synthesize({ console: false });

  it('leaves all of it out: no bucket, distribution, domain, console client or output', () => {
    // The evidence bucket (section 15) and its log bucket stay: they are not the console's.
    const buckets = without.ofType('AWS::S3::Bucket').filter(([id]) => !/^Service(Evidence)/.test(String(id)));
    expect(buckets.map(([id]) => id)).toEqual([]);
    for (const type of [
      'AWS::CloudFront::Distribution',
      'AWS::CloudFront::Function',
      'AWS::CloudFront::ResponseHeadersPolicy',
      'AWS::Cognito::UserPoolDomain',
      'AWS::Cognito::ManagedLoginBranding',
      'Custom::CDKBucketDeployment',
    ])
      expect(without.ofType(type), type).toHaveLength(0);
    expect(without.ofType('AWS::Cognito::UserPoolClient')).toHaveLength(1);
    expect(without.service.console).toBeUndefined();
    expect(without.outputs.ConsoleUrl).toBeUndefined();
  });

  it("accepts the service's client alone", () => {
    const clientId = without.id(without.service.userPoolClient as never);
    const [[, authorizer]] = without.ofType('AWS::ApiGatewayV2::Authorizer') as [[string, any]];
    expect(authorizer.Properties.JwtConfiguration.Audience).toEqual([{ Ref: clientId }]);
    const [, fn] = without.ofType('AWS::Lambda::Function')[0]!;
    expect(fn.Properties.Environment.Variables.USER_POOL_CLIENT_ID).toEqual({ Ref: clientId });
  });
});
