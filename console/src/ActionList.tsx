import { useEffect, useState } from 'preact/hooks';
import { actionPath, LIST_VIEWS, type ListView } from '../routes';
import { knownLocations } from './access/locations';
import { api } from './api';
import { FieldErrors, FormAlert } from './fields';
import { ExportList } from './import/ExportList';
import {
  apiQuery,
  currentSort,
  FILTERS,
  type Filter,
  listFilters,
  nextPage,
  previousPage,
  SORTABLE,
  withFilters,
} from './list-query';
import { me } from './me';
import { nameOf } from './people';
import { problemOf } from './problem';
import { address, navigate } from './router';
import { STATUSES, statusName } from './statuses';
import { formatTime } from './time';
import type { Action, Problem } from './types';

interface Page {
  actions: Action[];
  totalCount: number;
  lowerBound: boolean;
  nextCursor?: string;
}

/** Which address filter an API parameter's error belongs beside. */
const FILTER_OF: Record<string, Filter> = {
  title: 'q',
  status: 'status',
  priority: 'priority',
  'location.site': 'site',
  assignee: 'assignee',
  dueAt: 'from',
};

const FILTER_LABELS: Record<Exclude<Filter, 'q'>, string> = {
  status: 'Status',
  priority: 'Priority',
  site: 'Site',
  assignee: 'Assignee',
  from: 'Due from',
  to: 'Due to',
};

const go = (params: URLSearchParams) => {
  const query = params.toString();
  navigate(`${address.value.pathname}${query ? `?${query}` : ''}`);
};

