import { ValidationError } from '../../../errors';
import type { FieldSpec } from '../../../filter/fields';
import type { Clause, DateValue } from '../../../filter/query';
import { foldForComparison } from '../../../text';
import { attributeOf, type StoredClause, storedField } from '../../fields';
import { type Item, valueAt } from '../../item';

/**
 * Turns filter clauses into a DynamoDB filter expression. Every attribute name and every value
 * goes through a placeholder, so no client text ever becomes part of an expression string.
 */

/** DynamoDB's own limits on one expression. */
export const expressionLimits = { maxLength: 4_096, maxOperators: 300, maxInOperands: 100 } as const;

export class Placeholders {
  readonly names: Record<string, string> = {};
  readonly values: Record<string, unknown> = {};
  private readonly nameOf = new Map<string, string>();
  private valueCount = 0;
  /** Operators and functions used so far, counted as DynamoDB counts them. */
  operators = 0;

  /** A placeholder for an attribute path such as `f.st` (one placeholder per segment). */
  name(path: string): string {
    return path
      .split('.')
      .map((segment) => {
        let placeholder = this.nameOf.get(segment);
        if (!placeholder) {
          placeholder = `#n${this.nameOf.size}`;
          this.nameOf.set(segment, placeholder);
          this.names[placeholder] = segment;
        }
        return placeholder;
      })
      .join('.');
  }

  value(value: unknown): string {
    const placeholder = `:v${this.valueCount++}`;
    this.values[placeholder] = value;
    return placeholder;
  }

  op<T>(count: number, expression: T): T {
    this.operators += count;
    return expression;
  }
}

const COMPARATOR = { '=': '=', '!': '<>', '<': '<', '>': '>' } as const;

const tooComplex = () =>
  new ValidationError([
    { parameter: 'query', message: 'the filters are too complex; use fewer filters or fewer values' },
  ]);

/** `a IN (...)`; DynamoDB takes at most 100 operands after `IN`. */
function inList(a: string, values: readonly unknown[], p: Placeholders): string {
  if (values.length > expressionLimits.maxInOperands) throw tooComplex();
  return p.op(1, `${a} IN (${values.map((v) => p.value(v)).join(', ')})`);
}

/** The expression for one clause. */
export function clauseExpression(clause: StoredClause, p: Placeholders): string {
  const a = p.name(attributeOf(clause));
  if (clause.type === 'date') return dateExpression(a, clause.op, clause.values, p);
  // A flag is stored only while it holds (`overdue`), so it is a test of presence.
  if (clause.type === 'boolean')
    return p.op(1, `${clause.values[0] ? 'attribute_exists' : 'attribute_not_exists'}(${a})`);
  if (clause.op === '~') {
    // The embedded store's IN never matches an empty string (DynamoDB's does); `= ''` works in both.
    const values = (clause.values as Array<string | number>).filter((v) => v !== '');
    if (values.length === clause.values.length) return inList(a, values, p);
    const empty = p.op(1, `${a} = ${p.value('')}`);
    return values.length === 0 ? empty : p.op(1, `(${inList(a, values, p)} OR ${empty})`);
  }
  const [value] = clause.values as [string | number];
  if (clause.op === '*') {
    // Case-insensitive: the lower-case copy exists only when the value had upper-case letters.
    const v = p.value(value);
    const lower = storedField(clause.field).lowerAttribute;
    return lower
      ? p.op(3, `(contains(${p.name(lower)}, ${v}) OR contains(${a}, ${v}))`)
      : p.op(1, `contains(${a}, ${v})`);
  }
  return p.op(1, `${a} ${COMPARATOR[clause.op]} ${p.value(value)}`);
}

/** Stored times are canonical, so a day is a prefix and string order is time order. */
function dateExpression(a: string, op: Clause['op'], values: DateValue[], p: Placeholders): string {
  const [first] = values as [DateValue];
  switch (op) {
    case '=':
      return within(a, first, p);
    case '!':
      return p.op(1, `NOT ${within(a, first, p)}`);
    case '<':
      return p.op(1, `${a} < ${p.value(first.kind === 'day' ? first.start : first.at)}`);
    case '>':
      return first.kind === 'day' ? p.op(1, `${a} >= ${p.value(first.end)}`) : p.op(1, `${a} > ${p.value(first.at)}`);
    case '~': {
      const instants = values.flatMap((v) => (v.kind === 'instant' ? [v.at] : []));
      const parts = values.flatMap((v) => (v.kind === 'day' ? [within(a, v, p)] : []));
      if (instants.length > 0) parts.push(inList(a, instants, p));
      return parts.length === 1 ? (parts[0] as string) : p.op(parts.length - 1, `(${parts.join(' OR ')})`);
    }
  }
  throw new Error(`unreachable date operator ${op}`);
}

