import { matchPath, routes } from '../infra/routes';
import { HttpError, NotFoundError } from '../lib/errors';
import { api } from '../lib/http';

/** Any request no route matches: 405 with `Allow` for a known path, else 404. */
export const handler = api({ public: true }).handler(async (event) => {
  const allowed = routes.filter((r) => matchPath(r.path, event.rawPath)).map((r) => r.method);
  if (allowed.length > 0) {
    throw new HttpError(
      405,
      'Method Not Allowed',
      `${event.requestContext.http.method} is not supported here.`,
      'method-not-allowed',
      undefined,
      {
        allow: allowed.join(', '),
      },
    );
  }
  throw new NotFoundError(`Nothing is served at ${event.rawPath}.`);
});
