/**
 * What the package exports at `action-tracking-service/cdk`: the construct a team puts in its
 * own CDK app, and its props.
 */
export { ActionTrackingService, type ActionTrackingServiceProps } from './action-tracking-service';
export type { ConsoleOptions } from './console';
