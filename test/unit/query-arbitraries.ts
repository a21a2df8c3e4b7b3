import fc from 'fast-check';
import { ValidationError } from '../../lib/errors';
import { fields } from '../../lib/filter/fields';
import { type ListQuery, parseListQuery } from '../../lib/filter/query';

/**
 * Query strings for property tests: arbitrary ones (shaped like real ones, and junk), ones that
 * parse, and one clause per field that parses. The filter language's properties
 * (filter-properties.test.ts) and the planner's (store/list/plan.test.ts) draw from them.
 */

// ---------------------------------------------------------------------------------- generators

/** A lone surrogate: valid in a JavaScript string, not in UTF-8 or in encodeURIComponent. */
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
export const anyText = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
  fc.string({ unit: fc.oneof(fc.constantFrom(',', '\\', '%', '&', '=', '+', '#', '~', '*'), loneSurrogate) }),
);

const isoDate = fc
  .date({ min: new Date(Date.UTC(-1, 0, 1)), max: new Date(Date.UTC(10000, 0, 1)), noInvalidDate: true })
  .map((d) => d.toISOString());
const offset = fc.oneof(
  fc.constant('Z'),
  fc
    .tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 25 }), fc.integer({ min: 0, max: 61 }))
    .map(([sign, h, m]) => `${sign}${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`),
);
const dateText = fc.oneof(
  isoDate,
  isoDate.map((iso) => iso.slice(0, 10)),
  fc.tuple(isoDate, offset).map(([iso, zone]) => iso.slice(0, 19) + zone),
  fc.tuple(isoDate, fc.stringMatching(/^\.\d{1,9}$/), offset).map(([iso, f, z]) => iso.slice(0, 19) + f + z),
  fc
    .tuple(fc.integer({ min: 0, max: 10000 }), fc.integer({ min: 0, max: 14 }), fc.integer({ min: 0, max: 33 }))
    .map(([y, m, d]) => `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`),
);
const numberText = fc.oneof(
  fc.nat({ max: 20 }).map(String),
  fc.integer({ min: -1000, max: Number.MAX_SAFE_INTEGER }).map(String),
  fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String),
  fc.double().map(String),
);
const scalar = fc.oneof(anyText, dateText, numberText);
export const escapeListValue = (v: string) => v.replace(/[\\,]/g, '\\$&');
const list = fc
  .array(scalar, { maxLength: 105 })
  .chain((values) => fc.constantFrom(values.map(escapeListValue).join(','), values.join(',')));

const names = [...fields.map((f) => f.name), 'skip', 'limit', 'sort'];
const parameterName = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...names) },
  { weight: 1, arbitrary: fc.constantFrom('Title', 'location.', 'location', '__proto__', 'constructor', '', 'a.b.c') },
  { weight: 1, arbitrary: anyText },
);
const operator = fc.constantFrom('', '=', '==', '!', '*', '<', '>', '~', '=!', '!=', '~~', '*=');
const sortValue = fc
  .tuple(fc.constantFrom('', '-', '--', '+'), fc.constantFrom(...names, 'nope', ''))
  .map(([p, n]) => p + n);
const value = fc.oneof(
  fc.tuple(operator, fc.oneof(scalar, list)).map(([op, v]) => op + v),
  sortValue,
  numberText,
);

/** Percent-encodes as a careful client would, or not at all, or half-way. */
function encodeText(text: string, how: number): string {
  if (how === 0) return text;
  try {
    return how === 1 ? encodeURIComponent(text) : text.replace(/[&=+#%]/g, (c) => encodeURIComponent(c));
  } catch {
    return text; // a lone surrogate cannot be encoded: send it raw
  }
}

const pair = fc
  .tuple(parameterName, value, fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 2 }))
  .map(([name, v, hn, hv]) => `${encodeText(name, hn)}=${encodeText(v, hv)}`);

/** Query strings shaped like real ones, and pure junk. */
export const queryString = fc.oneof(
  { weight: 6, arbitrary: fc.array(pair, { maxLength: 25 }).map((pairs) => pairs.join('&')) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
  {
    weight: 1,
    arbitrary: fc.string({
      unit: fc.constantFrom('&', '=', '%', '2', 'B', 'title', '~', ',', '\\', '+', 'limit', 'skip', 'sort', '-'),
    }),
  },
);

/** One clause that parses: an operator the field takes and values of its type. */
const wellFormedClause = fc.constantFrom(...fields).chain((f) => {
  // A flag: `true` or `false`, `=` only.
  if (f.type === 'boolean')
    return fc
      .tuple(fc.constantFrom('', '='), fc.boolean())
      .map(([op, value]) => `${f.name}=${encodeText(op + String(value), 1)}`);
  const ops =
    f.type === 'integer' || f.type === 'date' ? ['', '=', '!', '<', '>', '~'] : ['', '=', '!', '*', '<', '>', '~'];
  const one =
    f.type === 'integer'
      ? fc.nat({ max: 12 }).map(String)
      : f.type === 'date'
        ? fc
            .oneof(
              isoDate.map((iso) => iso.slice(0, 10)),
              isoDate,
            )
            .filter((d) => /^\d{4}-/.test(d))
        : fc.oneof(
            fc.constantFrom('', 'North Pit', 'undefined', 'Ann', 'a,b', 'c\\d'),
            fc.string({ maxLength: 12 }),
            fc.string({ unit: 'binary', maxLength: 12 }),
            fc.string({ unit: 'grapheme', maxLength: 6 }),
          );
  return fc.tuple(fc.constantFrom(...ops), fc.array(one, { minLength: 1, maxLength: 4 })).map(([op, values]) => {
    const value = op === '~' ? values.map(escapeListValue).join(',') : values[0] || (op === '*' ? 'x' : '');
    // Without an operator, a value that starts with one needs the explicit `==`.
    const operator = op === '' && /^[=!*<>~]/.test(value) ? '=' : op;
    return `${f.name}=${encodeText(operator + value, 1)}`;
  });
});
export const wellFormedQuery = fc
  .tuple(
    fc.array(wellFormedClause, { maxLength: 6 }),
    fc.option(
      fc.tuple(
        fc.constantFrom('', '-'),
        fc.constantFrom(...fields.filter((f) => f.type !== 'boolean').map((f) => f.name)),
      ),
    ),
    fc.option(fc.nat({ max: 500 })),
    fc.option(fc.nat({ max: 100 })),
  )
  .map(([clauses, sort, skip, limit]) =>
    [
      ...clauses,
      ...(sort ? [`sort=${sort.join('')}`] : []),
      ...(skip !== null ? [`skip=${skip}`] : []),
      ...(limit !== null ? [`limit=${limit}`] : []),
    ].join('&'),
  );

/** Query strings that parse, to exercise the planner and the expressions. */
export const validQuery = fc.oneof(
  wellFormedQuery,
  queryString.filter((q) => !(parse(q) instanceof ValidationError)),
);

export const parse = (q: string): ListQuery | ValidationError => {
  try {
    return parseListQuery(q);
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
};
