import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { ActionTrackingService, type ActionTrackingServiceProps } from '../../infra/cdk/action-tracking-service';
import { ActionTrackingStack } from '../../infra/cdk/action-tracking-stack';

/** A stand-in for the built console (`console/dist`), so a template test builds no console either. */
export const consoleFixture = join(import.meta.dirname, 'fixtures', 'console');

/** The props with the console's files from the fixture, unless the props turn the console off or name their own. */
function withConsoleFixture(props: ActionTrackingServiceProps): ActionTrackingServiceProps {
  if (props.console === false) return props;
  return { ...props, console: { assetsDirectory: consoleFixture, ...(props.console === true ? {} : props.console) } };
}

/**
 * Synthesizes the service without bundling the functions (CDK's own `aws:cdk:bundling-stacks`
 * context), so a template test takes seconds; bundle.test.ts bundles for real. Plain props give
 * the app's ActionTrackingStack; props that need constructs (an imported pool, a topic) are made
 * by a function of the stack the service then joins.
 */
export function synthesize(props: ActionTrackingServiceProps | ((scope: Stack) => ActionTrackingServiceProps) = {}) {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  let stack: Stack;
  let service: ActionTrackingService;
  if (typeof props === 'function') {
    stack = new Stack(app, 'ActionTracking');
    service = new ActionTrackingService(stack, 'Service', withConsoleFixture(props(stack)));
  } else {
    stack = new ActionTrackingStack(app, 'ActionTracking', { service: withConsoleFixture(props) });
    service = (stack as ActionTrackingStack).service;
  }
  const template = Template.fromStack(stack);
  const json = template.toJSON() as { Resources: Record<string, Resource>; Outputs?: Record<string, unknown> };
  const id = (construct: { node: { defaultChild?: unknown } }) =>
    stack.getLogicalId(construct.node.defaultChild as never);
  const ofType = (type: string) => Object.entries(json.Resources).filter(([, resource]) => resource.Type === type);
  return { app, stack, service, template, resources: json.Resources, outputs: json.Outputs ?? {}, id, ofType };
}

export type Synthesized = ReturnType<typeof synthesize>;

export interface Resource {
  Type: string;
  /** Whatever the resource type says. */
  Properties: Record<string, any>;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
}

/**
 * A CloudFormation value as a readable string: `{Ref: X}` -> `X`, `{Fn::GetAtt: [X, Arn]}` ->
 * `X.Arn`, joins concatenated. Lets tests compare ARNs such as `Table.Arn/index/by-owner`.
 */
export function render(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  if (Array.isArray(value)) throw new Error(`render a single value, not ${JSON.stringify(value)}`);
  const intrinsic = value as Record<string, unknown>;
  if ('Ref' in intrinsic) return String(intrinsic.Ref);
  if ('Fn::GetAtt' in intrinsic) return (intrinsic['Fn::GetAtt'] as string[]).join('.');
  if ('Fn::Join' in intrinsic) {
    const [separator, parts] = intrinsic['Fn::Join'] as [string, unknown[]];
    return parts.map(render).join(separator);
  }
  throw new Error(`cannot render ${JSON.stringify(value)}`);
}

export interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Principal?: unknown;
  Condition?: unknown;
}

export const list = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/** Every IAM statement attached to a role (inline and default policies), with resources rendered. */
export function statementsOfRole(synthesized: Synthesized, roleId: string) {
  const statements: { actions: string[]; resources: string[]; effect: string }[] = [];
  for (const [, policy] of synthesized.ofType('AWS::IAM::Policy')) {
    if (!list(policy.Properties.Roles).some((role) => render(role) === roleId)) continue;
    for (const statement of policy.Properties.PolicyDocument.Statement as Statement[]) {
      statements.push({
        effect: statement.Effect,
        actions: list(statement.Action),
        resources: list(statement.Resource).map(render),
      });
    }
  }
  return statements;
}
