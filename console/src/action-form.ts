import { isSomeone } from './people';
import { fromZonedInput, toZonedInput } from './time';
import type { Action, Problem } from './types';

/**
 * The fields of the New action and Edit forms, once: each names its API field (a dotted path),
 * so a problem's `errors` find the field they name, and the create body and the merge patch are
 * built from the same list.
 */

export interface FieldSpec {
  /** The API field (dotted for nested ones); also the control's name. */
  name: string;
  label: string;
  kind: 'text' | 'textarea' | 'url' | 'due' | 'number' | 'status' | 'checkbox';
  required?: boolean;
  /** Only on create: fields that never change afterwards. */
  createOnly?: boolean;
  hint?: string;
}

export const LOCATION_FIELDS = [
  ['businessUnit', 'Business unit'],
  ['site', 'Site'],
  ['department', 'Department'],
  ['workGroup', 'Work group'],
  ['productiveUnit', 'Productive unit'],
  ['team', 'Team'],
  ['crew', 'Crew'],
] as const;

export const FIELDS: FieldSpec[] = [
  { name: 'title', label: 'Title', kind: 'text', required: true },
  { name: 'description', label: 'Description', kind: 'textarea' },
  { name: 'actionProducer.name', label: 'Producer', kind: 'text', required: true, createOnly: true },
  { name: 'actionProducer.reference', label: 'Producer reference', kind: 'text', createOnly: true },
  { name: 'actionProducer.url', label: 'Producer URL', kind: 'url' },
  { name: 'dueAt', label: 'Due', kind: 'due', required: true },
  { name: 'priority', label: 'Priority', kind: 'number', required: true, hint: 'A whole number, 0 or more' },
  { name: 'status', label: 'Status', kind: 'status', required: true },
  { name: 'assignee.id', label: 'Assignee', kind: 'text', hint: 'Their user id; empty for nobody' },
  { name: 'assignee.name', label: 'Assignee name', kind: 'text' },
  ...LOCATION_FIELDS.map(([key, label]): FieldSpec => ({ name: `location.${key}`, label, kind: 'text' })),
  { name: 'tags', label: 'Tags', kind: 'text', hint: 'Separated by commas' },
  { name: 'allowAnonymousEdits', label: 'Anyone may edit', kind: 'checkbox' },
];

export type FormValues = Record<string, string | boolean>;

/** An empty New action form. */
export function emptyValues(): FormValues {
  const values: FormValues = {};
  for (const field of FIELDS) values[field.name] = field.kind === 'checkbox' ? false : '';
  values.status = '1';
  values.priority = '2';
  return values;
}

/** The Edit form's values for an action; the due date-time as wall-clock time in `zone`. */
export function valuesOf(action: Action, zone = 'UTC'): FormValues {
  const assigned = isSomeone(action.assignee);
  return {
    title: action.title,
    description: action.description,
    'actionProducer.name': action.actionProducer.name,
    'actionProducer.reference': action.actionProducer.reference ?? '',
    'actionProducer.url': action.actionProducer.url ?? '',
    dueAt: toZonedInput(action.dueAt, zone),
    priority: action.priority,
    status: action.status,
    'assignee.id': assigned ? action.assignee.id : '',
    'assignee.name': assigned ? action.assignee.name : '',
    ...Object.fromEntries(LOCATION_FIELDS.map(([key]) => [`location.${key}`, action.location[key]])),
    tags: action.tags.join(', '),
    allowAnonymousEdits: action.allowAnonymousEdits,
  };
}

const text = (values: FormValues, name: string) => String(values[name] ?? '');
const tagsOf = (value: string) =>
  value
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);
const numberOrText = (value: string) => (/^\d+$/.test(value) ? Number(value) : value);

/** The create body of a New action form (the API judges it; the console sends what was typed); the due time read in `zone`. */
export function createBody(values: FormValues, zone = 'UTC') {
  const assignee = text(values, 'assignee.id').trim();
  const assigneeName = text(values, 'assignee.name').trim();
  const reference = text(values, 'actionProducer.reference');
  const url = text(values, 'actionProducer.url');
  return {
    title: text(values, 'title'),
    description: text(values, 'description'),
    actionProducer: {
      name: text(values, 'actionProducer.name'),
      ...(reference ? { reference } : {}),
      ...(url ? { url } : {}),
    },
    dueAt: fromZonedInput(text(values, 'dueAt'), zone),
    priority: numberOrText(text(values, 'priority')),
    status: numberOrText(text(values, 'status')),
    ...(assignee ? { assignee: { id: assignee, ...(assigneeName ? { name: assigneeName } : {}) } } : {}),
    location: Object.fromEntries(LOCATION_FIELDS.map(([key]) => [key, text(values, `location.${key}`)])),
    tags: tagsOf(text(values, 'tags')),
    allowAnonymousEdits: values.allowAnonymousEdits === true,
  };
}

/** The merge patch from the values an edit started from to the values typed: changed fields only. */
export function mergePatch(from: FormValues, to: FormValues, zone = 'UTC') {
  const changed = (name: string) => from[name] !== to[name];
  const patch: Record<string, unknown> = {};
  for (const name of ['title', 'description'] as const) if (changed(name)) patch[name] = text(to, name);
  if (changed('dueAt')) patch.dueAt = fromZonedInput(text(to, 'dueAt'), zone);
  for (const name of ['priority', 'status'] as const) if (changed(name)) patch[name] = numberOrText(text(to, name));
  if (changed('assignee.id') || changed('assignee.name')) {
    const id = text(to, 'assignee.id').trim();
    const name = text(to, 'assignee.name').trim();
    patch.assignee = id ? { id, ...(name ? { name } : {}) } : null;
  }
  const location = Object.fromEntries(
    LOCATION_FIELDS.filter(([key]) => changed(`location.${key}`)).map(([key]) => [key, text(to, `location.${key}`)]),
  );
  if (Object.keys(location).length > 0) patch.location = location;
  if (changed('actionProducer.url')) patch.actionProducer = { url: text(to, 'actionProducer.url') || null };
  if (changed('tags')) patch.tags = tagsOf(text(to, 'tags'));
  if (changed('allowAnonymousEdits')) patch.allowAnonymousEdits = to.allowAnonymousEdits === true;
  return patch;
}

/** A problem's messages by the form field they name; the rest under ''. */
export function errorsByField(problem: Problem | undefined): Record<string, string[]> {
  const byField: Record<string, string[]> = {};
  if (!problem) return byField;
  const known = new Set(FIELDS.map((f) => f.name));
  for (const error of problem.errors ?? []) {
    const named = error.field ?? error.parameter ?? '';
    // `assignee` or `location` as a whole goes to the first of its fields.
    const field = known.has(named) ? named : (FIELDS.find((f) => f.name.startsWith(`${named}.`))?.name ?? '');
    byField[field] = [...(byField[field] ?? []), error.message];
  }
  if (!problem.errors?.length) byField[''] = [problem.detail || problem.title];
  return byField;
}
