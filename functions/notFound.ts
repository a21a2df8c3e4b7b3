import { clip, MethodNotAllowedError, NotFoundError } from '../lib/errors';
import { api } from '../lib/http/edge';
import { matchPath, routes } from '../lib/http/routes';

/** Any request no route matches: 405 with `Allow` for a known path, else 404. */
export const handler = api({ public: true }).handler(async (event) => {
  const allowed = routes.filter((r) => matchPath(r.path, event.rawPath)).map((r) => r.method);
  if (allowed.length > 0) throw new MethodNotAllowedError(event.requestContext.http.method, allowed);
  throw new NotFoundError(`Nothing is served at ${clip(event.rawPath)}.`);
});
