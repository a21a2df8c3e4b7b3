import { parseDateTime, parseDay } from '../dates';
import { clip, type Problem, ValidationError } from '../errors';
import { foldForComparison } from '../text';
import { type FieldSpec, fieldsByName } from './fields';

/**
 * The list query language: `GET /api/actions?<parameter>=<operator><value>&sort=..&skip=..&limit=..`
 * parsed into a typed, validated filter tree. Pure: no I/O, throws only `ValidationError`.
 */

export type Operator = '=' | '!' | '*' | '<' | '>' | '~';
const OPERATORS = new Set<string>(['=', '!', '*', '<', '>', '~']);

/** A date filter value: one instant, or one whole UTC day. */
export type DateValue = { kind: 'instant'; at: string } | { kind: 'day'; prefix: string; start: string; end: string };

export type Clause =
  | { field: FieldSpec; type: 'text' | 'string'; op: Operator; values: string[] }
  | { field: FieldSpec; type: 'integer'; op: Exclude<Operator, '*'>; values: number[] }
  | { field: FieldSpec; type: 'date'; op: Exclude<Operator, '*'>; values: DateValue[] }
  | { field: FieldSpec; type: 'boolean'; op: '='; values: boolean[] };

export interface Sort {
  field: FieldSpec;
  descending: boolean;
}

export interface ListQuery {
  filters: Clause[];
  sort?: Sort;
  skip: number;
  limit: number;
  /** Continues an earlier page (section 11); opened by the list, not here. */
  cursor?: string;
  /** The filters and sort as sent, in a canonical order: what a cursor is bound to. */
  terms: Array<[string, string]>;
}

export const queryLimits = {
  defaultLimit: 10,
  maxLimit: 100,
  /** Deep paging costs a read of every skipped match; past this, narrow the filter. */
  maxWindow: 10_000,
  maxFilters: 20,
  maxInValues: 100,
  maxValueLength: 1_000,
} as const;

const PAGING = new Set(['skip', 'limit', 'sort', 'cursor']);
const INTEGER = /^\d+$/;

/** Splits a raw query string, decoding `+` and percent escapes as a form would. */
export function splitQueryString(raw: string): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const part of raw.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const rawName = eq < 0 ? part : part.slice(0, eq);
    const rawValue = eq < 0 ? '' : part.slice(eq + 1);
    pairs.push([decode(rawName, rawName), decode(rawValue, rawName)]);
  }
  return pairs;
}

function decode(text: string, parameter: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    throw new ValidationError([{ parameter: clip(parameter), message: 'is not valid percent-encoding' }]);
  }
}

/** The filters where `me` stands for the caller's id. */
const PEOPLE = new Set(['owner', 'assignee']);
const ME = 'me';

/**
 * Parses a whole list query; collects every problem before failing so a client sees them all.
 * `callerId` is who asks: `owner=me`, `assignee=!me` and `assignee=~me,undefined` mean that id
 * (without a caller, `me` is just text).
 */
export function parseListQuery(rawQueryString: string, callerId?: string): ListQuery {
  return parseListTerms(splitQueryString(rawQueryString), callerId);
}

/** Whether two clauses ask the same of the same field. Pure. */
const sameClause = (a: Clause, b: Clause): boolean =>
  a.field.name === b.field.name && a.op === b.op && JSON.stringify(a.values) === JSON.stringify(b.values);

/** The clauses with each one asked twice kept once, in their order. Pure. */
export const distinctClauses = (clauses: readonly Clause[]): Clause[] =>
  clauses.filter((clause, i) => !clauses.slice(0, i).some((earlier) => sameClause(earlier, clause)));

/** Parses a list query already split into its parameters (`me` as in `parseListQuery`). */
export function parseListTerms(pairs: ReadonlyArray<[string, string]>, callerId?: string): ListQuery {
  const problems: Problem[] = [];
  const filters: Clause[] = [];
  const paging = new Map<string, string>();
  const terms: Array<[string, string]> = [];

  for (const [name, value] of pairs) {
    if (name !== 'skip' && name !== 'limit' && name !== 'cursor') terms.push([name, value]);
    if (PAGING.has(name)) {
      if (paging.has(name)) problems.push({ parameter: name, message: 'may appear only once' });
      else paging.set(name, value);
      continue;
    }
    const field = fieldsByName.get(name);
    if (!field) {
      problems.push({ parameter: clip(name), message: 'is not a known parameter' });
      continue;
    }
    try {
      const clause = parseClause(field, value);
      filters.push(callerId !== undefined && PEOPLE.has(field.name) ? meAs(clause, callerId) : clause);
    } catch (error) {
      if (error instanceof ValidationError && error.errors) problems.push(...error.errors);
      else throw error;
    }
  }
  if (filters.length > queryLimits.maxFilters) {
    problems.push({ parameter: 'query', message: `at most ${queryLimits.maxFilters} filters are allowed` });
  }

  const skip = parsePagingInteger(paging.get('skip'), 'skip', 0, problems);
  const limit = parsePagingInteger(paging.get('limit'), 'limit', queryLimits.defaultLimit, problems);
  if (limit > queryLimits.maxLimit)
    problems.push({ parameter: 'limit', message: `must be from 0 to ${queryLimits.maxLimit}` });
  else if (skip + limit > queryLimits.maxWindow && !problems.some((p) => p.parameter === 'skip')) {
    problems.push({
      parameter: 'skip',
      message: `skip + limit must be at most ${queryLimits.maxWindow}; narrow the filter instead`,
    });
  }
  const sort = parseSort(paging.get('sort'), problems);
  const cursor = paging.get('cursor');
  if (cursor === '') problems.push({ parameter: 'cursor', message: 'must not be empty' });
  else if (cursor !== undefined && paging.has('skip')) {
    problems.push({ parameter: 'cursor', message: 'continues a list where it stopped: send it without skip' });
  }

  if (problems.length > 0) throw new ValidationError(problems);
  // AND does not depend on order, so neither does the list a cursor is bound to.
  terms.sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : x > y ? 1 : 0) : a < b ? -1 : 1));
  // A clause sent twice asks nothing more; kept twice, it hid the list's shape from the counters.
  return { filters: distinctClauses(filters), sort, skip, limit, terms, ...(cursor !== undefined ? { cursor } : {}) };
}

