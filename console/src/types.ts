import type { components, paths } from './api-types';

/** The API's shapes the console shows, named once from the generated types (no DOM, so pure modules and their tests use them). */
export type Action = components['schemas']['Action'];
export type Comment = components['schemas']['Comment'];
export type HistoryEntry = components['schemas']['HistoryEntry'];
export type Problem = components['schemas']['Problem'];
export type ListParameter = keyof NonNullable<paths['/api/actions']['get']['parameters']['query']>;