const within = (a: string, v: DateValue, p: Placeholders) =>
  v.kind === 'day' ? p.op(1, `begins_with(${a}, ${p.value(v.prefix)})`) : p.op(1, `${a} = ${p.value(v.at)}`);

/** All clauses ANDed, or `undefined` when there are none. Refuses what DynamoDB would refuse. */
export function filterExpression(clauses: StoredClause[], p: Placeholders): string | undefined {
  if (clauses.length === 0) return undefined;
  const parts = clauses.map((c) => clauseExpression(c, p));
  const expression = parts.length === 1 ? (parts[0] as string) : p.op(parts.length - 1, parts.join(' AND '));
  if (expression.length > expressionLimits.maxLength || p.operators > expressionLimits.maxOperators) {
    throw tooComplex();
  }
  return expression;
}

/** Code point order, as DynamoDB compares strings (by UTF-8 bytes); numbers as numbers. */
function compareStored(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return Buffer.compare(Buffer.from(String(a)), Buffer.from(String(b)));
}

/**
 * Whether a stored item matches one clause, in memory, with the meaning `clauseExpression` gives
 * the same clause in DynamoDB (a missing attribute, or one of another type, is unequal to any
 * value and matches no other comparison): for a walk that reads
 * an index holding only keys and fetches the actions to filter them.
 */
export function clauseHolds(clause: StoredClause, item: Record<string, unknown>): boolean {
  const a = valueAt(item, attributeOf(clause));
  if (clause.type === 'boolean') return (a !== undefined) === clause.values[0];
  if (a === undefined) return clause.op === '!';
  if (clause.type === 'date') {
    const at = String(a);
    const within = (v: DateValue) => (v.kind === 'day' ? at.startsWith(v.prefix) : at === v.at);
    const [first] = clause.values as [DateValue];
    switch (clause.op) {
      case '=':
        return within(first);
      case '!':
        return !within(first);
      case '<':
        return at < (first.kind === 'day' ? first.start : first.at);
      case '>':
        return first.kind === 'day' ? at >= first.end : at > first.at;
      case '~':
        return clause.values.some(within);
    }
  }
  const values = clause.values as Array<string | number>;
  if (clause.op === '~') return values.some((v) => compareStored(a, v) === 0 && typeof a === typeof v);
  const [value] = values as [string | number];
  if (clause.op === '*') {
    const lower = storedField(clause.field).lowerAttribute;
    const folded = lower === undefined ? undefined : valueAt(item, lower);
    return String(a).includes(String(value)) || (typeof folded === 'string' && folded.includes(String(value)));
  }
  if (typeof a !== typeof value) return clause.op === '!';
  const order = compareStored(a, value);
  return clause.op === '=' ? order === 0 : clause.op === '!' ? order !== 0 : clause.op === '<' ? order < 0 : order > 0;
}

/**
 * Whether every clause on `field` holds for this value (clauses on other fields are not asked),
 * judged as the filter judges a stored action: on the value, and for `*` on a string its folded
 * copy too. Any counted field's value, an integer or a registered string. Pure.
 */
export function valueHolds(clauses: Clause[], field: FieldSpec, value: string | number): boolean {
  const { attribute, lowerAttribute } = storedField(field);
  // Filter values live in the `f` map: each path is `f.<key>`.
  const item: Record<string, Record<string, unknown>> = {};
  const put = (path: string, v: unknown) => {
    const [map, key] = path.split('.') as [string, string];
    item[map] = { ...item[map], [key]: v };
  };
  put(attribute, value);
  if (typeof value === 'string' && lowerAttribute && foldForComparison(value) !== value)
    put(lowerAttribute, foldForComparison(value));
  return clauses.filter((c) => c.field.name === field.name).every((c) => clauseHolds(c, item as Item));
}
