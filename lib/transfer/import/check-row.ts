import { ValidationError } from '../../errors';
import { includes, roleAt, scopeFields, type Viewer } from '../../model/access';
import { type Location, locationFields } from '../../model/action';
import { validateBody } from '../../model/validate-body';
import { type CreateActionBody, createActionSchema } from '../../model/validation';
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
      const column = `location.${outsideAt(importer, location)}`;
      return { ok: false, problems: [{ row, column, problem: NOT_A_MANAGER }] };
    }
  }
  return { ok: true, body, input };
}

/**
 * The location field that puts a row outside what the importer manages: where it leaves the
 * managed scope it follows furthest (a manager of North Pit importing into South Pit: `site`).
 */
function outsideAt(importer: Viewer, location: Location): string {
  let furthest = 0;
  for (const { role, scope } of importer.roles) {
    if (!includes(role, 'manager')) continue;
    const fields = scopeFields(scope);
    const leaves = fields.findIndex((f) => location[f] !== scope[f]);
    furthest = Math.max(furthest, leaves < 0 ? fields.length : leaves);
  }
  return locationFields[Math.min(furthest, locationFields.length - 1)] as string;
}
