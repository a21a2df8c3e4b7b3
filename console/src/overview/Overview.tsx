import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import type { Counts, TrendBucket } from '../api-pending';
import { FormAlert } from '../fields';
import { messagesOf, problemOf } from '../problem';
import { address } from '../router';
import { formatDay, formatTime } from '../time';
import { type BarRow, BarTable, Count, WeekChart } from './charts';
import {
  AGES,
  ageFilters,
  closedIn,
  createdIn,
  type Filters,
  LEVELS,
  levelName,
  listPath,
  meanDays,
  nextLevel,
  OPEN,
  OVERDUE,
  overviewPath,
  percent,
  scopeOf,
  tileFilters,
  trendQuery,
  trendWindow,
  utcDay,
} from './overview-query';

/**
 * The Overview (`/overview`, contract section 17): where things stand for what the person sees,
 * in a scope picked by drilling down the location hierarchy (the scope is in the address). Every
 * number is a link to the list it counts; every chart's numbers are in a table.
 */

const serialize = (filters: Filters) => () => new URLSearchParams(filters).toString();

/** A refusal's words, each error with the parameter it names ("closedAt: is not a known parameter"). */
const wordsOf = (error: unknown, response: Response): string[] => {
  const problem = problemOf(error, response);
  if (!problem.errors?.length) return messagesOf(problem);
  return problem.errors.map((e) =>
    e.parameter && !e.message.includes(e.parameter) ? `${e.parameter}: ${e.message}` : e.message,
  );
};
const DAY_MS = 86_400_000;

interface Data {
  now: Date;
  tiles: Partial<Record<keyof ReturnType<typeof tileFilters>, number>>;
  byLevel?: Counts;
  byAge?: Counts;
  weeks?: TrendBucket[];
  days?: TrendBucket[];
  problems: string[];
}

async function count(filters: Filters, problems: string[]): Promise<number | undefined> {
  const { data, error, response } = await api.GET('/api/actions', {
    params: { query: {} },
    querySerializer: serialize([...filters, ['limit', '0']]),
  });
  if (!data) problems.push(...wordsOf(error, response));
  return data?.totalCount;
}

async function counts(filters: Filters, problems: string[]): Promise<Counts | undefined> {
  const { data, error, response } = await api.GET('/api/actions/counts', {
    params: { query: {} as never }, // the whole query is serialized below
    querySerializer: serialize(filters),
  });
  if (!data) problems.push(...wordsOf(error, response));
  return data;
}

async function trends(filters: Filters, problems: string[]): Promise<TrendBucket[] | undefined> {
  const { data, error, response } = await api.GET('/api/actions/trends', {
    params: { query: {} as never }, // the whole query is serialized below
    querySerializer: serialize(filters),
  });
  if (!data) problems.push(...wordsOf(error, response));
  return data?.buckets;
}

async function load(scope: Filters): Promise<Data> {
  const now = new Date();
  const problems: string[] = [];
  const tiles = tileFilters(scope, now);
  const level = nextLevel(scope);
  const week = trendWindow(now);
  const [open, overdue, dueSoon, closed30, closed90, byLevel, byAge, weeks, days] = await Promise.all([
    count(tiles.open, problems),
    count(tiles.overdue, problems),
    count(tiles.dueSoon, problems),
    count(tiles.closed30, problems),
    count(tiles.closed90, problems),
    level ? counts([['by', `location.${level}`], ...scope, ...OPEN], problems) : undefined,
    counts([['by', 'overdueAge'], ...scope, ...OVERDUE], problems),
    trends(trendQuery(scope, 'week', week.from, week.to), problems),
    trends(trendQuery(scope, 'day', utcDay(now.getTime() - 89 * DAY_MS), utcDay(now.getTime())), problems),
  ]);
  return {
    now,
    tiles: { open, overdue, dueSoon, closed30, closed90 },
    byLevel,
    byAge,
    weeks,
    days,
    problems: [...new Set(problems)],
  };
}

function Tile({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <li class="tile">
      <h3>{title}</h3>
      {children}
    </li>
  );
}