/** `me` in an exact comparison of a person's id is the caller; in a `*` search it is text. */
function meAs(clause: Clause, callerId: string): Clause {
  if (clause.type !== 'string' || clause.op === '*') return clause;
  return { ...clause, values: clause.values.map((v) => (v === ME ? callerId : v)) };
}

function parsePagingInteger(value: string | undefined, name: string, fallback: number, problems: Problem[]): number {
  if (value === undefined) return fallback;
  if (!INTEGER.test(value)) {
    problems.push({ parameter: name, message: value === '' ? 'must not be empty' : 'must be a non-negative integer' });
    return fallback;
  }
  // Digits beyond any safe integer are still a number, just far out of range.
  return Math.min(Number(value), Number.MAX_SAFE_INTEGER);
}

function parseSort(value: string | undefined, problems: Problem[]): Sort | undefined {
  if (value === undefined) return undefined;
  const descending = value.startsWith('-');
  const name = descending ? value.slice(1) : value;
  const field = fieldsByName.get(name);
  if (!field || field.type === 'boolean') {
    problems.push({
      parameter: 'sort',
      message: value === '' ? 'must not be empty' : `cannot sort by '${clip(name)}'`,
    });
    return undefined;
  }
  return { field, descending };
}

/** One `<parameter>=<operator><value>`; no operator means equal, `==` is an explicit equal. */
export function parseClause(field: FieldSpec, raw: string): Clause {
  const first = raw.charAt(0);
  const op = (OPERATORS.has(first) ? first : '=') as Operator;
  const text = OPERATORS.has(first) ? raw.slice(1) : raw;
  const fail = (message: string): never => {
    throw new ValidationError([{ parameter: field.name, message }]);
  };
  const items = op === '~' ? splitList(text) : [text];
  if (items.length > queryLimits.maxInValues) fail(`'~' takes at most ${queryLimits.maxInValues} values`);
  // The limit is per value: a list of 100 ids or dates is longer than any one value may be.
  if (items.some((v) => v.length > queryLimits.maxValueLength)) {
    fail(`a value may be at most ${queryLimits.maxValueLength} characters`);
  }

  switch (field.type) {
    case 'text':
    case 'string': {
      if (op === '*' && text === '') fail("'*' needs some text to search for");
      // Compared with the stored case-insensitive copies: folded by the one fold (`foldForComparison`), like them.
      const values = field.type === 'text' || op === '*' ? items.map(foldForComparison) : items;
      return { field, type: field.type, op, values };
    }
    case 'integer': {
      if (op === '*') fail("'*' (like) does not apply to numbers");
      const values = items.map((v) =>
        INTEGER.test(v) && v.length <= 15 ? Number(v) : fail(`'${clip(v)}' is not a non-negative integer`),
      );
      return { field, type: 'integer', op: op as Exclude<Operator, '*'>, values };
    }
    case 'boolean': {
      if (op !== '=' || (text !== 'true' && text !== 'false')) fail("must be 'true' or 'false' ('=' only)");
      return { field, type: 'boolean', op: '=', values: [text === 'true'] };
    }
    case 'date': {
      if (op === '*') fail("'*' (like) does not apply to dates");
      const values = items.map(
        (v) => parseDateValue(v) ?? fail(`'${clip(v)}' is not an ISO 8601 date or date-time with an offset`),
      );
      return { field, type: 'date', op: op as Exclude<Operator, '*'>, values };
    }
  }
}

function parseDateValue(text: string): DateValue | undefined {
  const day = parseDay(text);
  if (day) return { kind: 'day', prefix: text, start: day.start, end: day.end };
  const at = parseDateTime(text);
  return at ? { kind: 'instant', at } : undefined;
}

/** Splits a `~` list on commas; `\,` is a literal comma and `\\` a literal backslash. */
export function splitList(text: string): string[] {
  const values: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && (text[i + 1] === ',' || text[i + 1] === '\\')) {
      current += text[i + 1];
      i++;
    } else if (c === ',') {
      values.push(current);
      current = '';
    } else {
      current += c;
    }
  }
  values.push(current);
  return values;
}