/** One list of actions (My actions, Overdue, Due soon, All actions): one API call per page. */
export function ActionList({ view }: { view: ListView }) {
  const params = address.value.searchParams;
  const key = `${view}?${params}`;
  const [page, setPage] = useState<Page | undefined>();
  const [problem, setProblem] = useState<Problem | undefined>();
  const [loading, setLoading] = useState(true);

  useEffect(() => {
    let current = true;
    setLoading(true);
    const query = apiQuery(view, params);
    void api
      .GET('/api/actions', { params: { query: {} }, querySerializer: () => new URLSearchParams(query).toString() })
      .then(({ data, error }) => {
        if (!current) return;
        setLoading(false);
        setProblem(error ? problemOf(error) : undefined);
        if (data) {
          const relation = (data as { totalCountRelation?: string }).totalCountRelation;
          setPage({
            actions: data.actions,
            totalCount: data.totalCount,
            lowerBound: relation === 'gte',
            nextCursor: data.nextCursor,
          });
        } else setPage(undefined);
      });
    return () => {
      current = false;
    };
  }, [key]);

  const sort = currentSort(view, params);
  const errors: Partial<Record<Filter, string[]>> = {};
  const unplaced: string[] = [];
  for (const error of problem?.errors ?? []) {
    const filter = FILTER_OF[error.parameter ?? ''];
    if (filter) errors[filter] = [...(errors[filter] ?? []), error.message];
    else unplaced.push(error.message);
  }
  if (problem && !problem.errors?.length) unplaced.push(problem.detail || problem.title);

  const applyFilters = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    go(
      withFilters(
        params,
        Object.fromEntries(FILTERS.filter((f) => f !== 'q').map((f) => [f, String(form.get(f) ?? '')])),
      ),
    );
  };
  const clearFilters = () => go(withFilters(params, Object.fromEntries(FILTERS.map((f) => [f, '']))));
  const previous = previousPage(params);
  const count = page
    ? `${page.totalCount}${page.lowerBound ? '+' : ''} action${page.totalCount === 1 && !page.lowerBound ? '' : 's'}`
    : '';
  const searched = params.get('q');
  // The site picker offers the sites the person sees: those of their grants and of the actions listed.
  const known = knownLocations([
    ...(me.value?.grants ?? []).map((grant) => grant.scope),
    ...(page?.actions ?? []).map((action) => action.location),
  ]);
  const sites = [...new Set(Object.values(known.sitesOf).flat())].sort();

  return (
    <>
      <h1 id="list-heading" tabIndex={-1}>
        {LIST_VIEWS[view].label}
      </h1>
      {searched ? <p>Titles containing “{searched}”</p> : null}
      <details class="filters" open={FILTERS.some((f) => f !== 'q' && params.get(f)) || Object.keys(errors).length > 0}>
        <summary>Filters</summary>
        <form key={key} onSubmit={applyFilters} aria-label="Filters">
          <div class="filter-grid">
            {(Object.keys(FILTER_LABELS) as (keyof typeof FILTER_LABELS)[]).map((name) => {
              const id = `filter-${name}`;
              const messages = errors[name];
              const common = {
                id,
                name,
                'aria-invalid': messages ? true : undefined,
                'aria-describedby': messages ? `${id}-errors` : undefined,
              };
              const value = params.get(name) ?? '';
              return (
                <div class="field" key={name}>
                  <label for={id}>{FILTER_LABELS[name]}</label>
                  {name === 'status' ? (
                    <select {...common} defaultValue={value}>
                      <option value="">Any status</option>
                      {STATUSES.map((s) => (
                        <option key={s.value} value={s.value}>
                          {s.name}
                        </option>
                      ))}
                    </select>
                  ) : (
                    <input
                      {...common}
                      // Preact types each input type apart; the union of three is fine for the DOM.
                      type={
                        (name === 'from' || name === 'to' ? 'date' : name === 'priority' ? 'number' : 'text') as 'text'
                      }
                      min={name === 'priority' ? 0 : undefined}
                      defaultValue={value}
                      placeholder={name === 'assignee' ? 'user id, or me' : undefined}
                      list={name === 'site' ? 'known-sites' : undefined}
                    />
                  )}
                  <FieldErrors id={`${id}-errors`} messages={messages} />
                </div>
              );
            })}
          </div>
          <datalist id="known-sites">
            {sites.map((site) => (
              <option key={site} value={site} />
            ))}
          </datalist>
          <div class="buttons">
            <button type="submit">Apply filters</button>
            <button type="button" class="secondary" onClick={clearFilters}>
              Clear filters
            </button>
          </div>
        </form>
      </details>
      <ExportList list={key} query={() => listFilters(view, params)} />
      <FormAlert messages={unplaced.length ? unplaced : undefined} />
      <p class="count" aria-live="polite">
        {loading ? 'Loading…' : count}
      </p>
      <div class="table-wrap" aria-busy={loading}>
        <table aria-labelledby="list-heading">
          <thead>
            <tr>
              {(Object.entries(SORTABLE) as [keyof typeof SORTABLE, string][]).map(([label, field]) => {
                const direction = sort === field ? 'ascending' : sort === `-${field}` ? 'descending' : undefined;
                const nextSort = direction === 'ascending' ? `-${field}` : field;
                return (
                  <th key={label} scope="col" aria-sort={direction ?? 'none'}>
                    <button type="button" class="sort" onClick={() => go(withFilters(params, { sort: nextSort }))}>
                      {label}
                      <span aria-hidden="true">
                        {direction === 'ascending' ? ' ▲' : direction === 'descending' ? ' ▼' : ''}
                      </span>
                    </button>
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {page?.actions.map((action) => (
              <tr key={action.id} class={action.overdue ? 'overdue' : undefined}>
                <td data-label="Title">
                  <a href={actionPath(action.id)}>{action.title}</a>
                </td>
                <td data-label="Status">
                  {statusName(action.status)}
                  {action.overdue ? <strong class="flag">Overdue</strong> : null}
                </td>
                <td data-label="Priority">{action.priority}</td>
                <td data-label="Due">{formatTime(action.dueAt)}</td>
                <td data-label="Assignee">{nameOf(action.assignee, 'Unassigned')}</td>
                <td data-label="Site">{action.location.site || '—'}</td>
              </tr>
            ))}
            {page && page.actions.length === 0 ? (
              <tr>
                <td colSpan={6}>No actions match.</td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
      <nav aria-label="Pages" class="pages">
        <button type="button" disabled={!previous} onClick={() => previous && go(previous)}>
          Previous page
        </button>
        {/* While a new sort or filter loads, the cursor shown is the last list's: no next page from it. */}
        <button
          type="button"
          disabled={loading || !page?.nextCursor}
          onClick={() => !loading && page?.nextCursor && go(nextPage(params, page.nextCursor))}
        >
          Next page
        </button>
      </nav>
    </>
  );
}
