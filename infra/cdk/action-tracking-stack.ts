import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { ActionTrackingService, type ActionTrackingServiceProps } from './action-tracking-service';

export interface ActionTrackingStackProps extends StackProps {
  /**
   * The service's props.
   * @default the service's own defaults (`ActionTrackingServiceProps`)
   */
  readonly service?: ActionTrackingServiceProps;
}

/** The service as a deployable stack, with the outputs a client needs to reach it. */
export class ActionTrackingStack extends Stack {
  readonly service: ActionTrackingService;

  constructor(scope: Construct, id: string, props: ActionTrackingStackProps = {}) {
    super(scope, id, props);
    this.service = new ActionTrackingService(this, 'Service', props.service);
    const output = (id: string, value: string, description: string) => new CfnOutput(this, id, { value, description });
    output('ApiUrl', this.service.url, 'Base URL of the HTTP API');
    output('UserPoolId', this.service.userPool.userPoolId, 'Cognito user pool whose ID tokens the API accepts');
    output('UserPoolClientId', this.service.userPoolClient.userPoolClientId, 'App client to sign in with');
    output('TableName', this.service.table.tableName, 'DynamoDB table of actions');
    output('PostingsTableName', this.service.postingsTable.tableName, 'DynamoDB table of the search postings');
    if (this.service.console) output('ConsoleUrl', this.service.console.url, 'The console: sign in and work actions');
    output('EventBusName', this.service.eventBus.eventBusName, 'Bus for ActionRequested and the published events');
  }
}
