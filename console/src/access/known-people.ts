import { api } from '../api';
import type { CountGroup, Grant, Scope } from '../api-pending';
import { isSomeone, type KnownPerson, knownPeople } from '../people';
import type { Action } from '../types';

/**
 * The people and places the service knows, for the People and access pickers. No API lists
 * people (there is no directory: a person is known by the actions and grants that name them), so
 * they are gathered from what the admin can read: the counts by assignee and by owner (section
 * 17: every person who has an action, with their name), the newest actions (names and emails),
 * the grants listed and the admin themself. The places: the counts by business unit and site
 * (every pair that exists), else the newest actions' and the grants' locations.
 */

const SAMPLE = 100;
const GROUPS = 100;

/** The people of some actions: assignees, owners and initiators. */
const peopleOf = (actions: Action[]): KnownPerson[] =>
  actions.flatMap((action) =>
    [action.assignee, action.owner, (action as { initiator?: KnownPerson }).initiator].flatMap((p) =>
      p && isSomeone(p) ? [{ id: p.id, name: p.name, email: p.email ?? undefined }] : [],
    ),
  );

/** What the service can tell the pickers: people, and the places of the newest actions and of every counted pair. */
export interface Known {
  people: KnownPerson[];
  places: Scope[];
}

async function countsBy(by: string[]): Promise<CountGroup[]> {
  const query = new URLSearchParams([...by.map((b): [string, string] => ['by', b]), ['limit', String(GROUPS)]]);
  const { data } = await api
    .GET('/api/actions/counts', { params: { query: {} as never }, querySerializer: () => query.toString() })
    .catch(() => ({ data: undefined }));
  return data?.groups ?? [];
}

export async function loadKnown(grants: Grant[] = []): Promise<Known> {
  const [list, assignees, owners, places] = await Promise.all([
    api.GET('/api/actions', { params: { query: { limit: SAMPLE } } }).catch(() => ({ data: undefined })),
    countsBy(['assignee']),
    countsBy(['owner']),
    countsBy(['location.businessUnit', 'location.site']),
  ]);
  const actions = list.data?.actions ?? [];
  const counted = [...assignees, ...owners].flatMap((group) => {
    const field = 'assignee' in group.key ? 'assignee' : 'owner';
    const id = group.key[field];
    return id ? [{ id, name: group.label[field] ?? id }] : [];
  });
  const granted = grants.flatMap((grant) =>
    grant.principal.type === 'person'
      ? [{ id: grant.principal.id, name: grant.principal.name ?? grant.principal.id }]
      : [],
  );
  return {
    people: knownPeople([...peopleOf(actions), ...counted, ...granted]),
    places: [
      ...actions.map((action) => action.location),
      ...places.map((group) => ({
        businessUnit: group.key['location.businessUnit'],
        site: group.key['location.site'],
      })),
    ],
  };
}
