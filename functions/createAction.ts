import { createAction } from '../lib/actions';
import { api, json } from '../lib/http';

/** POST /api/actions: 201 with the new action's id. */
export const handler = api({ body: 'json' }).handler(async (event) => {
  const action = await createAction(event.caller, event.body);
  return json(201, { id: action.id }, { location: `/api/actions/${action.id}` });
});
