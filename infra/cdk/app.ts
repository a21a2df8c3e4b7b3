import { App, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { ActionTrackingStack } from './action-tracking-stack';
import { bundleSizes, printBundleSizes } from './bundle-sizes';

/**
 * The CDK app `npx cdk synth|deploy` runs (see cdk.json). Without AWS credentials the stack is
 * environment-agnostic, so it synthesizes offline. `-c ephemeral=true` makes a throwaway stack
 * whose table and user pool are deleted with it.
 */
const app = new App();
const ephemeral = String(app.node.tryGetContext('ephemeral')) === 'true';
new ActionTrackingStack(app, String(app.node.tryGetContext('stackName') ?? 'ActionTracking'), {
  description: 'Action tracking service: HTTP API, Lambda, DynamoDB, Cognito, EventBridge',
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  service: {
    ...(ephemeral ? { removalPolicy: RemovalPolicy.DESTROY, deletionProtection: false } : {}),
    // `-c notificationsFrom="Actions <actions@example.com>"` turns email on (docs/notifications.md).
    ...(app.node.tryGetContext('notificationsFrom')
      ? { notificationsFrom: String(app.node.tryGetContext('notificationsFrom')) }
      : {}),
  },
});
// Every finding of the AWS Solutions rules fails the synth, unless suppressed with a reason.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));

printBundleSizes(bundleSizes(app.synth()));