/** "Everything › Iron Ore › North Pit": each step back up the hierarchy is a link. */
function ScopeTrail({ scope }: { scope: Filters }) {
  return (
    <nav aria-label="Scope" class="trail">
      <ol>
        <li>
          {scope.length ? <a href={overviewPath([])}>Everything</a> : <span aria-current="page">Everything</span>}
        </li>
        {scope.map(([, value], i) => (
          <li key={LEVELS[i]}>
            {i === scope.length - 1 ? (
              <span aria-current="page">{value || '(none)'}</span>
            ) : (
              <a href={overviewPath(scope.slice(0, i + 1))}>{value || '(none)'}</a>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}

const AGE_NAMES: Record<(typeof AGES)[number], string> = {
  '1-7': '1 to 7 days',
  '8-30': '8 to 30 days',
  '31-90': '31 to 90 days',
  '91+': 'More than 90 days',
};

export function Overview() {
  const scope = scopeOf(address.value.searchParams);
  const key = overviewPath(scope);
  const [data, setData] = useState<Data | undefined>();
  useEffect(() => {
    let current = true;
    setData(undefined);
    void load(scope).then((loaded) => current && setData(loaded));
    return () => {
      current = false;
    };
  }, [key]);

  const level = nextLevel(scope);
  const where = scope.length ? scope[scope.length - 1]?.[1] || '(none)' : 'everything';
  const heading = (
    <h1 id="overview-heading" tabIndex={-1}>
      Overview
    </h1>
  );
  if (!data)
    return (
      <>
        {heading}
        <ScopeTrail scope={scope} />
        <p class="count" aria-live="polite">
          Loading…
        </p>
      </>
    );

  const { now, tiles } = data;
  const filters = tileFilters(scope, now);
  const last30 = data.days?.slice(-30) ?? [];
  const closedTrend = last30.reduce((sum, b) => sum + b.closed, 0);
  const onTime = last30.reduce((sum, b) => sum + b.closedOnTime, 0);
  const mean = data.days ? meanDays(data.days) : null;

  const levelRows: BarRow[] = (data.byLevel?.groups ?? []).map((group) => {
    const value = group.key[`location.${level}`] ?? '';
    const inside: Filters = [...scope, [`location.${level}`, value]];
    const name = value || '(none)';
    return {
      key: value,
      name: value ? <a href={overviewPath(inside)}>{name}</a> : name,
      values: [
        { value: group.count, href: listPath([...inside, ...OPEN]), label: `open at ${name}` },
        { value: group.overdue, href: listPath([...inside, ...OPEN, ...OVERDUE]), label: `overdue at ${name}` },
      ],
    };
  });
  const ageRows: BarRow[] = AGES.map((age) => {
    const group = data.byAge?.groups.find((g) => g.key.overdueAge === age);
    return {
      key: age,
      name: AGE_NAMES[age],
      values: [
        {
          value: group?.count ?? 0,
          href: listPath(ageFilters(scope, age, now)),
          label: `overdue ${AGE_NAMES[age].toLowerCase()}`,
        },
      ],
    };
  });
  const weeks = data.weeks ?? [];

  return (
    <>
      {heading}
      <ScopeTrail scope={scope} />
      <p class="hint">
        What you can see in {where}, as of {formatTime(now.toISOString())}. Every number opens the list it counts.
      </p>
      <FormAlert messages={data.problems.length ? data.problems : undefined} />

      <h2 id="tiles-heading" class="visually-hidden">
        Numbers
      </h2>
      <ul class="tiles" aria-labelledby="tiles-heading">
        <Tile title="Open">
          <p class="big">
            <Count value={tiles.open} href={listPath(filters.open)} label="open" />
          </p>
        </Tile>
        <Tile title="Overdue">
          <p class="big">
            <Count value={tiles.overdue} href={listPath(filters.overdue)} label="overdue" />
          </p>
          <p>
            {tiles.overdue !== undefined && tiles.open !== undefined
              ? `${percent(tiles.overdue, tiles.open)} of open`
              : ''}
          </p>
        </Tile>
        <Tile title="Due in the next 7 days">
          <p class="big">
            <Count value={tiles.dueSoon} href={listPath(filters.dueSoon)} label="due in the next 7 days" />
          </p>
        </Tile>
        <Tile title="Closed in the last 30 days">
          <p class="big">
            <Count value={tiles.closed30} href={listPath(filters.closed30)} label="closed in the last 30 days" />
          </p>
          <p>{data.days ? `${percent(onTime, closedTrend)} on time` : ''}</p>
        </Tile>
        <Tile title="Mean days to close">
          <p class="big">{mean === null ? '—' : mean.toFixed(1)}</p>
          <p>
            over the last 90 days:{' '}
            <Count value={tiles.closed90} href={listPath(filters.closed90)} label="closed in the last 90 days" /> closed
          </p>
        </Tile>
      </ul>

      {level ? (
        <section aria-labelledby="by-level-heading">
          <h2 id="by-level-heading">Open and overdue by {levelName(level).toLowerCase()}</h2>
          {levelRows.length ? (
            <BarTable
              caption={`Open and overdue actions by ${levelName(level).toLowerCase()}; a name drills into it`}
              head={levelName(level)}
              series={['Open', 'Overdue']}
              rows={levelRows}
            />
          ) : (
            <p>{data.byLevel ? 'No open actions here.' : 'Not available.'}</p>
          )}
          {data.byLevel?.otherCount ? <p class="hint">{data.byLevel.otherCount} more open in other places.</p> : null}
          {levelRows.length ? (
            <ul class="legend" aria-hidden="true">
              <li class="series-0">Open</li>
              <li class="series-1">Overdue</li>
            </ul>
          ) : null}
        </section>
      ) : null}

      <section aria-labelledby="by-age-heading">
        <h2 id="by-age-heading">Overdue by age</h2>
        {data.byAge ? (
          <BarTable
            caption="Overdue actions by how many days past due"
            head="Days overdue"
            series={['Overdue']}
            tones={[1]}
            rows={ageRows}
          />
        ) : (
          <p>Not available.</p>
        )}
      </section>

      <section aria-labelledby="weeks-heading">
        <h2 id="weeks-heading">Raised and closed per week</h2>
        {data.weeks ? (
          <>
            <WeekChart
              summary={`Actions raised and closed in each of the last ${weeks.length} weeks, with open at each week's end; the table below has the numbers.`}
              points={weeks.map((b) => ({
                label: formatDay(b.start).replace(/ \d{4}$/, ''),
                raised: b.created,
                closed: b.closed,
                open: b.openAtEnd,
              }))}
            />
            <ul class="legend" aria-hidden="true">
              <li class="series-0">Raised</li>
              <li class="series-2">Closed</li>
              <li class="open-key">Open at week's end</li>
            </ul>
            <details class="numbers">
              <summary>The numbers as a table</summary>
              <div class="table-wrap">
                <table class="weeks">
                  <caption class="visually-hidden">Raised, closed and open per week (weeks start Monday, UTC)</caption>
                  <thead>
                    <tr>
                      <th scope="col">Week of</th>
                      <th scope="col" class="num">
                        Raised
                      </th>
                      <th scope="col" class="num">
                        Closed
                      </th>
                      <th scope="col" class="num">
                        Open at end
                      </th>
                      <th scope="col" class="num">
                        Overdue at end
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {weeks.map((b, i) => {
                      const last = i === weeks.length - 1;
                      const day = formatDay(b.start);
                      return (
                        <tr key={b.start}>
                          <th scope="row">{day}</th>
                          <td class="num" data-label="Raised">
                            <Count
                              value={b.created}
                              href={listPath(createdIn(scope, b.start, b.end))}
                              label={`raised in the week of ${day}`}
                            />
                          </td>
                          <td class="num" data-label="Closed">
                            <Count
                              value={b.closed}
                              href={listPath(closedIn(scope, b.start, b.end))}
                              label={`closed in the week of ${day}`}
                            />
                          </td>
                          <td class="num" data-label="Open at end">
                            {last ? (
                              <Count value={b.openAtEnd ?? undefined} href={listPath(filters.open)} label="open now" />
                            ) : (
                              (b.openAtEnd ?? '—')
                            )}
                          </td>
                          <td class="num" data-label="Overdue at end">
                            {last ? (
                              <Count
                                value={b.overdueAtEnd ?? undefined}
                                href={listPath(filters.overdue)}
                                label="overdue now"
                              />
                            ) : (
                              (b.overdueAtEnd ?? '—')
                            )}
                          </td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </div>
            </details>
          </>
        ) : (
          <p>Not available.</p>
        )}
      </section>
    </>
  );
}
