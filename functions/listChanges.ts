import { listChanges } from '../lib/actions/changes';
import { api, json } from '../lib/http/edge';

/** GET /api/changes: every history entry of every action, in pages a poller follows with `after`. */
export const handler = api({ reads: true }).handler(async (event) =>
  json(200, await listChanges(event.rawQueryString ?? '', event.viewer, event.usage)),
);
