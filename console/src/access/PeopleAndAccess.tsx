import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import type { Grant } from '../api-pending';
import { FormAlert } from '../fields';
import { nextPage, previousPage } from '../list-query';
import { isAdmin, me } from '../me';
import { announce, notice } from '../notice';
import { messagesOf, problemOf } from '../problem';
import { address, navigate } from '../router';
import { formatTime } from '../time';
import type { Problem } from '../types';
import { GrantForm } from './GrantForm';
import { grantInWords, principalInWords, roleName, scopeInWords } from './grant-words';

const PAGE_SIZE = 50;

interface Page {
  grants: Grant[];
  nextCursor?: string;
}

/**
 * People and access (`/access`, contract section 14), for admins: the grants inside their admin
 * scopes (who, role, scope) with Revoke, and Grant access. The page's cursor is in the address.
 */
export function PeopleAndAccess() {
  const [page, setPage] = useState<Page | Problem | undefined>();
  const params = address.value.searchParams;
  const cursor = params.get('cursor') ?? undefined;

  const load = async () => {
    const { data, error, response } = await api.GET('/api/grants', {
      params: { query: { limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) } },
    });
    setPage(data ?? problemOf(error, response));
  };
  useEffect(() => {
    void load();
  }, [cursor]);
  useEffect(() => {
    notice.value = '';
  }, []);

  const revoke = async (grant: Grant) => {
    const { error, response } = await api.DELETE('/api/grants/{id}', { params: { path: { id: grant.id } } });
    announce(error ? problemOf(error, response).detail : `Revoked: ${grantInWords(grant)}.`);
    await load();
  };
  const go = (to: URLSearchParams | undefined) => to && navigate(`/access${to.toString() ? `?${to}` : ''}`);

  const heading = (
    <h1 id="access-heading" tabIndex={-1}>
      People and access
    </h1>
  );
  if (me.value && !isAdmin(me.value))
    return (
      <>
        {heading}
        <p>Only an administrator grants and revokes access. You have no admin role.</p>
      </>
    );
  const grants = page && 'grants' in page ? page.grants : [];
  return (
    <>
      {heading}
      <p role="status" class="notice">
        {notice.value}
      </p>
      <GrantForm granted={grants} onGranted={load} />
      <h2 id="grants-heading">Grants</h2>
      {page && !('grants' in page) ? <FormAlert messages={messagesOf(page)} /> : null}
      {!page ? (
        <p class="count" aria-live="polite">
          Loading…
        </p>
      ) : null}
      <div class="table-wrap">
        <table aria-labelledby="grants-heading">
          <thead>
            <tr>
              <th scope="col">Who</th>
              <th scope="col">Role</th>
              <th scope="col">Scope</th>
              <th scope="col">Granted</th>
              <th scope="col">
                <span class="visually-hidden">Revoke</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {grants.map((grant) => (
              <tr key={grant.id}>
                <td data-label="Who">{principalInWords(grant.principal)}</td>
                <td data-label="Role">{roleName(grant.role)}</td>
                <td data-label="Scope">{scopeInWords(grant.scope)}</td>
                <td data-label="Granted">
                  {grant.createdAt ? formatTime(grant.createdAt) : '—'}
                  {grant.grantedBy ? ` by ${grant.grantedBy.name}` : ''}
                </td>
                <td>
                  <button
                    type="button"
                    class="secondary"
                    aria-label={`Revoke ${grantInWords(grant)}`}
                    onClick={() => revoke(grant)}
                  >
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
            {page && 'grants' in page && grants.length === 0 ? (
              <tr>
                <td colSpan={5}>No grants yet.</td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
      <nav aria-label="Pages" class="pages">
        <button type="button" disabled={!cursor} onClick={() => go(previousPage(params))}>
          Previous page
        </button>
        <button
          type="button"
          disabled={!(page && 'grants' in page && page.nextCursor)}
          onClick={() => page && 'grants' in page && page.nextCursor && go(nextPage(params, page.nextCursor))}
        >
          Next page
        </button>
      </nav>
    </>
  );
}
