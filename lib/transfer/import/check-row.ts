import { ValidationError } from '../../errors';
import { includes, roleAt, type Viewer } from '../../model/access';
import { type Location, locationFields } from '../../model/action';
import { type CreateActionBody, createActionSchema, validateBody } from '../../model/validation';
import { columnOf } from './columns';

/**
 * One row, checked exactly as `POST /api/actions` checks a body (the same `validateBody` with the
 * same schema, so a problem reads in the API's own words) and, in `ACCESS=scoped`, against the
 * importer's roles: they must be a manager of the row's location (section 18; an admin of `{}`
 * manages everything).
 */

/** One thing wrong with one row: `row` counts the header as row 1. */
export interface RowProblem {
  row: number;
  column: string;
  problem: string;
}

export type CheckedRow =
  | { ok: true; body: Record<string, unknown>; input: CreateActionBody }
  | { ok: false; problems: RowProblem[] };

/** The refusal a scoped importer gets for a row outside what they manage. */
export const NOT_A_MANAGER = 'you are not a manager of this location, so you may not import actions into it';

export function checkRow(row: number, body: Record<string, unknown>, importer: Viewer): CheckedRow {
  let input: CreateActionBody;
  try {
    input = validateBody(createActionSchema, body);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    // A row has fewer columns than the 20 problems an error lists, so every problem is here.
    const problems = (error.errors ?? []).map((p) => ({
      row,
      column: columnOf(p.field ?? p.parameter),
      problem: p.message,
    }));
    return { ok: false, problems };
  }
  if (importer.mode === 'scoped') {
    const location = Object.fromEntries(locationFields.map((f) => [f, input.location?.[f] ?? ''])) as Location;
    if (!includes(roleAt(importer, location), 'manager')) {
      // The deepest location field the row gives is the one that put it outside the importer's scopes.
      const deepest = [...locationFields].reverse().find((f) => location[f] !== '') ?? 'businessUnit';
      const column = `location.${deepest}`;
      return { ok: false, problems: [{ row, column, problem: NOT_A_MANAGER }] };
    }
  }
  return { ok: true, body, input };
}
